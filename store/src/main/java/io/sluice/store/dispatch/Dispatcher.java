package io.sluice.store.dispatch;

/**
 * Builds consume-queue slots from the CommitLog, behind the log's confirmed position (flushed for SYNC, written
 * for ASYNC), in CommitLog order per queue, idempotently (a record already indexed is skipped).
 *
 * <p>Lifecycle: construct, optionally re-dispatch during recovery (implementation specific), {@link #start} once,
 * {@link #close} once. Every other method may be called from any thread at any time.
 */
public interface Dispatcher extends AutoCloseable {

    /**
     * Starts dispatching at {@code fromPosition}, a record boundary (normally the end of the recovered log).
     *
     * @throws IllegalStateException if already started or closed
     */
    void start(long fromPosition);

    /**
     * Hints that the confirmed position may have moved (an append or a flush completed), so an idle dispatcher
     * looks again now rather than at its next periodic check. Cheap when the dispatcher is busy.
     */
    void wakeUp();

    /**
     * Called on the thread that has just appended records, right after its append was confirmed: a dispatcher
     * may index them on this thread when it is idle, instead of waking its own thread (which on a loaded machine
     * waits for a processor). Must not block; by default the same as {@link #wakeUp()}.
     */
    default void afterAppend() {
        wakeUp();
    }

    /**
     * Position after the last record whose consume-queue slot is written (release/acquire: every slot of a record
     * below it is visible to a thread that read this value). Only moves forward.
     */
    long dispatchedPosition();

    /** Bytes between the log's confirmed position and {@link #dispatchedPosition()}; 0 when caught up. */
    long lagBytes();

    /**
     * How far behind dispatch is in time, while {@link #lagBytes()} is positive (0 when caught up): an upper
     * bound on how long the oldest undispatched record has waited (now minus the later of the last dispatched
     * record's store time and the moment dispatch last caught up).
     */
    long lagMs();

    /**
     * Waits until every record confirmed when this method was called is dispatched.
     *
     * @return true when caught up, false if {@code timeoutMs} passed first or the dispatcher is not running
     */
    boolean drain(long timeoutMs);

    /** What this dispatcher did since it was created. */
    DispatchTotals totals();

    /** Stops the dispatch thread (without draining: call {@link #drain} first for a clean stop). Idempotent. */
    @Override
    void close();
}
