package io.sluice.remoting.protocol;

/**
 * How a frame's header is serialized: the high byte of the header word (docs/wire-protocol.md#framing,
 * docs/wire-protocol.md#which-encoding-is-used). Immutable, thread-safe.
 */
public enum SerializeType {
    /** A JSON object (docs/wire-protocol.md#json-header). */
    JSON(0),
    /** The compact ROCKETMQ binary layout ({@link BinaryHeaderDescriptor}). */
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
