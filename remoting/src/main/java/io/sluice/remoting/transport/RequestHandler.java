package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;
import java.util.concurrent.CompletableFuture;

/**
 * Handles the requests of one or more request codes.
 *
 * <p>The transport calls {@link #handle} on the connection's ordered lane (or on the executor chosen in
 * {@link HandlerOptions}), in arrival order per connection, and does not wait for the returned future: the
 * synchronous part of {@code handle} (validation, sequencing such as a store append) is what is ordered; the
 * future may complete later on any thread (a flush, a long-poll wake-up), and the response is written then.
 * {@code handle} must not block on I/O.
 *
 * <p>Exceptions thrown by {@code handle} or carried by the future become a SYSTEM_ERROR response whose remark is
 * the exception's message (for {@link io.sluice.remoting.protocol.MalformedHeaderException} it names the field);
 * the connection stays open. The response's opaque, response flag and serialize type are set by the transport.
 * For oneway requests the result is ignored. Implementations must be thread-safe if registered for connections
 * on more than one lane.
 */
@FunctionalInterface
public interface RequestHandler {

    /**
     * Starts handling {@code request} from {@code connection}.
     *
     * @return a future of the response; must not be null and must not complete with null for a request that
     *     expects an answer
     */
    CompletableFuture<RemotingCommand> handle(ConnectionContext connection, RemotingCommand request)
            throws Exception;

    /** Adapts a handler that computes its response synchronously. */
    static RequestHandler sync(SyncRequestHandler handler) {
        return (connection, request) -> CompletableFuture.completedFuture(handler.handle(connection, request));
    }
}
