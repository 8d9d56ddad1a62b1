package io.sluice.store.dispatch;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A dispatcher stand-in for tests of what only reads the dispatched position (retention, checkpoints): the test
 * sets the position; nothing is dispatched, and starting it is refused.
 */
public final class SettableDispatcher implements Dispatcher {

    private final AtomicLong position = new AtomicLong();

    /** Sets the position {@link #dispatchedPosition()} answers. */
    public void set(long dispatchedPosition) {
        position.set(dispatchedPosition);
    }

    @Override
    public void start(long fromPosition) {
        throw new UnsupportedOperationException("a stand-in dispatches nothing");
    }

    @Override
    public void wakeUp() {
    }

    @Override
    public long dispatchedPosition() {
        return position.get();
    }

    @Override
    public long lagBytes() {
        return 0;
    }

    @Override
    public long lagMs() {
        return 0;
    }

    @Override
    public boolean drain(long timeoutMs) {
        return true;
    }

    @Override
    public DispatchTotals totals() {
        return DispatchTotals.NONE;
    }

    @Override
    public void close() {
    }
}
