package io.sluice.store;

import java.util.concurrent.TimeUnit;

/**
 * Decides whether a periodic checkpoint is due: one that took {@code d} makes the next wait until {@code
 * DUTY_FACTOR * d} has passed since it started (at most {@link #MAX_SPACING_NS}), so checkpoints take at most one
 * {@value #DUTY_FACTOR}th of the housekeeping thread's time. Why: a checkpoint forces every consume queue, one
 * {@code msync} each, and each force write-protects the queue's last page, which the writer's next slot then faults
 * on: at 10,000 queues, checkpoints spaced at 20 times their duration still cost a tenth of the broker's CPU, the
 * forces and the faults after them in equal parts. A few queues force in about a millisecond, so their checkpoints
 * keep the configured period.
 *
 * <p>Single-threaded: owned by the thread that runs the periodic checkpoints.
 */
final class CheckpointPacer {

    static final int DUTY_FACTOR = 100;
    /** However slow a checkpoint, the next comes within this: it bounds the log recovery re-dispatches. */
    static final long MAX_SPACING_NS = TimeUnit.SECONDS.toNanos(60);

    private boolean started;
    private long nextDueNs;

    /** True when a checkpoint may start at {@code nowNs}. */
    boolean due(long nowNs) {
        return !started || nowNs - nextDueNs >= 0;
    }

    /** Records a checkpoint that ran from {@code startNs} to {@code endNs}. */
    void ran(long startNs, long endNs) {
        long tookNs = Math.max(0, endNs - startNs);
        long spacingNs = tookNs > MAX_SPACING_NS / DUTY_FACTOR ? MAX_SPACING_NS : tookNs * DUTY_FACTOR;
        nextDueNs = startNs + spacingNs;
        started = true;
    }
}
