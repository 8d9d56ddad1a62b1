package io.sluice.remoting.transport;

/** The connection closed, or a write failed, before the call completed. */
public final class ConnectionClosedException extends RemotingException {
    public ConnectionClosedException(String message) {
        super(message);
    }

    public ConnectionClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
