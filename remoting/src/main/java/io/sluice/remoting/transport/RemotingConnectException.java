package io.sluice.remoting.transport;

/** A connection to the named address could not be opened. */
public final class RemotingConnectException extends RemotingException {
    public RemotingConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
