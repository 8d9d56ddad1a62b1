package io.sluice.remoting.protocol.body;

/**
 * A request or response body could not be decoded into the expected type. The message names the type and the
 * reason. Thrown by {@link BodyCodec#decode(byte[], Class)}.
 */
public final class BodyFormatException extends IllegalArgumentException {

    private final Class<?> bodyType;

    /**
     * Creates the exception.
     *
     * @param bodyType the body type that was expected
     * @param reason what was wrong
     * @param cause the parser's exception, or null
     */
    public BodyFormatException(Class<?> bodyType, String reason, Throwable cause) {
        super("malformed " + bodyType.getSimpleName() + " body: " + reason, cause);
        this.bodyType = bodyType;
    }

    /**
     * The body type that was expected.
     *
     * @return the expected type
     */
    public Class<?> bodyType() {
        return bodyType;
    }
}
