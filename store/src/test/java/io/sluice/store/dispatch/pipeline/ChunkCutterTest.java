package io.sluice.store.dispatch.pipeline;

import static io.sluice.store.dispatch.pipeline.PipelineFixture.SEGMENT_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkCutterTest {

    @TempDir
    Path dir;

    /** What the cutter emitted, copied (the chunk objects are reused). */
    record Cut(Chunk.Kind kind, long start, long end, long segmentEnd, int records, boolean damage) {
        long length() {
            return end - start;
        }
    }

    /** Drives a cutter by hand; the test plays workers and writer. */
    private static final class Harness {
        private final CommitLog log;
        final OrderedRing<Chunk> ring;
        final PipelineControl control = new PipelineControl();
        final ChunkCutter cutter;
        final List<Cut> cuts = new ArrayList<>();
        final PipelineCounters counters = new PipelineCounters();

        Harness(CommitLog log, PipelineSettings settings) {
            this.log = log;
            ring = new OrderedRing<>(settings.ringSlots(), 0);
            Chunk[] pool = new Chunk[settings.ringSlots()];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = new Chunk();
            }
            cutter = new ChunkCutter(log, settings, ring, pool, this::toWorker, control, counters,
                    SystemEpochClock.INSTANCE, 0, 0);
        }

        private void toWorker(Chunk c) {
            try {
                ring.offer(c.seq, c, 0);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        /** Writes (releases) everything in the ring, recording it. */
        void writeAll() throws InterruptedException {
            Chunk c;
            while ((c = ring.awaitHead(0)) != null) {
                int records = c.kind == Chunk.Kind.RECORDS ? countRecords(c.startPosition, c.endPosition) : 0;
                cuts.add(new Cut(c.kind, c.startPosition, c.endPosition, c.segmentEndPosition, records,
                        c.skipForDamage));
                ring.release();
            }
        }

        /** Records (a blank end record included) in [start, end), by a walk of the log. */
        private int countRecords(long start, long end) {
            int n = 0;
            for (long p = start; p < end; n++) {
                p = log.scan(p, false).nextPosition();
            }
            return n;
        }

        /** Cuts until nothing is left, writing after every cut. */
        List<Cut> cutAll() throws InterruptedException {
            while (cutter.cutOnce() > 0) {
                writeAll();
            }
            return cuts;
        }
    }

    @Test
    void shouldCutOnRecordBoundariesNeverAcrossASegment() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            Set<Long> boundaries = new HashSet<>();
            Map<Long, Integer> recordBytesAt = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                AppendResult r = PipelineFixture.append(log, new Single("T", i % 3, 50 + (i * 397) % 3000, null), i);
                boundaries.add(r.position());
                boundaries.add(r.nextPosition());
                recordBytesAt.put(r.position(), r.wroteBytes());
            }
            assertTrue(log.writtenPosition() > 2L * SEGMENT_BYTES, "the workload must roll segments");
            PipelineSettings settings = new PipelineSettings(4096, 1000, 1, 4, false);
            List<Cut> cuts = new Harness(log, settings).cutAll();

            long expectedStart = 0;
            for (Cut c : cuts) {
                assertEquals(Chunk.Kind.RECORDS, c.kind());
                assertEquals(expectedStart, c.start(), "chunks are contiguous");
                assertTrue(boundaries.contains(c.start()), "starts on a record: " + c);
                boolean endsSegment = c.end() % SEGMENT_BYTES == 0;
                assertTrue(endsSegment || boundaries.contains(c.end()), "ends on a record or a segment: " + c);
                assertEquals(c.start() / SEGMENT_BYTES, (c.end() - 1) / SEGMENT_BYTES, "within one segment: " + c);
                assertEquals(c.start() / SEGMENT_BYTES * SEGMENT_BYTES + SEGMENT_BYTES, c.segmentEnd());
                assertTrue(c.length() <= 4096 || c.records() == 1, "within chunkBytes unless one record: " + c);
                if (!endsSegment && c.end() != log.writtenPosition()) {
                    // No record starts at a segment's blank record, which reaches the segment end.
                    int next = recordBytesAt.getOrDefault(c.end(), (int) (c.segmentEnd() - c.end()));
                    assertTrue(c.length() + next > 4096,
                            "a chunk takes every whole record that fits in 4096 bytes: " + c);
                }
                expectedStart = c.end();
            }
            assertEquals(log.writtenPosition(), expectedStart, "everything confirmed is cut");
        }
    }

    @Test
    void shouldCutAfterMaxRecordsPerChunk() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            PipelineFixture.appendSimple(log, "T", 2, 50, 10);
            List<Cut> cuts = new Harness(log, new PipelineSettings(1 << 20, 3, 1, 4, false)).cutAll();
            int records = 0;
            for (int i = 0; i < cuts.size(); i++) {
                assertEquals(i < cuts.size() - 1 ? 3 : 2, cuts.get(i).records(), cuts.get(i).toString());
                records += cuts.get(i).records();
            }
            assertEquals(50, records);
        }
    }

    @Test
    void shouldCutALoneMessageAtOnceButLetATailGrowWhileBusy() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            Harness h = new Harness(log, new PipelineSettings(4096, 1000, 1, 16, false));
            assertEquals(0, h.cutter.cutOnce());
            assertEquals(ChunkCutter.Idle.NO_DATA, h.cutter.lastIdle());

            PipelineFixture.append(log, new Single("T", 0, 10, null), 1);
            assertEquals(1, h.cutter.cutOnce(), "an idle pipeline takes a single message at once");

            PipelineFixture.append(log, new Single("T", 0, 10, null), 2);
            assertEquals(0, h.cutter.cutOnce(), "one chunk in flight for one worker: the tail waits");
            assertEquals(ChunkCutter.Idle.BUSY, h.cutter.lastIdle());

            h.writeAll();
            assertEquals(1, h.cutter.cutOnce(), "the worker is free again: the tail is cut");
            h.writeAll();
            assertEquals(List.of(1, 1), h.cuts.stream().map(Cut::records).toList());

            assertEquals(0, h.cutter.cutOnce(), "nothing left");
            PipelineFixture.appendSimple(log, "U", 1, 105, 100);
            assertTrue(h.cutter.cutOnce() > 0);
            int cutsWhileBusy = 0;
            while (h.cutter.cutOnce() > 0) {
                cutsWhileBusy++;
            }
            assertTrue(cutsWhileBusy > 0, "full chunks are cut even while the workers are busy");
            assertEquals(ChunkCutter.Idle.BUSY, h.cutter.lastIdle());
            assertTrue(h.cutter.cutPosition() < log.writtenPosition(), "only the small tail waits");
        }
    }

    @Test
    void shouldLetAnAppenderCutOnlyASmallTailOfAnIdlePipeline() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            Harness h = new Harness(log, new PipelineSettings(1 << 20, 1000, 1, 16, false, 2048, true));
            h.cutter.assist();
            assertEquals(0, h.counters.assistedChunks.get(), "nothing to cut");

            AppendResult first = PipelineFixture.append(log, new Single("T", 0, 10, null), 1);
            h.cutter.assist();
            assertEquals(1, h.counters.assistedChunks.get(), "an idle pipeline: the appender cuts its message");
            assertEquals(first.nextPosition(), h.cutter.cutPosition());

            PipelineFixture.append(log, new Single("T", 0, 10, null), 2);
            h.cutter.assist();
            assertEquals(first.nextPosition(), h.cutter.cutPosition(), "a chunk in flight: the reader's job");
            h.writeAll();
            h.cutter.assist();
            assertEquals(log.writtenPosition(), h.cutter.cutPosition(), "idle again");
            h.writeAll();

            long before = h.cutter.cutPosition();
            PipelineFixture.appendSimple(log, "U", 1, 30, 100);
            assertTrue(log.writtenPosition() - before > 2048);
            h.cutter.assist();
            assertEquals(before, h.cutter.cutPosition(), "more than inlineMaxBytes: the reader's job");
            assertEquals(2, h.counters.assistedChunks.get());
            assertEquals(List.of(1, 1), h.cuts.stream().map(Cut::records).toList());
            assertTrue(h.cutter.cutOnce() > 0, "the reader still cuts what the appender left");
        }
    }

    @Test
    void shouldNotLetAnAppenderCutWhenAssistIsOffOrNothingIsInline() throws Exception {
        for (PipelineSettings settings : List.of(new PipelineSettings(1 << 20, 1000, 1, 16, false, 2048, false),
                new PipelineSettings(1 << 20, 1000, 1, 16, false, 0, true))) {
            Path root = Files.createTempDirectory(dir, "assist");
            try (CommitLog log = PipelineFixture.openLog(root)) {
                Harness h = new Harness(log, settings);
                PipelineFixture.append(log, new Single("T", 0, 10, null), 1);
                h.cutter.assist();
                assertEquals(0, h.cutter.cutPosition(), settings.toString());
                assertEquals(0, h.counters.assistedChunks.get(), settings.toString());
            }
        }
    }

    @Test
    void shouldGiveWayWhileAnotherThreadHoldsTheTurn() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            Harness h = new Harness(log, new PipelineSettings(1 << 20, 1000, 1, 16, false, 2048, true));
            PipelineFixture.append(log, new Single("T", 0, 10, null), 1);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                h.cutter.turn().lock();
                try {
                    held.countDown();
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    h.cutter.turn().unlock();
                }
            }, "test-turn-holder");
            holder.start();
            try {
                assertTrue(held.await(10, TimeUnit.SECONDS));
                assertTimeoutPreemptively(Duration.ofSeconds(10), h.cutter::assist, "an assist only tries the turn");
                assertEquals(0, h.cutter.cutPosition(), "the turn's holder cuts, not the appender");
                assertEquals(0, h.counters.assistedChunks.get());
            } finally {
                release.countDown();
                holder.join(10_000);
            }
            assertFalse(holder.isAlive());
            h.cutter.assist();
            assertEquals(log.writtenPosition(), h.cutter.cutPosition(), "the turn is free again");
        }
    }

    @Test
    void shouldSkipTheRestOfTheSegmentAtABrokenChain() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            List<AppendResult> results = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                results.add(PipelineFixture.append(log, new Single("T", 0, 2000, null), i));
            }
            long damaged = results.get(10).position();
            PipelineFixture.overwrite(dir, damaged + 4, PipelineFixture.intBytes(0x12345678));
            List<Cut> cuts = new Harness(log, new PipelineSettings(1 << 20, 1000, 1, 4, false)).cutAll();

            assertEquals(new Cut(Chunk.Kind.RECORDS, 0, damaged, SEGMENT_BYTES, 10, false), cuts.get(0));
            assertEquals(new Cut(Chunk.Kind.SKIP, damaged, SEGMENT_BYTES, SEGMENT_BYTES, 0, true), cuts.get(1));
            assertEquals(SEGMENT_BYTES, cuts.get(2).start(), "dispatch resumes at the next segment");
            assertEquals(log.writtenPosition(), cuts.get(cuts.size() - 1).end());
        }
    }

    @Test
    void shouldSkipToWhereTheWriterSaysAfterDamage() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            for (int i = 0; i < 80; i++) {
                PipelineFixture.append(log, new Single("T", 0, 2000, null), i);
            }
            Harness h = new Harness(log, new PipelineSettings(8192, 1000, 1, 4, false));
            assertEquals(1, h.cutter.cutOnce());
            h.writeAll();
            h.control.skipUntil(SEGMENT_BYTES);
            assertEquals(1, h.cutter.cutOnce());
            h.writeAll();
            Cut skip = h.cuts.get(1);
            assertEquals(Chunk.Kind.SKIP, skip.kind());
            assertEquals(h.cuts.get(0).end(), skip.start());
            assertEquals(SEGMENT_BYTES, skip.end());
            assertFalse(skip.damage(), "the damage was already reported by the writer");
        }
    }

    @Test
    void shouldJumpOverWhatRetentionDeleted() throws IOException, InterruptedException {
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            while (log.writtenPosition() < 3L * SEGMENT_BYTES) {
                PipelineFixture.append(log, new Single("T", 0, 4000, null), 1);
            }
            long min = log.deleteExpiredSegments(System.currentTimeMillis(), 0, true, 2);
            assertEquals(2L * SEGMENT_BYTES, min);
            List<Cut> cuts = new Harness(log, new PipelineSettings(1 << 20, 1000, 1, 4, false)).cutAll();
            assertEquals(new Cut(Chunk.Kind.SKIP, 0, min, min, 0, false), cuts.get(0));
            assertEquals(min, cuts.get(1).start());
        }
    }
}
