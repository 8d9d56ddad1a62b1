package io.sluice.client.internal;

import io.netty.buffer.ByteBuf;
import io.sluice.client.Message;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Layout of one message inside a SEND_BATCH_MESSAGE body (docs/wire-protocol.md#batch-body). A batch body is the
 * concatenation of entries in batch order; a BatchCQ inner-batch record stores the same bytes as its body. Big-endian.
 *
 * <pre>
 *  offset    field        width
 *  -------   ----------   -------------------------------------
 *    0       TOTALSIZE    int    this entry, these 4 bytes included
 *    4       MAGICCODE    int    written as 0
 *    8       BODYCRC      int    written as 0
 *   12       FLAG         int    the message's user flag
 *   16       BODYLENGTH   int    n
 *   20       BODY         n bytes
 *   20+n     PROPLENGTH   short  p (0..32767)
 *   22+n     PROPERTIES   p bytes: (name 0x01 value 0x02)*
 *  TOTALSIZE == 22 + n + p
 * </pre>
 *
 * <p>The client writes each message's properties in this order: {@code UNIQ_KEY}, {@code TAGS}, {@code KEYS},
 * {@code WAIT} (only when false), then the user properties.
 *
 * <p>Stateless; thread-safe.
 */
public final class BatchEntryDescriptor {
    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_CODE_OFFSET = 4;
    public static final int BODY_CRC_OFFSET = 8;
    public static final int FLAG_OFFSET = 12;
    public static final int BODY_LENGTH_OFFSET = 16;
    public static final int BODY_OFFSET = 20;
    /** Bytes of an entry besides its body and properties. */
    public static final int OVERHEAD_BYTES = 22;
    /** Longest properties string (its length is a signed short). */
    public static final int MAX_PROPERTIES_BYTES = Short.MAX_VALUE;

    private static final byte[] UNIQ_KEY_NAME = ascii(PropertyKeys.UNIQ_KEY);
    private static final byte[] TAGS_NAME = ascii(PropertyKeys.TAGS);
    private static final byte[] KEYS_NAME = ascii(PropertyKeys.KEYS);
    private static final byte[] WAIT_FALSE = ascii(PropertyKeys.WAIT + PropertyCodec.NAME_VALUE_SEPARATOR + "false"
            + PropertyCodec.PAIR_SEPARATOR);

    private BatchEntryDescriptor() {
    }

    /**
     * One entry decoded from a body.
     *
     * @param flag the user flag
     * @param body the body bytes (a copy)
     * @param properties the properties string
     */
    public record Entry(int flag, byte[] body, String properties) {
    }

    /**
     * Encodes {@code message} as one entry, in an array of its own, with a fresh UNIQ_KEY from {@code keys} (whose
     * clock it reads first).
     *
     * @throws IllegalArgumentException naming the size when the properties exceed 32767 bytes
     */
    public static EncodedMessage encode(Message message, UniqKeyGenerator keys) {
        keys.readClock();
        int propertiesBytes = propertiesBytes(message, keys.keyChars());
        byte[] out = new byte[entryBytes(message, propertiesBytes)];
        String uniqKey = write(message, propertiesBytes, keys, out, 0);
        return new EncodedMessage(message, out, uniqKey);
    }

    /**
     * Bytes of the properties {@code message} is written with, its UNIQ_KEY of {@code keyChars} included.
     *
     * @throws IllegalArgumentException naming the size when they exceed 32767 bytes
     */
    public static int propertiesBytes(Message message, int keyChars) {
        int propertiesBytes = UNIQ_KEY_NAME.length + keyChars + 2;
        String tags = message.tags();
        if (tags != null) {
            propertiesBytes += TAGS_NAME.length + Utf8.length(tags) + 2;
        }
        String userKeys = message.keys();
        if (userKeys != null) {
            propertiesBytes += KEYS_NAME.length + Utf8.length(userKeys) + 2;
        }
        if (!message.waitStoreMsgOk()) {
            propertiesBytes += WAIT_FALSE.length;
        }
        Map<String, String> user = message.properties();
        if (!user.isEmpty()) {
            for (Map.Entry<String, String> pair : user.entrySet()) {
                propertiesBytes += Utf8.length(pair.getKey()) + Utf8.length(pair.getValue()) + 2;
            }
        }
        if (propertiesBytes > MAX_PROPERTIES_BYTES) {
            throw new IllegalArgumentException("message properties of " + propertiesBytes + " bytes exceed "
                    + MAX_PROPERTIES_BYTES);
        }
        return propertiesBytes;
    }

    /** Bytes of the entry of {@code message} with {@code propertiesBytes} of properties. */
    public static int entryBytes(Message message, int propertiesBytes) {
        return OVERHEAD_BYTES + message.body().length + propertiesBytes;
    }

    /**
     * Writes {@code message} as one entry into {@code out} from {@code at}, with a fresh UNIQ_KEY from {@code keys}
     * (see {@link UniqKeyGenerator#write} for its time); the entry takes exactly {@link #entryBytes} bytes.
     *
     * @param propertiesBytes what {@link #propertiesBytes} gave for this message and {@code keys}
     * @return the message's UNIQ_KEY
     */
    public static String write(Message message, int propertiesBytes, UniqKeyGenerator keys, byte[] out, int at) {
        byte[] body = message.body();
        writeHeader(message, propertiesBytes, out, at);
        System.arraycopy(body, 0, out, at + BODY_OFFSET, body.length);
        return writeProperties(message, propertiesBytes, keys, out, at + BODY_OFFSET + body.length);
    }

    /**
     * Writes {@code message} as one entry at the writer index of {@code out}, like {@link #write(Message, int,
     * UniqKeyGenerator, byte[], int)}. The fields around the body are composed in {@code scratch} first, which must
     * hold at least {@code OVERHEAD_BYTES + propertiesBytes} bytes, so the entry goes out in three bulk writes. The
     * caller makes sure {@code out} has room for the entry.
     *
     * @return the message's UNIQ_KEY
     */
    public static String write(Message message, int propertiesBytes, UniqKeyGenerator keys, ByteBuf out,
                               byte[] scratch) {
        byte[] body = message.body();
        writeHeader(message, propertiesBytes, scratch, 0);
        String uniqKey = writeProperties(message, propertiesBytes, keys, scratch, BODY_OFFSET);
        out.writeBytes(scratch, 0, BODY_OFFSET).writeBytes(body)
                .writeBytes(scratch, BODY_OFFSET, Short.BYTES + propertiesBytes);
        return uniqKey;
    }

    /** Writes the fields before an entry's body ({@link #BODY_OFFSET} bytes) into {@code out} from {@code at}. */
    private static void writeHeader(Message message, int propertiesBytes, byte[] out, int at) {
        int bodyLength = message.body().length;
        putInt(out, at + TOTAL_SIZE_OFFSET, OVERHEAD_BYTES + bodyLength + propertiesBytes);
        putInt(out, at + MAGIC_CODE_OFFSET, 0);
        putInt(out, at + BODY_CRC_OFFSET, 0);
        putInt(out, at + FLAG_OFFSET, message.flag());
        putInt(out, at + BODY_LENGTH_OFFSET, bodyLength);
    }

    /**
     * Writes the properties part of an entry, PROPLENGTH included, into {@code out} from {@code at}: exactly
     * {@code 2 + propertiesBytes} bytes.
     *
     * @return the message's UNIQ_KEY
     */
    private static String writeProperties(Message message, int propertiesBytes, UniqKeyGenerator keys, byte[] out,
                                          int at) {
        int end = at + Short.BYTES + propertiesBytes;
        out[at++] = (byte) (propertiesBytes >>> 8);
        out[at++] = (byte) propertiesBytes;
        at = name(UNIQ_KEY_NAME, out, at);
        int keyStart = at;
        at = keys.write(out, at);
        // Made here, while the bytes are in cache; the I/O thread that completes the send only hands it over.
        String uniqKey = new String(out, keyStart, at - keyStart, StandardCharsets.ISO_8859_1);
        out[at++] = PropertyCodec.PAIR_SEPARATOR;
        String tags = message.tags();
        if (tags != null) {
            at = name(TAGS_NAME, out, at);
            at = Utf8.write(tags, out, at);
            out[at++] = PropertyCodec.PAIR_SEPARATOR;
        }
        String userKeys = message.keys();
        if (userKeys != null) {
            at = name(KEYS_NAME, out, at);
            at = Utf8.write(userKeys, out, at);
            out[at++] = PropertyCodec.PAIR_SEPARATOR;
        }
        if (!message.waitStoreMsgOk()) {
            System.arraycopy(WAIT_FALSE, 0, out, at, WAIT_FALSE.length);
            at += WAIT_FALSE.length;
        }
        for (Map.Entry<String, String> pair : message.properties().entrySet()) {
            at = Utf8.write(pair.getKey(), out, at);
            out[at++] = PropertyCodec.NAME_VALUE_SEPARATOR;
            at = Utf8.write(pair.getValue(), out, at);
            out[at++] = PropertyCodec.PAIR_SEPARATOR;
        }
        if (at != end) {
            throw new IllegalStateException("properties of " + (propertiesBytes - (end - at)) + " bytes written: "
                    + "propertiesBytes " + propertiesBytes + " is not this message's");
        }
        return uniqKey;
    }

    /**
     * Decodes every entry between {@code body.position()} and its limit; the buffer is not moved.
     *
     * @throws IllegalArgumentException naming the entry and the bad length when the body is malformed
     */
    public static List<Entry> decode(ByteBuffer body) {
        List<Entry> entries = new ArrayList<>();
        int index = body.position();
        int limit = body.limit();
        while (index < limit) {
            int remaining = limit - index;
            if (remaining < OVERHEAD_BYTES) {
                throw malformed(entries.size(), index, "only " + remaining + " bytes left");
            }
            int totalSize = body.getInt(index + TOTAL_SIZE_OFFSET);
            if (totalSize < OVERHEAD_BYTES || totalSize > remaining) {
                throw malformed(entries.size(), index, "TOTALSIZE " + totalSize + " outside [" + OVERHEAD_BYTES
                        + ", " + remaining + "]");
            }
            int bodyLength = body.getInt(index + BODY_LENGTH_OFFSET);
            if (bodyLength < 0 || bodyLength > totalSize - OVERHEAD_BYTES) {
                throw malformed(entries.size(), index, "BODYLENGTH " + bodyLength + " does not fit " + totalSize);
            }
            int propertiesLength = body.getShort(index + BODY_OFFSET + bodyLength);
            if (propertiesLength < 0 || OVERHEAD_BYTES + bodyLength + propertiesLength != totalSize) {
                throw malformed(entries.size(), index, "PROPLENGTH " + propertiesLength + " does not add up to "
                        + totalSize);
            }
            byte[] bytes = new byte[bodyLength];
            body.get(index + BODY_OFFSET, bytes);
            byte[] properties = new byte[propertiesLength];
            body.get(index + BODY_OFFSET + bodyLength + Short.BYTES, properties);
            entries.add(new Entry(body.getInt(index + FLAG_OFFSET), bytes,
                    new String(properties, StandardCharsets.UTF_8)));
            index += totalSize;
        }
        return entries;
    }

    private static IllegalArgumentException malformed(int ordinal, int index, String what) {
        return new IllegalArgumentException("batch entry #" + ordinal + " at byte " + index + ": " + what);
    }

    private static int name(byte[] name, byte[] out, int at) {
        System.arraycopy(name, 0, out, at, name.length);
        at += name.length;
        out[at] = PropertyCodec.NAME_VALUE_SEPARATOR;
        return at + 1;
    }

    private static void putInt(byte[] out, int at, int value) {
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
