package io.sluice.store.log;

import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.IntervalIdleStrategy;
import io.sluice.store.thread.LoopAgent;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SYNC flush with group commit. Appends that wait are queued in position order; the flusher thread forces
 * everything written so far with one fsync and completes every waiter that fsync covers. A second thread, the
 * deadline watcher, answers {@link FlushOutcome#TIMED_OUT} to waiters whose deadline passed, so a stuck fsync
 * never leaves an append hanging.
 *
 * <p>Threads (each an {@link AgentHost}): {@code sluice-group-commit} (the only caller of
 * {@link FlushTarget#flushTo(long)} while running, and where {@link FlushOutcome#FLUSHED} is delivered) and
 * {@code sluice-flush-deadline} (where {@link FlushOutcome#TIMED_OUT} is delivered). The pending queue is guarded by
 * its own monitor, held briefly by the appender (adding), the flusher (removing the flushed prefix) and the watcher
 * (removing the expired prefix). Outcomes are delivered outside that monitor. Public methods are thread-safe.
 */
final class GroupCommitAgent implements FlushAgent {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitAgent.class);

    /** How long the flusher parks when idle; appends unpark it at once. */
    private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Upper bound of the watcher's tick; short enough that a timeout is answered within a few ms of its due. */
    private static final long MAX_WATCH_TICK_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private final FlushTarget target;
    private final StoreFailureHandler failureHandler;
    private final NanoClock nanoClock;
    private final long watchTickNs;
    private final ArrayDeque<FlushWaiter> pending = new ArrayDeque<>();
    private final AgentHost flusher;
    private final AgentHost watcher;
    private final List<FlushWaiter> flusherDrain = new ArrayList<>();
    private final List<FlushWaiter> watcherDrain = new ArrayList<>();
    private boolean closed;

    GroupCommitAgent(FlushSettings settings, FlushTarget target, StoreFailureHandler failureHandler,
                     NanoClock nanoClock) {
        this.target = Objects.requireNonNull(target, "target");
        this.failureHandler = Objects.requireNonNull(failureHandler, "failureHandler");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        long timeoutNs = TimeUnit.MILLISECONDS.toNanos(settings.syncFlushTimeoutMs());
        this.watchTickNs = Math.max(TimeUnit.MICROSECONDS.toNanos(100), Math.min(MAX_WATCH_TICK_NS, timeoutNs / 4));
        // Sleeps only when a cycle found nothing: appends wake it, and a busy flusher goes straight on.
        this.flusher = new AgentHost(new LoopAgent("sluice-group-commit", this::doFlushWork),
                new SleepingIdleStrategy(IDLE_PARK_NS));
        // A fixed tick: deadlines come due with time, not with work, and nobody wakes the watcher.
        this.watcher = new AgentHost(new LoopAgent("sluice-flush-deadline", this::expireOverdue),
                new IntervalIdleStrategy(watchTickNs));
    }

    @Override
    public void start() {
        flusher.start();
        watcher.start();
    }

    @Override
    public boolean offer(FlushWaiter waiter) {
        synchronized (pending) {
            if (closed || failureHandler.hasFailed()) {
                return false;
            }
            pending.addLast(waiter);
        }
        flusher.wakeUp();
        return true;
    }

    @Override
    public void onAppended() {
        flusher.wakeUp();
    }

    /** One flusher cycle: force what is written, then complete the covered waiters. Returns work done. */
    int doFlushWork() {
        if (failureHandler.hasFailed()) {
            return completeAll(FlushOutcome.FAILED);
        }
        int work = 0;
        long written = target.writtenPosition();
        if (written > target.flushedPosition()) {
            try {
                target.flushTo(written);
                work++;
            } catch (IOException e) {
                failureHandler.onIoFailure("fsync", e);
                return completeAll(FlushOutcome.FAILED) + 1;
            }
        }
        return work + completeFlushed(target.flushedPosition());
    }

    private int completeFlushed(long flushed) {
        synchronized (pending) {
            FlushWaiter head;
            while ((head = pending.peekFirst()) != null && head.position() <= flushed) {
                flusherDrain.add(pending.pollFirst());
            }
        }
        return deliver(flusherDrain, FlushOutcome.FLUSHED);
    }

    private int completeAll(FlushOutcome outcome) {
        synchronized (pending) {
            flusherDrain.addAll(pending);
            pending.clear();
        }
        return deliver(flusherDrain, outcome);
    }

    /** Answers TIMED_OUT to every waiter whose deadline has passed. Returns how many. */
    int expireOverdue() {
        long nowNs = nanoClock.nanoTime();
        synchronized (pending) {
            FlushWaiter head;
            // Waiters are queued in append order and all get the same timeout, so the overdue ones are a prefix.
            while ((head = pending.peekFirst()) != null && head.deadlineNs() - nowNs <= 0) {
                watcherDrain.add(pending.pollFirst());
            }
        }
        return deliver(watcherDrain, FlushOutcome.TIMED_OUT);
    }

    private static int deliver(List<FlushWaiter> drained, FlushOutcome outcome) {
        int n = drained.size();
        for (int i = 0; i < n; i++) {
            drained.get(i).onOutcome(outcome);
        }
        drained.clear();
        return n;
    }

    /** Number of waiters not yet answered. */
    public int pendingCount() {
        synchronized (pending) {
            return pending.size();
        }
    }

    @Override
    public void close() {
        synchronized (pending) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (!flusher.close(AgentHost.DEFAULT_STOP_TIMEOUT_MS)) {
            return; // an fsync is stuck (logged): the watcher stays to answer its waiters TIMED_OUT
        }
        watcher.close();
        // The flusher is gone: this thread now owns the flusher's drain list.
        doFlushWork();
        completeAll(FlushOutcome.FAILED);
        LOG.debug("group commit agent stopped at flushed position {}", target.flushedPosition());
    }
}
