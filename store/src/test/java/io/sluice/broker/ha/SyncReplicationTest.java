package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.testing.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SyncReplicationTest {

    private final AtomicLong nowNs = new AtomicLong();

    @Test
    void withoutASlaveASendIsAnsweredSlaveNotAvailableAtOnce() {
        SyncReplication sync = new SyncReplication(1_000, nowNs::get);
        RemotingCommand answer = sync.await(stored(), 100).join();
        assertEquals(ResponseCode.SLAVE_NOT_AVAILABLE, answer.code());
        assertEquals("7", answer.extField("queueOffset"), "the send's offsets are kept");
        assertEquals(1, sync.noSlaveCount());
    }

    @Test
    void acknowledgementsReleaseWaitersInQueueOrder() {
        SyncReplication sync = withSlaveAt(0);
        try {
            List<Integer> completionOrder = new ArrayList<>();
            List<CompletableFuture<RemotingCommand>> waiting = new ArrayList<>();
            long[] ends = {100, 300, 200, 400};
            for (int i = 0; i < ends.length; i++) {
                int index = i;
                CompletableFuture<RemotingCommand> f = sync.await(stored(), ends[i]);
                f.thenRun(() -> completionOrder.add(index));
                waiting.add(f);
            }
            sync.onAcked(250);
            assertTrue(waiting.get(0).isDone());
            assertFalse(waiting.get(2).isDone(), "a covered waiter behind an uncovered one waits for it");
            sync.onAcked(400);
            assertEquals(List.of(0, 1, 2, 3), completionOrder);
            waiting.forEach(f -> assertEquals(ResponseCode.SUCCESS, f.join().code()));
            assertEquals(ResponseCode.SUCCESS, sync.await(stored(), 350).join().code(), "already covered");
        } finally {
            sync.close();
        }
    }

    @Test
    void anUnacknowledgedSendIsAnsweredFlushSlaveTimeoutAtItsDeadline() {
        SyncReplication sync = withSlaveAt(0);
        try {
            CompletableFuture<RemotingCommand> first = sync.await(stored(), 100);
            nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(600));
            CompletableFuture<RemotingCommand> second = sync.await(stored(), 200);
            nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
            assertEquals(1, sync.expireOverdue());
            assertEquals(ResponseCode.FLUSH_SLAVE_TIMEOUT, first.join().code());
            assertFalse(second.isDone());
            sync.onAcked(-1);
            assertEquals(ResponseCode.SLAVE_NOT_AVAILABLE, sync.await(stored(), 300).join().code());
        } finally {
            sync.close();
        }
        assertEquals(2, sync.timedOutCount(), "close answers what still waits");
    }

    @Test
    void waitersReleasedTogetherReachEachIoThreadAsOneTaskInQueueOrder() {
        SyncReplication sync = withSlaveAt(0);
        try {
            List<Runnable> firstThread = new ArrayList<>();
            List<Runnable> secondThread = new ArrayList<>();
            Executor first = firstThread::add;
            Executor second = secondThread::add;
            List<String> completionOrder = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String name = (i % 2 == 0 ? "a" : "b") + i;
                sync.await(stored(), 100 + i, i % 2 == 0 ? first : second)
                        .thenRun(() -> completionOrder.add(name));
            }
            sync.onAcked(1_000);
            assertEquals(1, firstThread.size(), "one task for the three waiters of the first I/O thread");
            assertEquals(1, secondThread.size());
            assertTrue(completionOrder.isEmpty(), "completed on the I/O threads, not on the acknowledging one");
            secondThread.get(0).run();
            firstThread.get(0).run();
            assertEquals(List.of("b1", "b3", "b5", "a0", "a2", "a4"), completionOrder);

            sync.await(stored(), 2_000, first);
            nowNs.addAndGet(TimeUnit.SECONDS.toNanos(2));
            assertEquals(1, sync.expireOverdue());
            assertEquals(2, firstThread.size(), "a timeout is answered on the I/O thread too");
        } finally {
            sync.close();
        }
    }

    @Test
    void aPositionComputedBeforeANewerOneIsNotPublishedAfterIt() throws Exception {
        SyncReplication sync = withSlaveAt(100);
        try {
            // Two links report at once: the first computes 150 (the other slave's acknowledgement of 200 not yet
            // recorded), the second computes 200 once it is. Whatever the interleaving, the position ends at 200.
            CountDownLatch firstComputing = new CountDownLatch(1);
            CountDownLatch secondStarted = new CountDownLatch(1);
            Thread first = new Thread(() -> sync.onAcked(() -> {
                firstComputing.countDown();
                awaitQuietly(secondStarted);
                return 150L;
            }), "first-link");
            first.start();
            assertTrue(firstComputing.await(10, TimeUnit.SECONDS));
            Thread second = new Thread(() -> sync.onAcked(() -> 200L), "second-link");
            second.start();
            Await.until("the second report to wait for the first or end", 10_000,
                    () -> second.getState() == Thread.State.BLOCKED || second.getState() == Thread.State.TERMINATED,
                    second::getState);
            secondStarted.countDown();
            first.join(10_000);
            second.join(10_000);
            // A send whose records both slaves acknowledged: released at once, not after the next acknowledgement.
            assertTrue(sync.await(stored(), 200).isDone(), "a send covered by the slaves' acknowledgements waits");
        } finally {
            sync.close();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Not started: the test drives the deadlines itself through {@link SyncReplication#expireOverdue()}. */
    private SyncReplication withSlaveAt(long position) {
        SyncReplication sync = new SyncReplication(1_000, nowNs::get);
        sync.onAcked(position);
        return sync;
    }

    private static RemotingCommand stored() {
        return RemotingCommand.response(ResponseCode.SUCCESS, null).putExtField("queueOffset", 7L);
    }
}
