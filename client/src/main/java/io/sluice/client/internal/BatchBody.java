package io.sluice.client.internal;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.UniqKeyGenerator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.client.Message;
import java.util.Arrays;
import java.util.List;

/**
 * The body of one batch as it is built: entries ({@link BatchEntryWriter}) written back to back into one
 * direct buffer, in batch order, with each message's UNIQ_KEY. The socket can send direct memory as it is, so the
 * I/O thread that frames the batch copies nothing: each message's bytes are copied once, here, by its sender.
 *
 * <p>The buffer is reference-counted memory: the body holds one reference from construction until
 * {@link #release()}; each request that carries it takes one of its own ({@link #retainedBytes()}).
 *
 * <p>Not thread-safe: one writer at a time (for an auto-batch, the holder of its slot's monitor). Once the batch is
 * handed to a {@link SendJob} nobody writes it again, and the I/O threads that frame its attempts only read it.
 */
public final class BatchBody {
    /** Room for the properties of a typical message; grown for larger ones. */
    private static final int SCRATCH_BYTES = 256;

    private final int maxBytes;
    private final ByteBuf bytes;
    /** Where the fields around each entry's body are composed before they are appended. */
    private byte[] scratch = new byte[SCRATCH_BYTES];
    private String[] uniqKeys;
    private int count;

    /**
     * @param buffer an empty direct buffer whose one reference the body takes over; the body never grows past its
     *               maximum capacity
     * @param capacityMessages messages to make room for at first (at least 1)
     */
    public BatchBody(ByteBuf buffer, int capacityMessages) {
        if (buffer.isReadable()) {
            buffer.release();
            throw new IllegalArgumentException("a batch body starts empty, not with " + buffer.readableBytes()
                    + " bytes");
        }
        this.bytes = buffer;
        this.maxBytes = buffer.maxCapacity();
        this.uniqKeys = new String[Math.max(1, capacityMessages)];
    }

    /** A body in a fresh buffer of {@code allocator}'s, room for {@code capacityBytes}, at most {@code maxBytes}. */
    public static BatchBody allocate(ByteBufAllocator allocator, int capacityBytes, int capacityMessages,
                                     int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        return new BatchBody(allocator.directBuffer(Math.max(1, Math.min(capacityBytes, maxBytes)), maxBytes),
                capacityMessages);
    }

    /**
     * Appends {@code message} as one entry with a fresh UNIQ_KEY from {@code keys}.
     *
     * @param propertiesBytes what {@link BatchEntryWriter#propertiesBytes} gave for this message and {@code keys}
     * @throws IllegalArgumentException naming the sizes when the entry would take the body past its maximum
     */
    public void append(Message message, int propertiesBytes, UniqKeyGenerator keys) {
        int sizeBytes = bytes.writerIndex();
        int entryBytes = BatchEntryWriter.entryBytes(message, propertiesBytes);
        int needed = sizeBytes + entryBytes;
        if (entryBytes < 0 || needed < 0 || needed > maxBytes) {
            throw new IllegalArgumentException("an entry of " + entryBytes + " bytes does not fit a batch body of "
                    + sizeBytes + " bytes (at most " + maxBytes + ")");
        }
        bytes.ensureWritable(entryBytes);
        if (count == uniqKeys.length) {
            uniqKeys = Arrays.copyOf(uniqKeys, 2 * count);
        }
        if (scratch.length < BatchBodyDescriptor.ENTRY_OVERHEAD_BYTES + propertiesBytes) {
            scratch = new byte[BatchBodyDescriptor.ENTRY_OVERHEAD_BYTES + propertiesBytes];
        }
        String uniqKey;
        try {
            uniqKey = BatchEntryWriter.write(message, propertiesBytes, keys, bytes, scratch);
        } catch (ArrayIndexOutOfBoundsException e) { // the properties ran past the room propertiesBytes made
            throw new IllegalStateException("propertiesBytes " + propertiesBytes + " is not this message's", e);
        }
        uniqKeys[count++] = uniqKey;
    }

    /** Bytes written. */
    int sizeBytes() {
        return bytes.writerIndex();
    }

    /** Messages written. */
    int count() {
        return count;
    }

    /** The entries written so far, as a new reference the caller must release (or hand on); not a copy. */
    ByteBuf retainedBytes() {
        return bytes.retainedSlice(0, bytes.writerIndex());
    }

    /** Gives up this body's own reference; the memory is freed once every request holding it is done. */
    public void release() {
        bytes.release();
    }

    /** The messages' UNIQ_KEYs in batch order; a view, valid while nothing is appended. */
    List<String> uniqKeys() {
        return Arrays.asList(uniqKeys).subList(0, count);
    }
}
