package io.sluice.remoting.protocol;

/**
 * A request's custom header ({@code extFields}) lacks a required field or holds a value of the wrong type.
 * Thrown by the typed accessors of {@link RemotingCommand}; the server answers it with
 * {@link ResponseCode#SYSTEM_ERROR} and this message as remark (as Apache does for a header it cannot decode),
 * and keeps the connection open.
 */
public final class MalformedHeaderException extends RuntimeException {
    private final String field;

    /** Creates an exception about {@code field}; the message must name the field. */
    public MalformedHeaderException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The header field that is missing or malformed. */
    public String field() {
        return field;
    }
}
