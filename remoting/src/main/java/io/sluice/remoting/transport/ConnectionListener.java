package io.sluice.remoting.transport;

/**
 * Told when connections open and close (e.g. so a broker drops a client's registrations). Called on the
 * connection's I/O thread: implementations must be quick, must not block and must be thread-safe.
 */
public interface ConnectionListener {

    /** A connection became active. */
    default void onConnected(ConnectionContext connection) {
    }

    /** A connection closed; requests still in flight on it get no response. */
    default void onClosed(ConnectionContext connection) {
    }
}
