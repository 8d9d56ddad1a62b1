package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;

/**
 * A {@link RequestHandler} that computes its response before returning; wrap it with
 * {@link RequestHandler#sync}. Runs on the connection's lane, so it must be quick and must not block on I/O.
 */
@FunctionalInterface
public interface SyncRequestHandler {

    /** Returns the response to {@code request} (ignored for oneway requests). */
    RemotingCommand handle(ConnectionContext connection, RemotingCommand request) throws Exception;
}
