package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.store.dispatch.pipeline.PipelineFixture.Inner;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Op;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Prepared;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Unpacked;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * For random workloads (many topics and queues, single messages, unpacked batches, BatchCQ inner batches, transaction
 * half messages, segment rolls in the log and file rolls in the queues), random pipeline shapes and chunks cut by
 * walking or at the appender's boundary hints, with or without CRC checks, and BatchCQ slots a record each, shared
 * back to back or spanning other queues' records, the pipelined dispatcher writes
 * byte-for-byte the same SimpleCQ and BatchCQ files as serial dispatch, its oracle, and every queue ends where the
 * log's queue offsets say.
 */
class DispatchEquivalenceTest {

    @Property(tries = 100)
    void pipelinedDispatchWritesTheSameFilesAsSerialDispatch(@ForAll("workloads") List<Op> workload,
                                                             @ForAll("shapes") PipelineSettings settings,
                                                             @ForAll("granules") int boundaryGranuleBytes,
                                                             @ForAll("sharing") Sharing sharing)
            throws IOException {
        Path root = Files.createTempDirectory("sluice-equivalence");
        try (CommitLog log = PipelineFixture.openLog(root, boundaryGranuleBytes)) {
            PipelineFixture.appendAll(log, workload);
            try (ConsumeQueueTable serial = sharing.open(root.resolve("serial"), PipelineFixture.SEGMENT_BYTES)) {
                PipelineFixture.serialDispatch(log, serial, 0);
            }
            try (ConsumeQueueTable pipelined = sharing.open(root.resolve("pipelined"), PipelineFixture.SEGMENT_BYTES)) {
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

    /**
     * Both dispatchers number the records they meet, half messages included, and a spanning slot covers fewer than
     * 1,024 of them: a queue's record past 1,100 half messages of another queue starts a slot of its own in both.
     */
    @Example
    void halfMessagesCountTowardsASpanningSlotsRecordBoundInBothDispatchers() throws IOException {
        Path root = Files.createTempDirectory("sluice-equivalence");
        int segmentBytes = 1024 * 1024;
        Sharing spanning = new Sharing(64 * 1024, segmentBytes);
        List<Op> workload = new ArrayList<>();
        workload.add(new Inner("B0", 0, 4, 10, null));
        for (int i = 0; i < 1_100; i++) {
            workload.add(new Prepared("S1", 1, 0));
        }
        workload.add(new Inner("B0", 0, 4, 10, null));
        workload.add(new Inner("B0", 0, 4, 10, null)); // back to back: joins the second slot
        try (CommitLog log = PipelineFixture.openLog(root, PipelineFixture.NO_HINTS, segmentBytes)) {
            List<AppendResult> appended = PipelineFixture.appendAll(log, workload);
            try (ConsumeQueueTable serial = spanning.open(root.resolve("serial"), segmentBytes)) {
                PipelineFixture.serialDispatch(log, serial, 0);
                ConsumeQueue q = serial.find("B0", 0).orElseThrow();
                assertEquals(12, q.maxOffset());
                // The last slot starts at the second record: the first did not grow past the half messages.
                assertEquals(appended.get(1_101).position(), q.startOfSlotReachingPast(log.writtenPosition() - 1),
                        q::toString);
            }
            try (ConsumeQueueTable pipelined = spanning.open(root.resolve("pipelined"), segmentBytes)) {
                PipelineFixture.dispatchAll(log, pipelined, PipelineFixture.smallChunks(), null, 0);
            }
            PipelineFixture.assertSameQueueFiles(root.resolve("serial"), root.resolve("pipelined"));
        } finally {
            deleteRecursively(root);
        }
    }

    /** How BatchCQ records share slots: unit 0 is a slot per record, span 0 back to back only. */
    record Sharing(int unitMaxBytes, int spanMaxBytes) {
        ConsumeQueueTable open(Path root, int logSegmentBytes) throws IOException {
            return PipelineFixture.openQueues(root, unitMaxBytes, spanMaxBytes, spanMaxBytes > 0 ? logSegmentBytes : 0);
        }
    }

    @Provide
    Arbitrary<Sharing> sharing() {
        return Arbitraries.of(new Sharing(0, 0), new Sharing(4096, 0), new Sharing(16 * 1024, 64 * 1024));
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
