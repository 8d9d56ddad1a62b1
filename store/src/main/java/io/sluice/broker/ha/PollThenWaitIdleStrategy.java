package io.sluice.broker.ha;

import io.sluice.store.thread.WakeableIdleStrategy;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * The HA pusher's back-off. While the log has been growing (work within {@code activeWindowNs}), it parks
 * {@code pollNs} and looks again without asking to be woken: appends then cost the send path nothing, and what
 * accumulated meanwhile leaves in one transfer instead of a wake-up and a small transfer per append. Once the log
 * has been quiet that long, it backs off through {@code waiting}, which an append must end ({@link #needsWakeUp}).
 *
 * <p>{@link #idle(int)} on the pusher thread only; {@link #needsWakeUp()} from any thread.
 */
final class PollThenWaitIdleStrategy implements IdleStrategy {

    private final WakeableIdleStrategy waiting;
    private final long pollNs;
    private final long activeWindowNs;
    /** Pusher thread only. */
    private long lastWorkNs = System.nanoTime();

    /**
     * @param waiting        the back-off of a quiet log, ended by appends
     * @param pollNs         the park between two looks while the log grows
     * @param activeWindowNs how long after the last transfer the pusher keeps polling
     */
    PollThenWaitIdleStrategy(WakeableIdleStrategy waiting, long pollNs, long activeWindowNs) {
        this.waiting = waiting;
        this.pollNs = pollNs;
        this.activeWindowNs = activeWindowNs;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            lastWorkNs = System.nanoTime();
            waiting.reset();
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        if (System.nanoTime() - lastWorkNs < activeWindowNs) {
            LockSupport.parkNanos(pollNs);
        } else {
            waiting.idle();
        }
    }

    @Override
    public void reset() {
        waiting.reset();
    }

    /** Whether an append must wake the pusher: only while it waits on a quiet log. Any thread. */
    boolean needsWakeUp() {
        return waiting.needsWakeUp();
    }

    @Override
    public String alias() {
        return "poll-then-" + waiting.alias();
    }
}
