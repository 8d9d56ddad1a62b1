package io.sluice.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.ArrivalListener;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.FlushMode;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SerialDispatcherTest {

    private static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    private static final int SEGMENT_BYTES = 128 * 1024;
    private static final Function<String, ConsumeQueueType> TYPES = topic -> topic.startsWith("unknown") ? null
            : ConsumeQueueType.SIMPLE;

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<ArrivalListener> listeners = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private CommitLog openLog(FlushMode mode, LogEnvironment env) throws IOException {
        LogSettings settings = LogSettings.builder(dir.resolve("commitlog"), HOST).segmentBytes(SEGMENT_BYTES)
                .maxMessageBytes(8 * 1024).flushMode(mode).build();
        CommitLog log = CommitLog.open(settings, env);
        log.recover(0, true, e -> { });
        toClose.add(log);
        return log;
    }

    private ConsumeQueueTable openQueues() throws IOException {
        ConsumeQueueTable queues = ConsumeQueueTable.open(IndexSettings.defaults(dir), TYPES, StoreTimeLookup.NONE);
        toClose.add(queues);
        return queues;
    }

    private SerialDispatcher dispatcher(CommitLog log, ConsumeQueueTable queues) {
        SerialDispatcher d = new SerialDispatcher(log, queues, DispatchSettings.defaults(), listeners,
                SystemEpochClock.INSTANCE);
        toClose.add(d);
        return d;
    }

    private static AppendResult append(CommitLog log, String topic, int queueId, int bodyBytes) {
        MessageDraft draft = MessageDraft.builder(topic, queueId).body(new byte[bodyBytes])
                .bornHost(HOST).build();
        AppendResult r = Await.result(log.append(draft));
        assertEquals(AppendStatus.PUT_OK, r.status(), r::toString);
        return r;
    }

    private static long max(ConsumeQueueTable queues, String topic, int queueId) {
        return queues.find(topic, queueId).map(ConsumeQueue::maxOffset).orElse(0L);
    }

    @Test
    void shouldIndexRecordsAndTellListenersOncePerQueuePerPass() throws IOException {
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system());
        ConsumeQueueTable queues = openQueues();
        for (int i = 0; i < 10; i++) {
            append(log, "t", i % 2, 100);
        }
        Map<String, List<Long>> arrivals = new ConcurrentHashMap<>();
        listeners.add((topic, queueId, maxOffset) ->
                arrivals.computeIfAbsent(topic + "-" + queueId, k -> new CopyOnWriteArrayList<>()).add(maxOffset));
        SerialDispatcher d = dispatcher(log, queues);

        d.start(0);

        assertTrue(d.drain(10_000));
        assertEquals(5, max(queues, "t", 0));
        assertEquals(5, max(queues, "t", 1));
        // All ten records fit one pass: each queue is reported once, with its final max offset.
        assertEquals(Map.of("t-0", List.of(5L), "t-1", List.of(5L)), arrivals);
        assertEquals(log.writtenPosition(), d.dispatchedPosition());
        assertEquals(0, d.lagBytes());
        assertEquals(0, d.lagMs());

        append(log, "t", 1, 10);
        d.wakeUp();
        Await.until("the new record is indexed", () -> max(queues, "t", 1) == 6);
        Await.until("its arrival is reported", () -> arrivals.get("t-1").contains(6L));
        assertEquals(10 + 1, d.counters().indexed());
    }

    @Test
    void shouldSkipACorruptRecordToTheNextSegmentAndGoOn() throws IOException {
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system());
        ConsumeQueueTable queues = openQueues();
        List<AppendResult> first = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            first.add(append(log, "damaged", 0, 1_000));
        }
        AppendResult filler = null;
        while (log.writtenPosition() < SEGMENT_BYTES) {
            filler = append(log, "filler", 0, 1_000);
        }
        assertTrue(filler.position() >= SEGMENT_BYTES, "the last filler opened the second segment");
        for (int i = 0; i < 5; i++) {
            append(log, "later", 0, 1_000);
        }
        // Bad magic in the 11th record of the first segment.
        overwrite(segment(0), first.get(10).position() + 4, ByteBuffer.allocate(4).putInt(0x12345678).flip());
        SerialDispatcher d = dispatcher(log, queues);

        d.start(0);

        assertTrue(d.drain(10_000));
        assertEquals(10, max(queues, "damaged", 0));
        ConsumeQueue fillers = queues.find("filler", 0).orElseThrow();
        assertEquals(filler.queueOffset(), fillers.minOffset(), "the rest of the damaged segment is skipped");
        assertEquals(filler.queueOffset() + 1, fillers.maxOffset());
        assertEquals(5, max(queues, "later", 0), "the next segment is dispatched");
        assertEquals(1, d.counters().corrupt());
        assertEquals(log.writtenPosition(), d.dispatchedPosition());
    }

    @Test
    void shouldTreatAHoleOfZerosBelowTheConfirmedPositionAsDamage() throws IOException {
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system());
        ConsumeQueueTable queues = openQueues();
        List<AppendResult> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            records.add(append(log, "holes", 0, 200));
        }
        while (log.writtenPosition() < SEGMENT_BYTES) {
            append(log, "filler", 0, 1_000);
        }
        append(log, "after", 0, 10);
        AppendResult hole = records.get(3);
        overwrite(segment(0), hole.position(), ByteBuffer.allocate(hole.wroteBytes()));
        SerialDispatcher d = dispatcher(log, queues);

        d.start(0);

        assertTrue(d.drain(10_000));
        assertEquals(3, max(queues, "holes", 0));
        assertEquals(1, max(queues, "after", 0));
        assertEquals(1, d.counters().corrupt());
    }

    @Test
    void shouldRedispatchIdempotently() throws IOException {
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system());
        ConsumeQueueTable queues = openQueues();
        for (int i = 0; i < 50; i++) {
            append(log, "t", i % 3, 64);
        }
        SerialDispatcher first = dispatcher(log, queues);
        assertEquals(log.writtenPosition(), first.redispatch(0));
        assertEquals(50, first.counters().indexed());
        first.close();

        SerialDispatcher again = dispatcher(log, queues);
        assertEquals(log.writtenPosition(), again.redispatch(0));

        assertEquals(0, again.counters().indexed());
        assertEquals(50, again.counters().duplicates());
        assertEquals(17, max(queues, "t", 0));
        assertThrows(IllegalStateException.class, () -> {
            again.start(0);
            again.redispatch(0);
        });
    }

    @Test
    void shouldSkipRecordsOfTopicsWithoutAQueueType() throws IOException {
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system());
        ConsumeQueueTable queues = openQueues();
        append(log, "known", 0, 10);
        append(log, "unknown-topic", 0, 10);
        append(log, "known", 0, 10);
        SerialDispatcher d = dispatcher(log, queues);

        d.start(0);

        assertTrue(d.drain(10_000));
        assertEquals(2, max(queues, "known", 0));
        assertTrue(queues.find("unknown-topic", 0).isEmpty());
        assertEquals(1, d.counters().unindexable());
    }

    @Test
    void shouldDispatchOnlyFlushedRecordsInSyncMode() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean block = new AtomicBoolean();
        LogEnvironment env = LogEnvironment.system().withForceHook((from, to) -> {
            if (block.get()) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        CommitLog log = openLog(FlushMode.SYNC, env);
        ConsumeQueueTable queues = openQueues();
        SerialDispatcher d = dispatcher(log, queues);
        d.start(0);
        append(log, "sync", 0, 10);
        Await.until("the flushed record is indexed", () -> max(queues, "sync", 0) == 1);

        block.set(true);
        MessageDraft draft = MessageDraft.builder("sync", 0).body(new byte[10]).bornHost(HOST).build();
        CompletableFuture<AppendResult> pending = log.append(draft);
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        d.wakeUp();

        assertTrue(d.drain(10_000), "drain targets the confirmed (flushed) position");
        assertEquals(1, max(queues, "sync", 0), "written but not flushed: not dispatched");
        assertTrue(log.writtenPosition() > d.dispatchedPosition());
        assertFalse(pending.isDone());

        release.countDown();
        assertEquals(AppendStatus.PUT_OK, Await.result(pending).status());
        d.wakeUp();
        Await.until("the record is indexed once flushed", () -> max(queues, "sync", 0) == 2);
    }

    @Test
    void shouldReportLagInBytesAndTime() throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_000);
        CommitLog log = openLog(FlushMode.ASYNC, LogEnvironment.system().withEpochClock(clock));
        ConsumeQueueTable queues = openQueues();
        SerialDispatcher d = new SerialDispatcher(log, queues, DispatchSettings.defaults(), listeners, clock);
        toClose.add(d);
        clock.update(2_000);
        AppendResult r = append(log, "t", 0, 10);
        clock.update(5_000);

        assertEquals(r.nextPosition(), d.lagBytes());
        assertEquals(4_000, d.lagMs(), "since the dispatcher was last caught up (created) at 1000");
        assertFalse(d.drain(0), "not running");

        d.start(0);
        assertTrue(d.drain(10_000));
        assertEquals(0, d.lagBytes());
        assertEquals(0, d.lagMs());
        d.close();
        d.close();
    }

    private Path segment(long start) {
        return dir.resolve("commitlog").resolve(String.format("%020d", start));
    }

    private static void overwrite(Path file, long at, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            long pos = at;
            while (bytes.hasRemaining()) {
                pos += ch.write(bytes, pos);
            }
        }
    }
}
