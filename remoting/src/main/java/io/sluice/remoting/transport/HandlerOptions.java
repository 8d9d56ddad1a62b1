package io.sluice.remoting.transport;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How the requests of one registered code are run. Immutable, thread-safe.
 *
 * @param executor where {@link RequestHandler#handle} runs: null means the connection's ordered lane; a
 *                 separate executor (for admin or slow operations) gives up ordering relative to other requests
 * @param flowControlled whether the code's requests count toward the connection's in-flight water marks until
 *                       their response is written. Turn it off for requests that may stay parked for long and
 *                       hold little memory (long-polling pulls), so they cannot stall the connection.
 */
public record HandlerOptions(Executor executor, boolean flowControlled) {
    /** Runs on the connection's lane, flow-controlled: the default. */
    public static final HandlerOptions LANE = new HandlerOptions(null, true);

    /** Runs on {@code executor} instead of the lane, flow-controlled. */
    public static HandlerOptions onExecutor(Executor executor) {
        return new HandlerOptions(Objects.requireNonNull(executor, "executor"), true);
    }

    /** The same options, without counting toward the in-flight water marks. */
    public HandlerOptions withoutFlowControl() {
        return new HandlerOptions(executor, false);
    }
}
