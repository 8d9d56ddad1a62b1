package io.sluice.remoting.protocol;

/**
 * Layout of the ROCKETMQ binary header, serialize type 1 (docs/wire-protocol.md#binary-header). All integers
 * big-endian, strings UTF-8.
 *
 * <pre>
 * offset  size  field
 *      0     2  code (int16)
 *      2     1  language code
 *      3     2  version (int16)
 *      5     4  opaque (int32)
 *      9     4  flag (int32)
 *     13     4  remarkLength R (int32), 0 = no remark
 *     17     R  remark
 *   17+R     4  extLength E (int32): bytes of the entries below, 0 = none
 *   21+R     E  entries until E bytes are used:
 *               +----------------+-----+----------------------+-------+
 *               | keyLength int16| key | valueLength int32    | value |
 *               +----------------+-----+----------------------+-------+
 * </pre>
 *
 * <p>A zero-length remark, key or value stands for null: a null remark is decoded, an entry with an empty key or
 * value is dropped (Apache's decoder yields a null value there, i.e. an absent field), so an empty string cannot
 * be carried. A key that occurs twice keeps its last value. Codes and versions outside int16 cannot be
 * carried. Constants only.
 */
public final class BinaryHeaderDescriptor {
    public static final int CODE_OFFSET = 0;
    public static final int LANGUAGE_OFFSET = 2;
    public static final int VERSION_OFFSET = 3;
    public static final int OPAQUE_OFFSET = 5;
    public static final int FLAG_OFFSET = 9;
    public static final int REMARK_LENGTH_OFFSET = 13;
    /** Bytes of the fixed fields up to and including {@code remarkLength}. */
    public static final int FIXED_BYTES = 17;
    /** Size of the {@code extLength} field. */
    public static final int EXT_LENGTH_BYTES = 4;
    /** Smallest valid header: fixed fields, empty remark, empty entries. */
    public static final int MIN_HEADER_BYTES = FIXED_BYTES + EXT_LENGTH_BYTES;
    /** Size of an entry's key length field. */
    public static final int KEY_LENGTH_BYTES = 2;
    /** Size of an entry's value length field. */
    public static final int VALUE_LENGTH_BYTES = 4;
    /** Longest key a 16-bit length can describe (Apache reads it signed, so stay below 32768). */
    public static final int MAX_KEY_BYTES = Short.MAX_VALUE;

    private BinaryHeaderDescriptor() {
    }
}
