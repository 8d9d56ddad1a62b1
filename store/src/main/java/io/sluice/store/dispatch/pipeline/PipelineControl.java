package io.sluice.store.dispatch.pipeline;

/**
 * Flags shared by the pipeline's threads: the stop request, and where the writer decided dispatch resumes after
 * damage.
 *
 * <p>Thread-safe: every field is volatile. {@link #halt()} is called by whoever stops the pipeline;
 * {@link #skipUntil(long)} only by the {@link CqWriter}, read by the {@link ChunkCutter}.
 */
final class PipelineControl {

    private volatile boolean halted;
    /** Positions below this are in a damaged segment's rest: nothing there is dispatched. Only grows. */
    private volatile long skipUntil;
    /** When the reader last saw everything confirmed written (nothing cut, nothing in flight); for lag. */
    private volatile long caughtUpAtMs;

    void halt() {
        halted = true;
    }

    boolean isHalted() {
        return halted;
    }

    /**
     * The thread writing consume queues (one at a time, see {@link CqWriter}): dispatch resumes at {@code position}
     * (a segment start) after damage before it.
     */
    void skipUntil(long position) {
        if (position > skipUntil) {
            skipUntil = position;
        }
    }

    long skipUntil() {
        return skipUntil;
    }

    /** Reader (and start): dispatch has nothing left to do at {@code nowMs}. */
    void caughtUpAt(long nowMs) {
        caughtUpAtMs = nowMs;
    }

    long caughtUpAtMs() {
        return caughtUpAtMs;
    }
}
