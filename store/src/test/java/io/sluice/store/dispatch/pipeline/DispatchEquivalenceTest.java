package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.store.dispatch.pipeline.PipelineFixture.Inner;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Op;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Prepared;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Unpacked;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * For random workloads (many topics and queues, single messages, unpacked batches, BatchCQ inner batches, transaction
 * half messages, segment rolls in the log and file rolls in the queues), random pipeline shapes and chunks cut by
 * walking or at the appender's boundary hints, with or without CRC checks, the pipelined dispatcher writes
 * byte-for-byte the same SimpleCQ and BatchCQ files as serial dispatch, its oracle, and every queue ends where the
 * log's queue offsets say.
 */
class DispatchEquivalenceTest {

    @Property(tries = 100)
    void pipelinedDispatchWritesTheSameFilesAsSerialDispatch(@ForAll("workloads") List<Op> workload,
                                                             @ForAll("shapes") PipelineSettings settings,
                                                             @ForAll("granules") int boundaryGranuleBytes)
            throws IOException {
        Path root = Files.createTempDirectory("sluice-equivalence");
        try (CommitLog log = PipelineFixture.openLog(root, boundaryGranuleBytes)) {
            PipelineFixture.appendAll(log, workload);
            try (ConsumeQueueTable serial = PipelineFixture.openQueues(root.resolve("serial"))) {
                PipelineFixture.serialDispatch(log, serial, 0);
            }
            try (ConsumeQueueTable pipelined = PipelineFixture.openQueues(root.resolve("pipelined"))) {
                PipelineStats stats = PipelineFixture.dispatchAll(log, pipelined, settings, null, 0);
                assertEquals(log.writtenPosition(), stats.dispatchedPosition());
                assertEquals(0, stats.corrupt() + stats.workerFailures() + stats.unexpectedErrors(), stats::toString);
                for (ConsumeQueue q : pipelined.queues()) {
                    assertEquals(log.queueOffsets().nextOffset(q.topic(), q.queueId()), q.maxOffset(), q::toString);
                }
            }
            PipelineFixture.assertSameQueueFiles(root.resolve("serial"), root.resolve("pipelined"));
        } finally {
            deleteRecursively(root);
        }
    }

    @Provide
    Arbitrary<List<Op>> workloads() {
        // Skewed towards one topic and queue, so that some queues roll their (64-slot) files.
        Arbitrary<String> simpleTopics = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just("S0")),
                Tuple.of(7, Arbitraries.of("S1", "S2", "S3", "S4", "S5", "S6", "S7")));
        Arbitrary<String> batchTopics = Arbitraries.of("B0", "B1", "B2");
        Arbitrary<Integer> queues = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(0)),
                Tuple.of(7, Arbitraries.integers().between(1, 7)));
        Arbitrary<String> tags = Arbitraries.of("a", "b", "c").injectNull(0.3);
        Arbitrary<Op> single = Combinators.combine(Arbitraries.oneOf(simpleTopics, batchTopics), queues,
                Arbitraries.integers().between(0, 2_000), tags).as(Single::new);
        Arbitrary<Op> unpacked = Combinators.combine(simpleTopics, queues, Arbitraries.integers().between(1, 20),
                Arbitraries.integers().between(0, 300)).as(Unpacked::new);
        Arbitrary<Op> inner = Combinators.combine(batchTopics, queues, Arbitraries.integers().between(1, 40),
                Arbitraries.integers().between(0, 200), tags).as(Inner::new);
        Arbitrary<Op> prepared = Combinators.combine(simpleTopics, queues, Arbitraries.integers().between(0, 100))
                .as(Prepared::new);
        return Arbitraries.frequencyOf(Tuple.of(6, single), Tuple.of(2, unpacked), Tuple.of(2, inner),
                Tuple.of(1, prepared)).list().ofMinSize(1).ofMaxSize(400);
    }

    /** The reader walks every chunk, or cuts full chunks at the appender's hints (fine or coarse). */
    @Provide
    Arbitrary<Integer> granules() {
        return Arbitraries.of(PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE, 4096);
    }

    @Provide
    Arbitrary<PipelineSettings> shapes() {
        return Combinators.combine(
                Arbitraries.of(64, 512, 4_096, 65_536, PipelineSettings.DEFAULT_CHUNK_BYTES),
                Arbitraries.of(1, 2, 7, 64, PipelineSettings.DEFAULT_MAX_RECORDS_PER_CHUNK),
                Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(1, 5),
                // Off (every chunk through the workers), some small chunks inline, the default.
                Arbitraries.of(0, 512, PipelineSettings.DEFAULT_INLINE_MAX_BYTES),
                // Verifying BODYCRC while parsing must not change what is indexed from an intact log.
                Arbitraries.of(false, true)
        ).as((chunkBytes, maxRecords, threads, slots, inlineMaxBytes, checkCrc) ->
                new PipelineSettings(chunkBytes, maxRecords, threads, slots, checkCrc, inlineMaxBytes));
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
