package io.sluice.remoting.transport;

/** No response arrived within the call's timeout. The message names the address, code, opaque and timeout. */
public final class RemotingTimeoutException extends RemotingException {
    public RemotingTimeoutException(String message) {
        super(message);
    }
}
