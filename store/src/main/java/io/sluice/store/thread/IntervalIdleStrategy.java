package io.sluice.store.thread;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * Parks a fixed period after every duty cycle, whatever work it did: for periodic jobs whose pace is the period
 * (a flush every interval), not the amount of work. An unpark of the thread ends the wait early.
 *
 * <p>Not thread-safe: used by the one loop thread it was given to.
 */
public final class IntervalIdleStrategy implements IdleStrategy {

    private final long periodNs;

    /** @param periodNs the pause after each duty cycle, > 0 */
    public IntervalIdleStrategy(long periodNs) {
        if (periodNs <= 0) {
            throw new IllegalArgumentException("periodNs must be > 0, was " + periodNs);
        }
        this.periodNs = periodNs;
    }

    @Override
    public void idle(int workCount) {
        LockSupport.parkNanos(this, periodNs);
    }

    @Override
    public void idle() {
        LockSupport.parkNanos(this, periodNs);
    }

    @Override
    public void reset() {
        // Stateless.
    }

    @Override
    public String alias() {
        return "interval";
    }
}
