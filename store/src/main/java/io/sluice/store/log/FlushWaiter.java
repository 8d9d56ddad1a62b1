package io.sluice.store.log;

/**
 * An append waiting until the log is durable up to {@link #position()}.
 *
 * <p>The agent calls {@link #onOutcome(FlushOutcome)} exactly once, on one of its own threads (never on the
 * appending thread), so implementations must not block. Immutable apart from what the subclass keeps.
 */
abstract class FlushWaiter {

    private final long position;
    private final long deadlineNs;

    /**
     * @param position   the log must be flushed at least up to here (the end of the waiting append)
     * @param deadlineNs {@link org.agrona.concurrent.NanoClock} time after which the waiter gets
     *                   {@link FlushOutcome#TIMED_OUT}
     */
    protected FlushWaiter(long position, long deadlineNs) {
        this.position = position;
        this.deadlineNs = deadlineNs;
    }

    /** The log position this waiter needs flushed. */
    public final long position() {
        return position;
    }

    /** The deadline, in {@link org.agrona.concurrent.NanoClock} nanoseconds. */
    public final long deadlineNs() {
        return deadlineNs;
    }

    /** Receives the outcome; called once, on an agent thread. */
    protected abstract void onOutcome(FlushOutcome outcome);
}
