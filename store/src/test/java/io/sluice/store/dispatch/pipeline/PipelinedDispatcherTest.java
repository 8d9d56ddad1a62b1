package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.ArrivalListener;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Inner;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Op;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Prepared;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Single;
import io.sluice.store.dispatch.pipeline.PipelineFixture.Unpacked;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelinedDispatcherTest {

    @TempDir
    Path dir;

    /** An arrival as the listener saw it. */
    record Arrival(String topic, int queueId, long maxOffset) {
    }

    private static List<Op> mixedWorkload() {
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            switch (i % 6) {
                case 0, 1 -> ops.add(new Single("S" + i % 4, i % 3, 40 + i * 13 % 900, i % 2 == 0 ? "tag" + i : null));
                case 2 -> ops.add(new Unpacked("S1", i % 2, 1 + i % 7, 120));
                case 3 -> ops.add(new Inner("B" + i % 2, i % 3, 1 + i % 32, 60, "b" + i % 3));
                case 4 -> ops.add(new Single("B0", 1, 300, null));
                default -> ops.add(new Prepared("S0", 0, 80));
            }
        }
        return ops;
    }

    @Test
    void shouldBuildTheSameConsumeQueuesAsSerialDispatch() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"));
             ConsumeQueueTable actual = PipelineFixture.openQueues(dir.resolve("pipelined"))) {
            PipelineFixture.appendAll(log, mixedWorkload());
            assertTrue(log.writtenPosition() > 2L * PipelineFixture.SEGMENT_BYTES, "the workload rolls segments");
            PipelineFixture.serialDispatch(log, expected, 0);
            PipelineStats stats = PipelineFixture.dispatchAll(log, actual, PipelineFixture.smallChunks(), null, 0);

            PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), dir.resolve("pipelined"));
            assertEquals(log.writtenPosition(), stats.dispatchedPosition());
            assertEquals(100, stats.transactionSkipped());
            assertEquals(0, stats.corrupt() + stats.unindexable() + stats.inconsistent() + stats.workerFailures());
            for (ConsumeQueue q : actual.queues()) {
                assertEquals(log.queueOffsets().nextOffset(q.topic(), q.queueId()), q.maxOffset(), q.toString());
            }
        }
    }

    @Test
    void shouldMakeALoneMessageVisiblePromptlyWhenWokenUp() throws IOException {
        loneMessage(true);
    }

    @Test
    void shouldMakeALoneMessageVisiblePromptlyWithoutAWakeUp() throws IOException {
        loneMessage(false);
    }

    private void loneMessage(boolean wakeUp) throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            List<Arrival> arrivals = new CopyOnWriteArrayList<>();
            List<String> toldOn = new CopyOnWriteArrayList<>();
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineSettings.defaults(),
                    List.of((ArrivalListener) (t, q, max) -> {
                        arrivals.add(new Arrival(t, q, max));
                        toldOn.add(Thread.currentThread().getName());
                    }), null);
            try (d) {
                d.start(0);
                for (int i = 0; i < 3; i++) {
                    AppendResult r = PipelineFixture.append(log, new Single("Lone", 2, 10, null), i);
                    if (wakeUp) {
                        d.wakeUp();
                    }
                    // Default 4 MiB chunks: the message must not wait for a chunk to fill (no more traffic comes,
                    // so a message that waited would never be dispatched; the deadline only bounds the test).
                    Await.until("message " + i + " dispatched", () -> d.dispatchedPosition() == r.nextPosition());
                    assertEquals(i + 1, queues.find("Lone", 2).orElseThrow().maxOffset());
                    Await.until("arrival " + i, () -> arrivals.size() == r.queueOffset() + 1);
                    assertEquals(new Arrival("Lone", 2, i + 1), arrivals.get(i));
                }
                // The first chunk always finds the pipeline idle: the reader decodes and writes it without a
                // hand-off, so the listener hears of it on the reader's thread.
                assertTrue(d.stats().inlineChunks() >= 1, "chunks handled by the reader: " + d.stats());
                assertEquals("sluice-dispatch-reader", toldOn.get(0), "threads that told the listener: " + toldOn);
            }
        }
    }

    @Test
    void shouldNotifyOncePerChunkForEachQueueTouched() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelineFixture.appendSimple(log, "N", 2, 40, 30);
            List<Arrival> arrivals = new CopyOnWriteArrayList<>();
            PipelineSettings settings = new PipelineSettings(1 << 20, 10, 2, 4, false);
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, settings,
                    List.of((ArrivalListener) (t, q, max) -> arrivals.add(new Arrival(t, q, max))), null);
            try (d) {
                d.start(0);
                assertTrue(d.drain(10_000));
            }
            assertEquals(4, d.stats().chunks(), "40 records, 10 per chunk");
            assertEquals(List.of(new Arrival("N", 0, 5), new Arrival("N", 1, 5), new Arrival("N", 0, 10),
                    new Arrival("N", 1, 10), new Arrival("N", 0, 15), new Arrival("N", 1, 15),
                    new Arrival("N", 0, 20), new Arrival("N", 1, 20)), arrivals);
        }
    }

    @Test
    void shouldReportLagAgainstTheWrittenSlotsNotTheParsedChunks() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            List<AppendResult> results = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                results.add(PipelineFixture.append(log, new Single("L", 0, 100, null), i));
            }
            CountDownLatch stuck = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            // Blocks while telling about the second chunk: its slots are written but not yet published.
            ArrivalListener blocking = (t, q, max) -> {
                if (max > 10) {
                    stuck.countDown();
                    await(release);
                }
            };
            CachedEpochClock clock = new CachedEpochClock();
            clock.update(results.get(0).storeTimestampMs()); // start: not caught up later than the first record
            // Four workers: the reader cuts up to four chunks before it waits for the writer. Nothing inline: the
            // blocking listener must hold the writer thread, not the reader.
            PipelineSettings settings = new PipelineSettings(1 << 20, 10, 4, 4, false, 0);
            PipelinedDispatcher d = new PipelinedDispatcher(log, queues, settings, List.of(blocking), clock, null);
            try (d) {
                d.start(0);
                assertTrue(stuck.await(10, TimeUnit.SECONDS));
                Await.until("later chunks parsed", () -> d.chunksInFlight() == 2);
                long afterFirstChunk = results.get(9).nextPosition();
                assertEquals(afterFirstChunk, d.dispatchedPosition(), "only the completed chunk counts");
                assertEquals(log.writtenPosition() - afterFirstChunk, d.lagBytes());
                clock.update(results.get(9).storeTimestampMs() + 7_000);
                assertEquals(7_000, d.lagMs(), "now minus the store time of the last record written");
                assertFalse(d.drain(10), "cannot catch up while the writer is stuck");
                release.countDown();
                assertTrue(d.drain(10_000));
                assertEquals(0, d.lagBytes());
                assertEquals(0, d.lagMs());
            }
        }
    }

    @Test
    void shouldMeasureLagFromWhenDispatchLastCaughtUpAfterAnIdlePeriod() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            CountDownLatch stuck = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ArrivalListener blocking = (t, q, max) -> {
                if (max == 2) {
                    stuck.countDown();
                    await(release);
                }
            };
            CachedEpochClock clock = new CachedEpochClock();
            AppendResult first = PipelineFixture.append(log, new Single("I", 0, 10, null), 1);
            clock.update(first.storeTimestampMs());
            PipelinedDispatcher d = new PipelinedDispatcher(log, queues, PipelineFixture.smallChunks(),
                    List.of(blocking), clock, null);
            try (d) {
                d.start(0);
                Await.until("first record dispatched", () -> d.lagBytes() == 0);
                long idleUntil = first.storeTimestampMs() + 3_600_000; // an hour without traffic
                clock.update(idleUntil);
                Await.until("the reader notices it is idle", () -> d.caughtUpAtMs() == idleUntil);
                PipelineFixture.append(log, new Single("I", 0, 10, null), 2);
                assertTrue(stuck.await(10, TimeUnit.SECONDS));
                clock.update(idleUntil + 500);
                assertEquals(500, d.lagMs(), "not an hour: the new record waited at most since dispatch was idle");
                release.countDown();
                assertTrue(d.drain(10_000));
            }
        }
    }

    @Test
    void shouldKeepAtMostRingSlotsChunksWhenTheWriterIsStuck() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelineFixture.appendSimple(log, "M", 4, 400, 50);
            CountDownLatch release = new CountDownLatch(1);
            ArrivalListener blocking = (t, q, max) -> await(release);
            PipelineSettings settings = new PipelineSettings(1024, 5, 2, 3, false, 0); // the writer thread blocks
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, settings, List.of(blocking), null);
            try (d) {
                d.start(0);
                Await.until("ring full", () -> d.chunksInFlight() == 3);
                long cut = d.cutPosition();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                while (System.nanoTime() < deadline) {
                    assertTrue(d.chunksInFlight() <= 3, "never more chunks than ring slots");
                    assertEquals(cut, d.cutPosition(), "the reader waits for room");
                    LockSupport.parkNanos(1_000_000);
                }
                assertTrue(cut < log.writtenPosition());
                release.countDown();
                assertTrue(d.drain(10_000));
            }
        }
    }

    @Test
    void shouldDrainWhatWasAppendedWhileRunning() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineFixture.smallChunks(), List.of(),
                    null);
            try (d) {
                d.start(0);
                for (int i = 0; i < 2_000; i++) {
                    PipelineFixture.append(log, new Single("D", i % 7, 20 + i % 200, null), i);
                    if (i % 100 == 0) {
                        d.wakeUp();
                    }
                }
                assertTrue(d.drain(10_000));
                assertEquals(log.writtenPosition(), d.dispatchedPosition());
            }
            for (int q = 0; q < 7; q++) {
                assertEquals(log.queueOffsets().nextOffset("D", q), queues.find("D", q).orElseThrow().maxOffset());
            }
        }
    }

    @Test
    void shouldLetTheAppendingThreadIndexItsOwnSendWhileIdle() throws IOException {
        String me = Thread.currentThread().getName();
        List<String> toldOn = new CopyOnWriteArrayList<>();
        PipelineStats stats = appendOneByOneAndAssist(PipelineSettings.defaults(),
                (t, q, max) -> toldOn.add(Thread.currentThread().getName()));
        // An assist gives way when the reader holds its turn or has already cut the tail, so not every send is
        // indexed by its appender; over 50 idle sends some are.
        assertTrue(stats.assistedChunks() > 0, "assisted: " + stats);
        assertTrue(toldOn.contains(me), "threads that told the listener: " + toldOn);
    }

    @Test
    void shouldNeverLetAppendersAssistWhenSwitchedOff() throws IOException {
        PipelineStats stats = appendOneByOneAndAssist(PipelineSettings.defaults().withAppenderAssist(false),
                (t, q, max) -> { });
        assertEquals(0, stats.assistedChunks());
    }

    /** Appends 50 messages one at a time, each followed by afterAppend and a wait until it is dispatched. */
    private PipelineStats appendOneByOneAndAssist(PipelineSettings settings, ArrivalListener listener)
            throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, settings, List.of(listener), null);
            try (d) {
                d.start(0);
                for (int i = 0; i < 50; i++) {
                    AppendResult r = PipelineFixture.append(log, new Single("Own", 1, 100, null), i);
                    d.afterAppend();
                    Await.until("message " + i + " dispatched", () -> d.dispatchedPosition() == r.nextPosition());
                }
                assertEquals(50, queues.find("Own", 1).orElseThrow().maxOffset());
                return d.stats();
            }
        }
    }

    @Test
    void shouldLeaveAFailedQueueFileToTheWriterRatherThanHoldTheAppender() throws Exception {
        Path queuesRoot = dir.resolve("queues");
        ExecutorService lane = Executors.newSingleThreadExecutor();
        try (CommitLog log = PipelineFixture.openLog(dir.resolve("log"));
             ConsumeQueueTable queues = PipelineFixture.openQueues(queuesRoot)) {
            // A file where the topic's queue directories go: creating queue 0 fails until it is removed.
            Path blocker = queuesRoot.resolve("consumequeue").resolve("Stuck");
            Files.createDirectories(blocker.getParent());
            Files.writeString(blocker, "not a directory");
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineSettings.defaults(), List.of(),
                    null);
            try (d) {
                d.start(0);
                // A first send warms the path; then, with the reader asleep (it looks again every millisecond),
                // the blocked send is almost always cut by its appender. When the reader wins, it defers alike.
                lane.submit(() -> {
                    PipelineFixture.append(log, new Single("Warm", 0, 50, null), 0);
                    d.afterAppend();
                }).get(10, TimeUnit.SECONDS);
                Await.until("the reader sleeps", d::readerParked);
                AppendResult r = lane.submit(() -> {
                    AppendResult stuck = PipelineFixture.append(log, new Single("Stuck", 0, 50, null), 1);
                    d.afterAppend();
                    return stuck;
                }).get(10, TimeUnit.SECONDS); // before the fix, an assisting appender retried until the file was made
                Await.until("the failure is met", () -> d.stats().ioErrors() > 0);
                assertTrue(d.stats().inlineChunks() >= 2, "the idle pipeline took both chunks inline: " + d.stats());
                assertTrue(d.dispatchedPosition() < r.nextPosition(), "nothing is dispatched past the failure");

                Files.delete(blocker);
                Await.until("the writer thread's retry succeeds", () -> d.dispatchedPosition() == r.nextPosition());
                assertEquals(1, queues.find("Stuck", 0).orElseThrow().maxOffset());
                assertEquals(2, d.stats().indexed(), "each indexed once: " + d.stats());
            }
        } finally {
            lane.shutdownNow();
        }
    }

    @Test
    void shouldStopAssistingOnceClosed() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineSettings.defaults(), List.of(),
                    null);
            d.start(0);
            CountDownLatch closed = new CountDownLatch(1);
            Thread appender = new Thread(() -> {
                // Appends and assists until 200 appends after the close.
                int afterClose = 0;
                for (int i = 0; afterClose < 200; i++) {
                    PipelineFixture.append(log, new Single("C", i % 2, 50, null), i);
                    d.afterAppend();
                    if (closed.getCount() == 0) {
                        afterClose++;
                    }
                }
            }, "test-appender");
            appender.start();
            try {
                Await.until("assists happen", () -> d.stats().assistedChunks() > 0);
                d.close();
                long assistedAtClose = d.stats().assistedChunks();
                long dispatchedAtClose = d.dispatchedPosition();
                closed.countDown();
                appender.join(30_000);
                assertFalse(appender.isAlive());
                assertEquals(assistedAtClose, d.stats().assistedChunks(), "no assist after close");
                assertEquals(dispatchedAtClose, d.dispatchedPosition(), "nothing dispatched after close");
                assertEquals(0, d.stats().unexpectedErrors());
            } finally {
                closed.countDown();
                appender.join(30_000);
            }
        }
    }

    /** Appenders race each other and the reader for the turn; the queues must come out as serial dispatch's. */
    @Test
    void shouldBuildTheSameQueuesWhenManyAppendersAssist() throws Exception {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"));
             ConsumeQueueTable actual = PipelineFixture.openQueues(dir.resolve("pipelined"))) {
            // Small chunks and a small inline limit: assists, inline chunks and worker chunks all happen.
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, actual,
                    PipelineFixture.smallChunks().withInlineMaxBytes(2048), List.of(), null);
            int threads = 4;
            int perThread = 1_500;
            try (d) {
                d.start(0);
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                try {
                    List<Future<?>> done = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int thread = t;
                        done.add(pool.submit(() -> {
                            for (int i = 0; i < perThread; i++) {
                                int seed = thread * perThread + i;
                                Op op = i % 10 == 9 ? new Inner("B" + thread, i % 3, 1 + i % 8, 40, "x")
                                        : new Single("A" + thread % 2, i % 5, 20 + seed % 300, null);
                                PipelineFixture.append(log, op, seed);
                                d.afterAppend();
                            }
                        }));
                    }
                    for (Future<?> f : done) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                } finally {
                    pool.shutdownNow();
                }
                assertTrue(d.drain(10_000));
                assertEquals(log.writtenPosition(), d.dispatchedPosition());
                assertTrue(d.stats().assistedChunks() > 0, "assisted: " + d.stats());
                assertEquals(0, d.stats().unexpectedErrors() + d.stats().workerFailures() + d.stats().corrupt(),
                        d.stats().toString());
            }
            PipelineFixture.serialDispatch(log, expected, 0);
            PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), dir.resolve("pipelined"));
        }
    }

    @Test
    void shouldRedispatchExactlyWhatTheQueuesLackAfterACrash() throws Exception {
        Path pipelined = dir.resolve("pipelined");
        try (CommitLog log = PipelineFixture.openLog(dir)) {
            PipelineFixture.appendSimple(log, "C", 16, 6_000, 40);
            long firstRunEnd;
            try (ConsumeQueueTable queues = PipelineFixture.openQueues(pipelined)) {
                // Slow decoding, so that the crash lands in the middle of the backlog.
                RecordChunkDecoder decoder = new RecordChunkDecoder(queues::getOrCreate, false);
                ChunkDecoder slow = (chunk, scratch) -> {
                    LockSupport.parkNanos(1_000_000);
                    decoder.decode(chunk, scratch);
                };
                PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues,
                        new PipelineSettings(2048, 64, 2, 4, false), List.of(), slow);
                d.start(0);
                Await.until("part of the backlog dispatched", () -> d.dispatchedPosition() > 0);
                d.close(); // a crash as far as the consume queues are concerned: no drain
                firstRunEnd = d.dispatchedPosition();
                assertTrue(firstRunEnd < log.writtenPosition(), "the crash must leave work behind");
            }
            try (ConsumeQueueTable queues = PipelineFixture.openQueues(pipelined)) {
                long from = queues.maxPhysicalEnd();
                assertTrue(from >= firstRunEnd, "slots written beyond the published position survive");
                long slotsBefore = totalSlots(queues);
                PipelineStats stats = PipelineFixture.dispatchAll(log, queues, PipelineFixture.smallChunks(), null,
                        from);
                assertEquals(0, stats.duplicates(), "nothing re-dispatched twice");
                assertEquals(6_000 - slotsBefore, stats.indexed(), "exactly the missing slots");
                assertEquals(6_000, totalSlots(queues));
            }
            try (ConsumeQueueTable expected = PipelineFixture.openQueues(dir.resolve("serial"))) {
                PipelineFixture.serialDispatch(log, expected, 0);
            }
            PipelineFixture.assertSameQueueFiles(dir.resolve("serial"), pipelined);
        }
    }

    private static long totalSlots(ConsumeQueueTable queues) {
        long n = 0;
        for (ConsumeQueue q : queues.queues()) {
            n += q.maxOffset() - q.minOffset();
        }
        return n;
    }

    @Test
    void shouldCountListenerFailuresAndGoOn() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelineFixture.appendSimple(log, "F", 3, 100, 10);
            Map<Integer, Long> seen = new ConcurrentHashMap<>();
            ArrivalListener failing = (t, q, max) -> {
                throw new IllegalStateException("listener bug");
            };
            ArrivalListener recording = (t, q, max) -> seen.put(q, max);
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineFixture.smallChunks(),
                    List.of(failing, recording), null);
            try (d) {
                d.start(0);
                assertTrue(d.drain(10_000));
            }
            assertTrue(d.stats().listenerErrors() > 0);
            assertEquals(Map.of(0, 34L, 1, 33L, 2, 33L), seen, "the second listener still hears every queue");
        }
    }

    @Test
    void shouldRefuseBadLifecycleCalls() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues, PipelineFixture.smallChunks(), List.of(),
                    null);
            PipelineFixture.append(log, new Single("X", 0, 1, null), 0);
            assertFalse(d.drain(0), "not running");
            IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> d.start(-1));
            assertTrue(negative.getMessage().contains("-1"));
            d.start(0);
            assertThrows(IllegalStateException.class, () -> d.start(0));
            d.close();
            d.close();
            assertThrows(IllegalStateException.class, () -> d.start(0));
        }
    }

    @Test
    void shouldSpreadEntriesOverManyQueuesAndNotifyEachOnce() throws IOException {
        try (CommitLog log = PipelineFixture.openLog(dir);
             ConsumeQueueTable queues = PipelineFixture.openQueues(dir)) {
            PipelineFixture.appendSimple(log, "W", 500, 2_000, 8);
            Map<Integer, AtomicInteger> calls = new ConcurrentHashMap<>();
            ArrivalListener counting = (t, q, max) -> calls.computeIfAbsent(q, k -> new AtomicInteger()).incrementAndGet();
            PipelinedDispatcher d = PipelineFixture.dispatcher(log, queues,
                    new PipelineSettings(1 << 20, 4096, 2, 4, false), List.of(counting), null);
            try (d) {
                d.start(0);
                assertTrue(d.drain(10_000));
            }
            long chunks = d.stats().chunks(); // after close: the writer has finished its last notifications
            assertEquals(500, calls.size());
            for (AtomicInteger n : calls.values()) {
                assertTrue(n.get() <= chunks, "at most one notification per chunk per queue");
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("test latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
