package io.sluice.remoting.protocol;

/**
 * Layout of one remoting frame on a TCP connection (docs/wire-protocol.md#framing). All integers big-endian.
 *
 * <pre>
 *  0               1               2               3
 *  0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7
 * +---------------------------------------------------------------+
 * |                     totalLength (int32)                       |  bytes after this field:
 * +---------------+-----------------------------------------------+  4 + headerLength + bodyLength
 * | serializeType |            headerLength (uint24)              |  the "header word"
 * +---------------+-----------------------------------------------+
 * |                   header (headerLength bytes)                 |  JSON object (type 0) or
 * |                              ...                              |  ROCKETMQ binary (type 1)
 * +---------------------------------------------------------------+
 * |        body (totalLength - 4 - headerLength bytes, may be 0)  |  opaque payload
 * |                              ...                              |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A frame is invalid when {@code totalLength < 4}, when the whole frame ({@code 4 + totalLength}) exceeds the
 * receiver's limit, when {@code headerLength > totalLength - 4}, or when the serialize type is not 0 or 1.
 * Constants and pure functions only; thread-safe.
 */
public final class FrameDescriptor {
    /** Size of the {@code totalLength} field. */
    public static final int LENGTH_FIELD_BYTES = 4;
    /** Size of the header word. */
    public static final int HEADER_WORD_BYTES = 4;
    /** Bytes before the header: length field plus header word. */
    public static final int PREAMBLE_BYTES = LENGTH_FIELD_BYTES + HEADER_WORD_BYTES;
    /** Largest header the 24-bit length can describe. */
    public static final int MAX_HEADER_BYTES = 0xFF_FFFF;
    /**
     * Default limit on a whole frame, length field included: 16 MiB, the Apache client's decoder limit
     * ({@code com.rocketmq.remoting.frameMaxLength}). Messages are at most 4 MiB, so this leaves headroom.
     */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

    private static final int SERIALIZE_TYPE_SHIFT = 24;

    private FrameDescriptor() {
    }

    /** Packs a serialize type and a header length into the header word. */
    public static int headerWord(SerializeType type, int headerLength) {
        if (headerLength < 0 || headerLength > MAX_HEADER_BYTES) {
            throw new IllegalArgumentException("header length " + headerLength + " outside 0.." + MAX_HEADER_BYTES);
        }
        return (type.code() << SERIALIZE_TYPE_SHIFT) | headerLength;
    }

    /** The serialize type code (0..255) of a header word. */
    public static int serializeTypeCode(int headerWord) {
        return headerWord >>> SERIALIZE_TYPE_SHIFT;
    }

    /** The header length of a header word. */
    public static int headerLength(int headerWord) {
        return headerWord & MAX_HEADER_BYTES;
    }
}
