package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.RemotingCommand;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One TCP connection as seen by handlers and listeners: its identity, requests towards the peer and an
 * attachment slot for the owner's per-connection state (e.g. the client id a broker learned from a heartbeat).
 * Thread-safe; owned by the transport, which creates it on connect and discards it on close.
 */
public interface ConnectionContext {

    /** The peer's address. */
    SocketAddress remoteAddress();

    /** The peer's address as "host:port", the form RocketMQ uses in tables and logs. */
    String remoteAddressText();

    /** A short id, unique among the connections of this process. */
    String id();

    /** True until the connection closes. */
    boolean isActive();

    /**
     * Sends a request to the peer (e.g. a server-to-client request) with a fresh opaque; the future completes
     * with the response, or exceptionally with {@link RemotingTimeoutException} after {@code timeoutMs} or
     * {@link ConnectionClosedException} when the connection closes or the write fails.
     */
    CompletableFuture<RemotingCommand> sendRequest(RemotingCommand request, long timeoutMs);

    /**
     * Sends a request marked oneway (e.g. NOTIFY_CONSUMER_IDS_CHANGED); the future completes when it is written,
     * or exceptionally with {@link ConnectionClosedException}.
     */
    CompletableFuture<Void> sendOneway(RemotingCommand request);

    /** Closes the connection; close listeners run on the connection's I/O thread. */
    void close();

    /** Requests received and not yet answered (or, for oneway requests, not yet handled). */
    int inFlightRequests();

    /** True while the transport has stopped reading this connection because of its in-flight water marks. */
    boolean isReadPaused();

    /** The owner's per-connection state, or null. */
    Object attachment();

    /** Stores the owner's per-connection state. */
    void attach(Object attachment);

    /**
     * Runs tasks on this connection's I/O thread, in submission order: work that answers this connection (a
     * parked pull woken by new messages) then writes its response without a further hand-off. A transport
     * without I/O threads of its own (a test double) runs the task at once.
     */
    default Executor ioExecutor() {
        return Runnable::run;
    }
}
