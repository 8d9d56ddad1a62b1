package io.sluice.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of the SEND_BATCH_MESSAGE request body: the concatenation, in batch order, of one entry per message.
 * The same bytes are stored verbatim as the body of a BatchCQ inner-batch record. Big-endian.
 *
 * <pre>
 *  offset    field        width
 *  -------   ----------   -------------------------------------
 *    0       TOTALSIZE    int    this entry, these 4 bytes included
 *    4       MAGICCODE    int    written as 0, not checked
 *    8       BODYCRC      int    written as 0, not checked
 *   12       FLAG         int    the message's flag
 *   16       BODYLENGTH   int    n
 *   20       BODY         n bytes
 *   20+n     PROPLENGTH   short  p (0..32767)
 *   22+n     PROPERTIES   p bytes: (name 0x01 value 0x02)*
 *  TOTALSIZE == 22 + n + p
 * </pre>
 *
 * <p>Stateless; thread-safe. The iterator returned by {@link #entries(ByteBuffer)} belongs to its caller.
 */
public final class BatchBodyDescriptor {

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_OFFSET = 4;
    public static final int BODY_CRC_OFFSET = 8;
    public static final int FLAG_OFFSET = 12;
    public static final int BODY_LENGTH_OFFSET = 16;
    public static final int BODY_OFFSET = 20;
    /** Bytes of an entry beyond its body and properties. */
    public static final int ENTRY_OVERHEAD_BYTES = 22;

    private BatchBodyDescriptor() {
    }

    /**
     * One decoded entry; indexes are absolute indexes into the buffer that was iterated. Immutable; thread-safe.
     *
     * @param ordinal          0-based position of the entry in the batch
     * @param entryIndex       index of the entry's TOTALSIZE
     * @param totalSize        the entry's TOTALSIZE
     * @param flag             the message flag
     * @param bodyIndex        index of the first body byte
     * @param bodyLength       body bytes
     * @param propertiesIndex  index of the first properties byte
     * @param propertiesLength properties bytes
     */
    public record Entry(int ordinal, int entryIndex, int totalSize, int flag, int bodyIndex, int bodyLength,
                       int propertiesIndex, int propertiesLength) {

        /** The properties string of this entry, decoded from {@code buffer}. */
        public String properties(ByteBuffer buffer) {
            byte[] bytes = new byte[propertiesLength];
            buffer.get(propertiesIndex, bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** A copy of this entry's body. */
        public byte[] body(ByteBuffer buffer) {
            byte[] bytes = new byte[bodyLength];
            buffer.get(bodyIndex, bytes);
            return bytes;
        }
    }

    /**
     * A message to encode into a batch body. The body array is not copied: the caller owns it.
     *
     * @param flag       the message flag
     * @param body       the body bytes
     * @param properties the encoded properties string (see {@link MessageProperties#encode})
     */
    public record Message(int flag, byte[] body, String properties) {
        public Message {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(properties, "properties");
        }
    }

    /**
     * Iterates the entries between {@code body.position()} and its limit, validating each before it is returned.
     * The buffer's position is not moved.
     *
     * @throws MalformedBatchException from {@code next()} when an entry's lengths are inconsistent
     */
    public static Iterator<Entry> entries(ByteBuffer body) {
        return new EntryIterator(body);
    }

    /**
     * Validates the whole body and counts its entries.
     *
     * @throws MalformedBatchException naming the first bad value, or when the body holds no entry
     */
    public static int count(ByteBuffer body) {
        // The same checks as the iterator's, without creating entries: this runs for every inner batch appended.
        int index = body.position();
        int limit = body.limit();
        int n = 0;
        while (index < limit) {
            int remaining = limit - index;
            if (remaining < ENTRY_OVERHEAD_BYTES) {
                throw malformed(n, index, "only " + remaining + " bytes left, an entry needs at least "
                        + ENTRY_OVERHEAD_BYTES);
            }
            int totalSize = bigEndianInt(body, index + TOTAL_SIZE_OFFSET);
            if (totalSize < ENTRY_OVERHEAD_BYTES || totalSize > remaining) {
                throw malformed(n, index, "TOTALSIZE " + totalSize + " outside [" + ENTRY_OVERHEAD_BYTES + ", "
                        + remaining + "]");
            }
            int bodyLength = bigEndianInt(body, index + BODY_LENGTH_OFFSET);
            if (bodyLength < 0 || bodyLength > totalSize - ENTRY_OVERHEAD_BYTES) {
                throw malformed(n, index, "BODYLENGTH " + bodyLength + " does not fit TOTALSIZE " + totalSize);
            }
            int propertiesLength = bigEndianShort(body, index + BODY_OFFSET + bodyLength);
            if (propertiesLength < 0 || ENTRY_OVERHEAD_BYTES + bodyLength + propertiesLength != totalSize) {
                throw malformed(n, index, "PROPLENGTH " + propertiesLength + " with BODYLENGTH " + bodyLength
                        + " does not add up to TOTALSIZE " + totalSize);
            }
            index += totalSize;
            n++;
        }
        if (n == 0) {
            throw new MalformedBatchException("batch body holds no message (" + body.remaining() + " bytes)");
        }
        return n;
    }

    /**
     * The first of {@code names} that an entry carries in its properties, entries scanned in batch order. The scan
     * stops quietly at the first malformed entry: {@link #count} refuses those when the batch is appended.
     *
     * @return the name found, or empty when no entry carries any of them
     */
    public static Optional<String> firstPropertyOfEntries(ByteBuffer body, MessageProperties.NameSet names) {
        UnsafeBuffer view = new UnsafeBuffer(body);
        long[] found = new long[names.size()];
        int index = body.position();
        int limit = body.limit();
        while (limit - index >= ENTRY_OVERHEAD_BYTES) {
            int totalSize = bigEndianInt(body, index + TOTAL_SIZE_OFFSET);
            int bodyLength = bigEndianInt(body, index + BODY_LENGTH_OFFSET);
            if (totalSize < ENTRY_OVERHEAD_BYTES || totalSize > limit - index || bodyLength < 0
                    || bodyLength > totalSize - ENTRY_OVERHEAD_BYTES) {
                break;
            }
            int propertiesIndex = index + BODY_OFFSET + bodyLength + Short.BYTES;
            MessageProperties.findValues(view, propertiesIndex, totalSize - (propertiesIndex - index), names, found);
            for (int k = 0; k < found.length; k++) {
                if (found[k] != MessageProperties.NOT_FOUND) {
                    return Optional.of(names.name(k));
                }
            }
            index += totalSize;
        }
        return Optional.empty();
    }

    private static int bigEndianInt(ByteBuffer b, int index) {
        int v = b.getInt(index);
        return b.order() == ByteOrder.BIG_ENDIAN ? v : Integer.reverseBytes(v);
    }

    private static short bigEndianShort(ByteBuffer b, int index) {
        short v = b.getShort(index);
        return b.order() == ByteOrder.BIG_ENDIAN ? v : Short.reverseBytes(v);
    }

    private static MalformedBatchException malformed(int ordinal, int index, String what) {
        return new MalformedBatchException("batch entry #" + ordinal + " at byte " + index + ": " + what);
    }

    /**
     * Encodes messages as the client does.
     *
     * @throws IllegalArgumentException when a message's properties exceed 32767 bytes
     */
    public static byte[] encode(List<Message> messages) {
        int total = 0;
        byte[][] props = new byte[messages.size()][];
        for (int i = 0; i < props.length; i++) {
            Message m = messages.get(i);
            props[i] = m.properties().getBytes(StandardCharsets.UTF_8);
            if (props[i].length > RecordDescriptor.MAX_PROPERTIES_BYTES) {
                throw new IllegalArgumentException("message " + i + ": properties of " + props[i].length
                        + " bytes exceed " + RecordDescriptor.MAX_PROPERTIES_BYTES);
            }
            total = Math.addExact(total, ENTRY_OVERHEAD_BYTES + m.body().length + props[i].length);
        }
        byte[] out = new byte[total];
        int at = 0;
        for (int i = 0; i < props.length; i++) {
            byte[] body = messages.get(i).body();
            writeEntryHeader(out, at, messages.get(i).flag(), body.length, props[i].length);
            System.arraycopy(body, 0, out, at + BODY_OFFSET, body.length);
            at = writePropertiesLength(out, at + BODY_OFFSET + body.length, props[i].length);
            System.arraycopy(props[i], 0, out, at, props[i].length);
            at += props[i].length;
        }
        return out;
    }

    /**
     * Writes the fields before an entry's body ({@link #BODY_OFFSET} bytes) into {@code out} from {@code at}.
     *
     * @param propertiesLength the bytes of the properties string that will follow the body
     */
    public static void writeEntryHeader(byte[] out, int at, int flag, int bodyLength, int propertiesLength) {
        putInt(out, at + TOTAL_SIZE_OFFSET, ENTRY_OVERHEAD_BYTES + bodyLength + propertiesLength);
        putInt(out, at + MAGIC_OFFSET, 0);
        putInt(out, at + BODY_CRC_OFFSET, 0);
        putInt(out, at + FLAG_OFFSET, flag);
        putInt(out, at + BODY_LENGTH_OFFSET, bodyLength);
    }

    /** Writes PROPLENGTH into {@code out} at {@code at}; returns the index of the first properties byte. */
    public static int writePropertiesLength(byte[] out, int at, int propertiesLength) {
        out[at] = (byte) (propertiesLength >>> 8);
        out[at + 1] = (byte) propertiesLength;
        return at + Short.BYTES;
    }

    /**
     * Decodes every entry between {@code body.position()} and its limit into messages that own copies of their
     * bytes; the buffer is not moved.
     *
     * @throws MalformedBatchException naming the entry and the bad value when the body is malformed
     */
    public static List<Message> decode(ByteBuffer body) {
        List<Message> messages = new ArrayList<>();
        Iterator<Entry> entries = entries(body);
        while (entries.hasNext()) {
            Entry entry = entries.next();
            messages.add(new Message(entry.flag(), entry.body(body), entry.properties(body)));
        }
        return messages;
    }

    private static void putInt(byte[] out, int at, int value) {
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
    }

    private static final class EntryIterator implements Iterator<Entry> {
        private final ByteBuffer buffer;
        private final int limit;
        private int index;
        private int ordinal;

        EntryIterator(ByteBuffer buffer) {
            this.buffer = buffer.duplicate(); // big-endian whatever the caller set
            this.index = buffer.position();
            this.limit = buffer.limit();
        }

        @Override
        public boolean hasNext() {
            return index < limit;
        }

        @Override
        public Entry next() {
            if (index >= limit) {
                throw new NoSuchElementException("batch body exhausted after " + ordinal + " entries");
            }
            int remaining = limit - index;
            if (remaining < ENTRY_OVERHEAD_BYTES) {
                throw malformed("only " + remaining + " bytes left, an entry needs at least "
                        + ENTRY_OVERHEAD_BYTES);
            }
            int totalSize = buffer.getInt(index + TOTAL_SIZE_OFFSET);
            if (totalSize < ENTRY_OVERHEAD_BYTES || totalSize > remaining) {
                throw malformed("TOTALSIZE " + totalSize + " outside [" + ENTRY_OVERHEAD_BYTES + ", "
                        + remaining + "]");
            }
            int bodyLength = buffer.getInt(index + BODY_LENGTH_OFFSET);
            if (bodyLength < 0 || bodyLength > totalSize - ENTRY_OVERHEAD_BYTES) {
                throw malformed("BODYLENGTH " + bodyLength + " does not fit TOTALSIZE " + totalSize);
            }
            int propertiesLength = buffer.getShort(index + BODY_OFFSET + bodyLength);
            if (propertiesLength < 0 || ENTRY_OVERHEAD_BYTES + bodyLength + propertiesLength != totalSize) {
                throw malformed("PROPLENGTH " + propertiesLength + " with BODYLENGTH " + bodyLength
                        + " does not add up to TOTALSIZE " + totalSize);
            }
            Entry entry = new Entry(ordinal, index, totalSize, buffer.getInt(index + FLAG_OFFSET),
                    index + BODY_OFFSET, bodyLength,
                    index + BODY_OFFSET + bodyLength + Short.BYTES, propertiesLength);
            index += totalSize;
            ordinal++;
            return entry;
        }

        private MalformedBatchException malformed(String what) {
            return BatchBodyDescriptor.malformed(ordinal, index, what);
        }
    }
}
