package io.sluice.broker.ha;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.IntervalIdleStrategy;
import io.sluice.store.thread.LoopAgent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.agrona.concurrent.NanoClock;

/**
 * SYNC_MASTER: stored sends wait, without holding any thread, until the slaves they need ({@link SlaveAckRule},
 * the position {@link HaServer#ackedPosition} computes) have acknowledged the log up to their end; then their
 * SUCCESS response is released. Same shape as the SYNC flush's group commit: waiters are queued in
 * the order their appends completed; an acknowledgement releases the covered prefix in that order (a waiter
 * behind a not yet covered one waits for it), so the responses of one connection keep their order; a deadline
 * thread answers FLUSH_SLAVE_TIMEOUT to the overdue prefix (one timeout for all, so queue order is deadline order).
 * While fewer slaves are connected than a send needs it is answered SLAVE_NOT_AVAILABLE at once. Both statuses
 * keep the send's msgId and offsets: the message is stored on the master, only not (yet) on the slaves, and the
 * Apache client reports them as SendStatus values.
 *
 * <p>Threads: callers of {@link #await} (I/O threads, flush threads), the HA link threads ({@link #onAcked}) and
 * {@code sluice-ha-sync-deadline} (timeouts, an {@link AgentHost}). The queue is guarded by its own monitor, held
 * briefly by each of them; answered waiters are handed to their executors (the connections' I/O threads) under
 * it, a batch per executor, which keeps each connection's responses in queue order.
 */
public final class SyncReplication implements AutoCloseable {

    /**
     * Upper bound of the deadline thread's tick: a timeout is answered at most this late. Coarse, because the
     * thread ticks whether or not anything waits, and each tick is a wake-up of the master.
     */
    private static final long MAX_TICK_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Direct completion, for callers without an I/O thread of their own. */
    private static final Executor DIRECT = Runnable::run;

    private final long timeoutNs;
    private final long tickNs;
    private final NanoClock clock;
    private final ArrayDeque<Waiter> pending = new ArrayDeque<>();
    private final AgentHost deadlines;
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder noSlave = new LongAdder();
    /** Highest position the needed slaves have acknowledged; -1 while fewer are connected than needed. */
    private volatile long ackedPosition = -1;
    private volatile boolean running;

    /** @param timeoutMs how long a send waits for a slave ({@code syncFlushTimeout}) */
    public SyncReplication(long timeoutMs, NanoClock clock) {
        this.timeoutNs = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.tickNs = Math.max(TimeUnit.MICROSECONDS.toNanos(100), Math.min(MAX_TICK_NS, timeoutNs / 20));
        this.clock = clock;
        // A fixed tick: deadlines come due with time, and nobody wakes this thread. Its last act answers the rest.
        this.deadlines = new AgentHost(new LoopAgent("sluice-ha-sync-deadline", this::expireOverdue,
                this::expireAll), new IntervalIdleStrategy(tickNs));
    }

    /** Starts the deadline thread. */
    public void start() {
        running = true;
        deadlines.start();
    }

    /**
     * The response of a stored send once the needed slaves have the log up to {@code endPosition}: {@code stored}, or
     * it turned into FLUSH_SLAVE_TIMEOUT or SLAVE_NOT_AVAILABLE.
     */
    public CompletableFuture<RemotingCommand> await(RemotingCommand stored, long endPosition) {
        return await(stored, endPosition, DIRECT);
    }

    /**
     * {@link #await(RemotingCommand, long)}, the future completed on {@code answerOn}: the connection's I/O
     * thread, which then writes the response itself. Waiters released together are handed to each executor in
     * one task, so a batch of responses costs its I/O thread one task and one flush, not one of each per send.
     */
    public CompletableFuture<RemotingCommand> await(RemotingCommand stored, long endPosition, Executor answerOn) {
        if (ackedPosition < 0) {
            noSlave.increment();
            return CompletableFuture.completedFuture(stored.setCode(ResponseCode.SLAVE_NOT_AVAILABLE)
                    .setRemark("fewer slaves of this SYNC_MASTER are connected than a send needs (inSyncReplicas):"
                            + " the message is stored on the master only (SLAVE_NOT_AVAILABLE)"));
        }
        Waiter waiter = new Waiter(stored, endPosition, clock.nanoTime() + timeoutNs, answerOn);
        synchronized (pending) {
            pending.addLast(waiter);
            // Also covers an acknowledgement that arrived before the waiter was queued. Queued even when already
            // covered, so that it is released after the waiters ahead of it.
            release(ackedPosition);
        }
        return waiter.future;
    }

    /**
     * A link's view changed: {@code position} is the highest position the needed slaves acknowledged, -1 while
     * fewer are connected than needed (then waiting sends run into their deadline; new ones get
     * SLAVE_NOT_AVAILABLE).
     */
    void onAcked(long position) {
        onAcked(() -> position);
    }

    /**
     * As {@link #onAcked(long)}, the position computed under the queue's monitor. Links report on their own threads
     * (and the in-sync set changes on another): a position computed before the monitor could be published after a
     * newer one, moving the position back below what the slaves have; a send queued then, whose records they all
     * acknowledged already, would wait for the next acknowledgement, which on a quiet log is the master's heartbeat
     * (5 s), past syncFlushTimeout. Computed under the monitor, the last position published is the latest.
     */
    void onAcked(LongSupplier position) {
        synchronized (pending) {
            long now = position.getAsLong();
            ackedPosition = now;
            release(now);
        }
    }

    /**
     * Monitor held: completes the covered prefix, in queue order. Completing under the monitor keeps the order
     * between threads that release at the same time; a completion only hands the response to the transport.
     */
    private void release(long acked) {
        Waiter head = pending.peekFirst();
        if (acked < 0 || head == null || head.endPosition > acked) {
            return;
        }
        Batches batches = new Batches();
        while ((head = pending.peekFirst()) != null && head.endPosition <= acked) {
            batches.add(pending.pollFirst());
        }
        batches.dispatch();
    }

    /** Answers FLUSH_SLAVE_TIMEOUT to the waiters whose deadline passed, in queue order. Returns how many. */
    int expireOverdue() {
        long nowNs = clock.nanoTime();
        int expired = 0;
        synchronized (pending) {
            Waiter head = pending.peekFirst();
            if (head == null || head.deadlineNs - nowNs > 0) {
                return 0;
            }
            Batches batches = new Batches();
            while ((head = pending.peekFirst()) != null && head.deadlineNs - nowNs <= 0) {
                batches.add(timeOut(pending.pollFirst()));
                expired++;
            }
            batches.dispatch();
        }
        return expired;
    }

    private void expireAll() {
        synchronized (pending) {
            Batches batches = new Batches();
            Waiter head;
            while ((head = pending.pollFirst()) != null) {
                batches.add(timeOut(head));
            }
            batches.dispatch();
        }
    }

    /** Turns {@code w}'s response into FLUSH_SLAVE_TIMEOUT; returns {@code w}, to be completed. */
    private Waiter timeOut(Waiter w) {
        timedOut.increment();
        w.stored.setCode(ResponseCode.FLUSH_SLAVE_TIMEOUT).setRemark("the slaves a send needs"
                + " did not acknowledge the message within syncFlushTimeout: it is stored on the master"
                + " (FLUSH_SLAVE_TIMEOUT)");
        return w;
    }

    /** Sends answered FLUSH_SLAVE_TIMEOUT so far. */
    public long timedOutCount() {
        return timedOut.sum();
    }

    /** Sends answered SLAVE_NOT_AVAILABLE so far. */
    public long noSlaveCount() {
        return noSlave.sum();
    }

    /** Sends waiting for a slave now. */
    public int waiting() {
        synchronized (pending) {
            return pending.size();
        }
    }

    /**
     * Stops the deadline thread; sends still waiting are answered FLUSH_SLAVE_TIMEOUT, later ones
     * SLAVE_NOT_AVAILABLE. Idempotent.
     */
    @Override
    public void close() {
        onAcked(-1);
        if (!running) {
            expireAll();
            return;
        }
        running = false;
        deadlines.close(TimeUnit.NANOSECONDS.toMillis(timeoutNs) + 1_000);
    }

    /** One stored send waiting for a slave. Immutable apart from its future. */
    private static final class Waiter {
        final RemotingCommand stored;
        final long endPosition;
        final long deadlineNs;
        final Executor answerOn;
        final CompletableFuture<RemotingCommand> future = new CompletableFuture<>();

        Waiter(RemotingCommand stored, long endPosition, long deadlineNs, Executor answerOn) {
            this.stored = stored;
            this.endPosition = endPosition;
            this.deadlineNs = deadlineNs;
            this.answerOn = answerOn;
        }
    }

    /**
     * Waiters answered together, grouped by the executor that completes them, each group in queue order: one task
     * per executor. Built and dispatched under the queue's monitor, so tasks reach each executor in queue order.
     * Used by one thread.
     */
    private static final class Batches {
        private final List<Executor> executors = new ArrayList<>(2);
        private final List<List<Waiter>> groups = new ArrayList<>(2);

        void add(Waiter w) {
            int at = executors.indexOf(w.answerOn);
            if (at < 0) {
                at = executors.size();
                executors.add(w.answerOn);
                groups.add(new ArrayList<>());
            }
            groups.get(at).add(w);
        }

        void dispatch() {
            for (int i = 0; i < executors.size(); i++) {
                List<Waiter> group = groups.get(i);
                Runnable answer = () -> group.forEach(w -> w.future.complete(w.stored));
                try {
                    executors.get(i).execute(answer);
                } catch (RejectedExecutionException e) {
                    // The I/O thread is stopping (its connection closes): the transport drops what it is handed.
                    answer.run();
                }
            }
        }
    }
}
