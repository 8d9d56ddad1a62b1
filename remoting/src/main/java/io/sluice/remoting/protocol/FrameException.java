package io.sluice.remoting.protocol;

/**
 * A frame that cannot be decoded: a length out of range or inconsistent, an unknown serialize type or an
 * unparseable header. The message names the bad value. The transport closes the connection that sent it.
 */
public final class FrameException extends Exception {
    /** Creates an exception whose message names the bad value. */
    public FrameException(String message) {
        super(message);
    }

    /** Creates an exception whose message names the bad value, keeping the parser's cause. */
    public FrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
