package io.sluice.remoting.transport;

/** A remote call failed in the transport (timeout, connect failure, closed connection). */
public class RemotingException extends Exception {
    public RemotingException(String message) {
        super(message);
    }

    public RemotingException(String message, Throwable cause) {
        super(message, cause);
    }
}
