package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.ToIntFunction;

/**
 * How the requests of one registered code are run. Immutable, thread-safe.
 *
 * @param executor where {@link RequestHandler#handle} runs: null means the connection's ordered lane (or its I/O
 *                 thread, with {@code onIoThread}); a separate executor (for admin or slow operations) gives up
 *                 ordering relative to other requests
 * @param flowControlled whether the code's requests count toward the connection's in-flight water marks until
 *                       their response is written; off for requests that may stay parked long and hold little
 *                       memory (long-polling pulls), so they cannot stall the connection
 * @param onIoThread whether {@link RequestHandler#handle} runs on the connection's I/O thread as soon as the frame
 *                   is decoded (no queue, no hand-off); only for handlers that never wait, since every connection
 *                   of that I/O thread waits with them. Order is kept among such codes, not against the lane's.
 * @param queueBound limits the requests waiting for the lane or executor, across every connection and code given
 *                   the same bound; null for no limit; not for handlers on the I/O thread, which never queue
 * @param burstGroup only with {@code onIoThread}: the requests of one read burst run once the burst is read,
 *                   grouped by this key in arrival order (for sends: one queue's records lie back to back and share
 *                   a consume-queue slot); null runs each as soon as it is decoded
 * @param bodyInFrame whether the request's body may stay in the buffer it was received into instead of being
 *                    copied out: {@link RemotingCommand#bodyView()} is then a view of the received bytes, valid only
 *                    while {@link RequestHandler#handle} runs (the transport releases it when that returns); only
 *                    for handlers that are done with the body when they return
 */
public record HandlerOptions(Executor executor, boolean flowControlled, boolean onIoThread, QueueBound queueBound,
                             ToIntFunction<RemotingCommand> burstGroup, boolean bodyInFrame) {
    /** Runs on the connection's lane, flow-controlled: the default. */
    public static final HandlerOptions LANE = new HandlerOptions(null, true, false, null, null);

    /** Runs on the connection's I/O thread, flow-controlled. */
    public static final HandlerOptions IO_THREAD = new HandlerOptions(null, true, true, null, null);

    /**
     * @throws IllegalArgumentException when a handler on the I/O thread is also given an executor or a queue bound,
     *                                  or a handler elsewhere a burst group
     */
    public HandlerOptions {
        if (!onIoThread && burstGroup != null) {
            throw new IllegalArgumentException("only a handler run on the I/O thread runs by read burst");
        }
        if (onIoThread && executor != null) {
            throw new IllegalArgumentException("a handler run on the I/O thread takes no executor, was given "
                    + executor);
        }
        if (onIoThread && queueBound != null) {
            throw new IllegalArgumentException("a handler run on the I/O thread has no queue to bound, was given "
                    + queueBound);
        }
    }

    /** Options whose requests' bodies are copied out of the received frame. */
    public HandlerOptions(Executor executor, boolean flowControlled, boolean onIoThread, QueueBound queueBound,
                          ToIntFunction<RemotingCommand> burstGroup) {
        this(executor, flowControlled, onIoThread, queueBound, burstGroup, false);
    }

    /** Runs on {@code executor} instead of the lane, flow-controlled. */
    public static HandlerOptions onExecutor(Executor executor) {
        return new HandlerOptions(Objects.requireNonNull(executor, "executor"), true, false, null, null);
    }

    /** The same options, without counting toward the in-flight water marks. */
    public HandlerOptions withoutFlowControl() {
        return new HandlerOptions(executor, false, onIoThread, queueBound, burstGroup, bodyInFrame);
    }

    /** The same options, with at most {@code bound}'s capacity of requests waiting to run. */
    public HandlerOptions withQueueBound(QueueBound bound) {
        return new HandlerOptions(executor, flowControlled, onIoThread, Objects.requireNonNull(bound, "bound"),
                burstGroup, bodyInFrame);
    }

    /** The same options, run by read burst, grouped by {@code group} (see the {@code burstGroup} parameter). */
    public HandlerOptions withBurstGroup(ToIntFunction<RemotingCommand> group) {
        return new HandlerOptions(executor, flowControlled, onIoThread, queueBound,
                Objects.requireNonNull(group, "group"), bodyInFrame);
    }

    /** The same options, the body left in the received frame (see the {@code bodyInFrame} parameter). */
    public HandlerOptions withBodyInFrame() {
        return new HandlerOptions(executor, flowControlled, onIoThread, queueBound, burstGroup, true);
    }
}
