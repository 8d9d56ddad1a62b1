package io.sluice.remoting.protocol;

/**
 * How a frame's header is serialized: the high byte of the header word (wire-protocol §1.2, §1.6).
 * Immutable, thread-safe.
 */
public enum SerializeType {
    /** A JSON object (§1.4). */
    JSON(0),
    /** The compact ROCKETMQ binary layout (§1.5, {@link BinaryHeaderDescriptor}). */
    ROCKETMQ(1);

    private final byte code;

    SerializeType(int code) {
        this.code = (byte) code;
    }

    /** The value stored in the high byte of the header word. */
    public byte code() {
        return code;
    }

    /**
     * Maps the high byte of a header word to a serialize type.
     *
     * @throws FrameException naming the value when it is neither 0 nor 1
     */
    public static SerializeType fromCode(int code) throws FrameException {
        return switch (code) {
            case 0 -> JSON;
            case 1 -> ROCKETMQ;
            default -> throw new FrameException("unknown serialize type " + code);
        };
    }
}
