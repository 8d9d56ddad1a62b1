package io.sluice.store.thread;

import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * A back-off (spins, yields, then parks) that a producer of work can end without losing a signal, for loops woken
 * by the threads that give them work. The Dekker pattern on the volatile {@code idling} flag: the loop sets it,
 * fences and checks for work before it backs off; the waker publishes its work, fences ({@link #needsWakeUp()})
 * and reads the flag. At least one of them sees the other's write, so work is never left waiting for a whole park.
 *
 * <p>{@link #idle(int)} on the loop's thread only; {@link #needsWakeUp()} from any thread.
 */
public final class WakeableIdleStrategy implements IdleStrategy {

    private final IdleStrategy backoff;
    private final BooleanSupplier hasWork;
    private volatile boolean idling;

    /**
     * @param backoff what to do when there is no work (its parks must be ended by an unpark)
     * @param hasWork the loop's re-check, on the loop's thread, after announcing that it idles
     */
    public WakeableIdleStrategy(IdleStrategy backoff, BooleanSupplier hasWork) {
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.hasWork = Objects.requireNonNull(hasWork, "hasWork");
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            backoff.reset();
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        idling = true;
        // Announce the back-off, then look again, so a waker that missed the flag is seen here.
        VarHandle.fullFence();
        if (!hasWork.getAsBoolean()) {
            backoff.idle();
        }
        idling = false;
    }

    @Override
    public void reset() {
        backoff.reset();
    }

    /**
     * The waker, after publishing work: whether the loop may be backing off and must be unparked. Fences first,
     * ordering the work's publication before the read of the flag.
     */
    public boolean needsWakeUp() {
        VarHandle.fullFence();
        return idling;
    }

    @Override
    public String alias() {
        return "wakeable-" + backoff.alias();
    }
}
