package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

/** Duty cycles of the flush agents, driven directly on the test thread (their threads are not started). */
class FlushAgentTest {

    /** An in-memory target: "forcing" records the range. */
    static final class FakeTarget implements FlushTarget {
        long written;
        long flushed;
        final List<long[]> forced = new ArrayList<>();
        IOException failure;
        /** Runs after each force, e.g. to advance a test clock by the fsync's duration. */
        Runnable afterForce = () -> { };

        @Override
        public long writtenPosition() {
            return written;
        }

        @Override
        public long flushedPosition() {
            return flushed;
        }

        @Override
        public void flushTo(long position) throws IOException {
            if (failure != null) {
                throw failure;
            }
            if (position > flushed) {
                forced.add(new long[] {flushed, position});
                flushed = position;
                afterForce.run();
            }
        }
    }

    static final class RecordingWaiter extends FlushWaiter {
        final List<FlushOutcome> outcomes = new ArrayList<>();

        RecordingWaiter(long position, long deadlineNs) {
            super(position, deadlineNs);
        }

        @Override
        protected void onOutcome(FlushOutcome outcome) {
            outcomes.add(outcome);
        }
    }

    private static final FlushSettings ASYNC = new FlushSettings(FlushMode.ASYNC, 500, 4, 10_000, 5_000);
    private static final FlushSettings SYNC = new FlushSettings(FlushMode.SYNC, 500, 4, 10_000, 5_000);

    @Test
    void asyncShouldWaitForMinPagesUntilTheThoroughIntervalPasses() {
        FakeTarget target = new FakeTarget();
        CachedNanoClock clock = new CachedNanoClock();
        AsyncFlushAgent agent = new AsyncFlushAgent(ASYNC, target, new StoreFailureHandler(), clock);
        target.written = 3 * 4096 + 100;
        assertEquals(0, agent.doWork(), "3 dirty pages < 4");
        target.written = 4 * 4096 + 1;
        assertEquals(4 * 4096 + 1, agent.doWork(), "4 dirty pages");
        target.written += 10;
        assertEquals(0, agent.doWork());
        clock.advance(10_000_000_000L);
        assertEquals(10, agent.doWork(), "thorough flush of a few bytes");
        assertEquals(2, target.forced.size());
    }

    @Test
    void asyncShouldReportAFailedFsyncOnce() {
        FakeTarget target = new FakeTarget();
        StoreFailureHandler failures = new StoreFailureHandler();
        AsyncFlushAgent agent = new AsyncFlushAgent(ASYNC, target, failures, new CachedNanoClock());
        target.written = 100 * 4096;
        target.failure = new IOException("disk gone");
        agent.doWork();
        agent.doWork();
        assertTrue(failures.hasFailed());
        assertEquals(1, failures.failureCount(), "after the first failure the agent stops forcing");
    }

    @Test
    void groupCommitShouldCompleteCoveredWaitersOnly() {
        FakeTarget target = new FakeTarget();
        GroupCommitAgent agent = new GroupCommitAgent(SYNC, target, new StoreFailureHandler(), new CachedNanoClock());
        RecordingWaiter a = new RecordingWaiter(100, Long.MAX_VALUE);
        RecordingWaiter b = new RecordingWaiter(200, Long.MAX_VALUE);
        target.written = 150;
        assertTrue(agent.offer(a));
        assertTrue(agent.offer(b));
        agent.doFlushWork();
        assertEquals(List.of(FlushOutcome.FLUSHED), a.outcomes);
        assertEquals(List.of(), b.outcomes);
        target.written = 200;
        agent.doFlushWork();
        assertEquals(List.of(FlushOutcome.FLUSHED), b.outcomes);
        assertEquals(2, target.forced.size());
        assertEquals(0, agent.pendingCount());
    }

    @Test
    void groupCommitShouldTimeOutOverdueWaitersInOrder() {
        FakeTarget target = new FakeTarget();
        CachedNanoClock clock = new CachedNanoClock();
        GroupCommitAgent agent = new GroupCommitAgent(SYNC, target, new StoreFailureHandler(), clock);
        RecordingWaiter a = new RecordingWaiter(100, 1_000);
        RecordingWaiter b = new RecordingWaiter(200, 2_000);
        assertTrue(agent.offer(a));
        assertTrue(agent.offer(b));
        clock.update(1_500);
        assertEquals(1, agent.expireOverdue());
        assertEquals(List.of(FlushOutcome.TIMED_OUT), a.outcomes);
        target.written = 200;
        agent.doFlushWork();
        assertEquals(List.of(FlushOutcome.FLUSHED), b.outcomes);
        assertEquals(List.of(FlushOutcome.TIMED_OUT), a.outcomes, "answered exactly once");
    }

    @Test
    void groupCommitShouldFailEveryWaiterWhenTheFsyncFails() {
        FakeTarget target = new FakeTarget();
        StoreFailureHandler failures = new StoreFailureHandler();
        GroupCommitAgent agent = new GroupCommitAgent(SYNC, target, failures, new CachedNanoClock());
        RecordingWaiter a = new RecordingWaiter(100, Long.MAX_VALUE);
        assertTrue(agent.offer(a));
        target.written = 100;
        target.failure = new IOException("EIO");
        agent.doFlushWork();
        assertEquals(List.of(FlushOutcome.FAILED), a.outcomes);
        RecordingWaiter late = new RecordingWaiter(300, Long.MAX_VALUE);
        assertFalse(agent.offer(late), "refused after a failure");
        assertEquals(List.of(), late.outcomes, "a refused waiter is never called");
    }

    @Test
    void asyncShouldNotQueueWaiters() {
        AsyncFlushAgent agent = new AsyncFlushAgent(ASYNC, new FakeTarget(), new StoreFailureHandler(),
                new CachedNanoClock());
        assertFalse(agent.offer(new RecordingWaiter(1, 1)));
    }

    @Test
    void settingsShouldNameTheBadValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FlushSettings(FlushMode.SYNC, 500, 4, 10_000, 0));
        assertTrue(e.getMessage().contains("syncFlushTimeoutMs must be >= 1, was 0"), e.getMessage());
    }
}
