package io.sluice.client.internal;

import static io.sluice.format.BatchBodyDescriptor.BODY_OFFSET;

import io.netty.buffer.ByteBuf;
import io.sluice.client.Message;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.format.UniqKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes a client {@link Message} as one entry of a SEND_BATCH_MESSAGE body, in the layout of
 * {@link BatchBodyDescriptor}, with a fresh UNIQ_KEY and without building its properties string first.
 *
 * <p>Each message's properties are written in this order: {@code UNIQ_KEY}, {@code TAGS}, {@code KEYS},
 * {@code WAIT} (only when false), then the user properties.
 *
 * <p>Stateless; thread-safe.
 */
public final class BatchEntryWriter {
    private static final byte[] UNIQ_KEY_NAME = ascii(MessageProperties.UNIQ_KEY);
    private static final byte[] TAGS_NAME = ascii(MessageProperties.TAGS);
    private static final byte[] KEYS_NAME = ascii(MessageProperties.KEYS);
    private static final byte[] WAIT_FALSE = ascii(MessageProperties.WAIT + MessageProperties.NAME_VALUE_SEPARATOR
            + "false" + MessageProperties.PROPERTY_SEPARATOR);

    private BatchEntryWriter() {
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
        if (propertiesBytes > RecordDescriptor.MAX_PROPERTIES_BYTES) {
            throw new IllegalArgumentException("message properties of " + propertiesBytes + " bytes exceed "
                    + RecordDescriptor.MAX_PROPERTIES_BYTES);
        }
        return propertiesBytes;
    }

    /** Bytes of the entry of {@code message} with {@code propertiesBytes} of properties. */
    public static int entryBytes(Message message, int propertiesBytes) {
        return BatchBodyDescriptor.ENTRY_OVERHEAD_BYTES + message.body().length + propertiesBytes;
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
     * hold at least {@code ENTRY_OVERHEAD_BYTES + propertiesBytes} bytes, so the entry goes out in three bulk writes.
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

    private static void writeHeader(Message message, int propertiesBytes, byte[] out, int at) {
        BatchBodyDescriptor.writeEntryHeader(out, at, message.flag(), message.body().length, propertiesBytes);
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
        at = BatchBodyDescriptor.writePropertiesLength(out, at, propertiesBytes);
        at = name(UNIQ_KEY_NAME, out, at);
        int keyStart = at;
        at = keys.write(out, at);
        // Made here, while the bytes are in cache; the I/O thread that completes the send only hands it over.
        String uniqKey = new String(out, keyStart, at - keyStart, StandardCharsets.ISO_8859_1);
        out[at++] = MessageProperties.PROPERTY_SEPARATOR;
        String tags = message.tags();
        if (tags != null) {
            at = name(TAGS_NAME, out, at);
            at = Utf8.write(tags, out, at);
            out[at++] = MessageProperties.PROPERTY_SEPARATOR;
        }
        String userKeys = message.keys();
        if (userKeys != null) {
            at = name(KEYS_NAME, out, at);
            at = Utf8.write(userKeys, out, at);
            out[at++] = MessageProperties.PROPERTY_SEPARATOR;
        }
        if (!message.waitStoreMsgOk()) {
            System.arraycopy(WAIT_FALSE, 0, out, at, WAIT_FALSE.length);
            at += WAIT_FALSE.length;
        }
        for (Map.Entry<String, String> pair : message.properties().entrySet()) {
            at = Utf8.write(pair.getKey(), out, at);
            out[at++] = MessageProperties.NAME_VALUE_SEPARATOR;
            at = Utf8.write(pair.getValue(), out, at);
            out[at++] = MessageProperties.PROPERTY_SEPARATOR;
        }
        if (at != end) {
            throw new IllegalStateException("properties of " + (propertiesBytes - (end - at)) + " bytes written: "
                    + "propertiesBytes " + propertiesBytes + " is not this message's");
        }
        return uniqKey;
    }

    private static int name(byte[] name, byte[] out, int at) {
        System.arraycopy(name, 0, out, at, name.length);
        at += name.length;
        out[at] = MessageProperties.NAME_VALUE_SEPARATOR;
        return at + 1;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
