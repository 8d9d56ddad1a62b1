package io.sluice.store.dispatch.pipeline;

import static io.sluice.store.dispatch.pipeline.PipelineFixture.SEGMENT_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.pipeline.PipelineFixture.Inner;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.CommitLog;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures inside the pipeline and damage in the log: dispatch never stalls, reports each problem, and ends with the
 * consume queues the serial rules build from the same log. Each runs twice: with the reader walking every chunk
 * (it finds a broken length chain itself), and with chunks cut at the appender's boundary hints (the parse workers
 * find all damage).
 */
class FaultInjectionTest {

    @TempDir
    Path dir;
    /** The log's boundary granule: with hints, damage inside a chunk is found by the parse workers, not the walk. */
    private int granule;

    private CommitLog open(int boundaryGranuleBytes) throws IOException {
        granule = boundaryGranuleBytes;
        return PipelineFixture.openLog(dir, boundaryGranuleBytes);
    }

    /** Three segments of messages over a few SimpleCQ and BatchCQ queues. */
    private List<AppendResult> fill(CommitLog log) {
        List<AppendResult> results = new ArrayList<>();
        int i = 0;
        while (log.writtenPosition() < 3L * SEGMENT_BYTES) {
            results.add(i % 5 == 4
                    ? PipelineFixture.append(log, new Inner("B0", i % 2, 1 + i % 9, 100, "x"), i)
                    : PipelineFixture.append(log, new Single("S" + i % 3, i % 4, 100 + i * 37 % 1500, "t"), i));
            i++;
        }
        return results;
    }

    /** Runs the serial dispatcher and the pipeline over the same log and compares their files. */
    private PipelineStats compare(CommitLog log, PipelineSettings settings, ChunkDecoder decoder) throws IOException {
        try (ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"))) {
            PipelineFixture.serialDispatch(log, expected, 0);
        }
        PipelineStats stats;
        try (ConsumeQueueTable actual = PipelineFixture.openQueues(dir.resolve("pipelined"))) {
            stats = PipelineFixture.dispatchAll(log, actual, settings, decoder, 0);
        }
        PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), dir.resolve("pipelined"));
        assertTrue(stats.dispatchedPosition() >= log.writtenPosition(), "dispatch reached the end: " + stats);
        assertEquals(granule == PipelineFixture.SMALL_GRANULE, stats.hintedChunks() > 0,
                "chunks cut at hints with granule " + granule + ": " + stats);
        return stats;
    }

    /** A decoder that fails on every third chunk; the writer must decode those again. */
    private static ChunkDecoder failingEveryThird(ConsumeQueueTable queues, Throwable failure) {
        RecordChunkDecoder real = new RecordChunkDecoder(queues::getOrCreate, false);
        AtomicInteger calls = new AtomicInteger();
        return (chunk, scratch) -> {
            if (calls.incrementAndGet() % 3 == 0) {
                if (failure instanceof RuntimeException e) {
                    throw e;
                }
                throw (Error) failure;
            }
            real.decode(chunk, scratch);
        };
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldRecoverFromAWorkerThatThrows(int boundaryGranule) throws IOException {
        workerFailure(boundaryGranule, new IllegalStateException("injected worker failure"));
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldRecoverFromAWorkerThatFailsWithAnError(int boundaryGranule) throws IOException {
        workerFailure(boundaryGranule, new StackOverflowError("injected worker error"));
    }

    private void workerFailure(int boundaryGranule, Throwable failure) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            fill(log);
            try (ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"))) {
                PipelineFixture.serialDispatch(log, expected, 0);
            }
            PipelineStats stats;
            try (ConsumeQueueTable actual = PipelineFixture.openQueues(dir.resolve("pipelined"))) {
                ChunkDecoder decoder = failingEveryThird(actual, failure);
                stats = PipelineFixture.dispatchAll(log, actual, PipelineFixture.smallChunks(), decoder, 0);
            }
            PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), dir.resolve("pipelined"));
            assertTrue(stats.workerFailures() >= stats.chunks() / 3 - 1, "failures reported: " + stats);
            assertEquals(0, stats.corrupt());
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldSkipTheSegmentRestAfterACorruptRecordMidChunk(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            List<AppendResult> results = fill(log);
            // A wrong PHYSICALOFFSET: the length chain is intact, only the parse worker notices.
            AppendResult victim = middleOfSegment(results, 0);
            PipelineFixture.overwrite(dir, victim.position() + RecordDescriptor.PHYSICAL_OFFSET_OFFSET,
                    new byte[] {0, 0, 0, 0, 0, 0, 0, 7});
            // Big chunks: the damage sits in the middle of one chunk and later chunks of the segment are in flight.
            PipelineStats stats = compare(log, new PipelineSettings(8192, 1000, 2, 8, false), null);
            assertEquals(1, stats.corrupt(), stats.toString());
            assertEquals(SEGMENT_BYTES - victim.position(), stats.skippedBytes(), stats.toString());
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldSkipTheSegmentRestAfterABrokenLengthChain(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            List<AppendResult> results = fill(log);
            AppendResult victim = middleOfSegment(results, 1);
            PipelineFixture.overwrite(dir, victim.position() + RecordDescriptor.MAGIC_OFFSET,
                    PipelineFixture.intBytes(0));
            PipelineStats stats = compare(log, PipelineFixture.smallChunks(), null);
            assertEquals(1, stats.corrupt(), stats.toString());
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldTreatAZeroedHoleAsDamage(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            List<AppendResult> results = fill(log);
            AppendResult victim = middleOfSegment(results, 0);
            PipelineFixture.overwrite(dir, victim.position(), new byte[victim.wroteBytes()]);
            PipelineStats stats = compare(log, PipelineFixture.smallChunks(), null);
            assertEquals(1, stats.corrupt(), stats.toString());
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldTreatABadBodyCrcAsDamageWhenConfigured(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            List<AppendResult> results = fill(log);
            AppendResult victim = middleOfSegment(results, 2);
            PipelineFixture.overwrite(dir, victim.position() + RecordDescriptor.BODY_CRC_OFFSET,
                    PipelineFixture.intBytes(1));
            PipelineStats stats;
            try (ConsumeQueueTable actual = PipelineFixture.openQueues(dir.resolve("pipelined"))) {
                stats = PipelineFixture.dispatchAll(log, actual, PipelineFixture.smallChunks().withCheckCrc(true),
                        null, 0);
            }
            assertEquals(1, stats.corrupt(), stats.toString());
            // The serial dispatcher checks no CRC; give it damage it sees at the same record, and compare.
            PipelineFixture.overwrite(dir, victim.position() + RecordDescriptor.MAGIC_OFFSET,
                    PipelineFixture.intBytes(0));
            try (ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"))) {
                PipelineFixture.serialDispatch(log, expected, 0);
            }
            PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), dir.resolve("pipelined"));
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldIgnoreABadBodyCrcByDefault(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            List<AppendResult> results = fill(log);
            AppendResult victim = middleOfSegment(results, 2);
            PipelineFixture.overwrite(dir, victim.position() + RecordDescriptor.BODY_CRC_OFFSET,
                    PipelineFixture.intBytes(1));
            PipelineStats stats = compare(log, PipelineFixture.smallChunks(), null);
            assertEquals(0, stats.corrupt(), "dispatch does not check CRCs unless asked: " + stats);
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldContinueAfterWhatRetentionDeleted(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            fill(log);
            long min = log.deleteExpiredSegments(System.currentTimeMillis(), 0, true, 1);
            assertEquals(SEGMENT_BYTES, min);
            PipelineStats stats = compare(log, PipelineFixture.smallChunks(), null);
            assertEquals(SEGMENT_BYTES, stats.skippedBytes());
        }
    }

    @ParameterizedTest(name = "boundary granule {0}")
    @ValueSource(ints = {PipelineFixture.NO_HINTS, PipelineFixture.SMALL_GRANULE})
    void shouldSkipRecordsThatCannotBeIndexed(int boundaryGranule) throws IOException {
        try (CommitLog log = open(boundaryGranule)) {
            fill(log);
            // An inner batch in a SimpleCQ topic: the record is valid, the queue's layout cannot hold it.
            PipelineFixture.append(log, new Inner("S0", 0, 5, 10, null), 1);
            PipelineFixture.append(log, new Single("S0", 0, 10, null), 2);
            PipelineStats stats = compare(log, PipelineFixture.smallChunks(), null);
            assertEquals(1, stats.unindexable(), stats.toString());
        }
    }

    /** A record of segment {@code segment} that is neither its first nor its last. */
    private static AppendResult middleOfSegment(List<AppendResult> results, int segment) {
        List<AppendResult> in = results.stream().filter(r -> r.position() / SEGMENT_BYTES == segment).toList();
        assertTrue(in.size() > 4, "segment " + segment + " holds enough records");
        return in.get(in.size() / 2);
    }
}
