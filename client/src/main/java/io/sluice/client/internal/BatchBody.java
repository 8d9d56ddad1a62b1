package io.sluice.client.internal;

import io.sluice.client.Message;
import java.util.Arrays;
import java.util.List;

/**
 * The body of one batch as it is built: entries ({@link BatchEntryDescriptor}) written back to back into one
 * array, in batch order, with each message's UNIQ_KEY. Writing each message straight into the batch's array saves
 * an array, two buffer views and a copy per message against encoding each on its own and joining them when framed.
 *
 * <p>Not thread-safe: one writer at a time (for an auto-batch, the holder of its slot's monitor). Once the batch is
 * handed to a {@link SendJob} nobody writes it again, and the I/O threads that frame its attempts only read it.
 */
public final class BatchBody {
    private final int maxBytes;
    private byte[] bytes;
    private int sizeBytes;
    private String[] uniqKeys;
    private int count;

    /**
     * @param capacityBytes bytes to allocate at first (clamped to {@code maxBytes})
     * @param capacityMessages messages to make room for at first (at least 1)
     * @param maxBytes the body never grows past this
     */
    public BatchBody(int capacityBytes, int capacityMessages, int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.bytes = new byte[Math.max(1, Math.min(capacityBytes, maxBytes))];
        this.uniqKeys = new String[Math.max(1, capacityMessages)];
    }

    /**
     * Appends {@code message} as one entry with a fresh UNIQ_KEY from {@code keys}.
     *
     * @param propertiesBytes what {@link BatchEntryDescriptor#propertiesBytes} gave for this message and {@code keys}
     * @throws IllegalArgumentException naming the sizes when the entry would take the body past its maximum
     */
    public void append(Message message, int propertiesBytes, UniqKeyGenerator keys) {
        int entryBytes = BatchEntryDescriptor.entryBytes(message, propertiesBytes);
        int needed = sizeBytes + entryBytes;
        if (entryBytes < 0 || needed < 0 || needed > maxBytes) {
            throw new IllegalArgumentException("an entry of " + entryBytes + " bytes does not fit a batch body of "
                    + sizeBytes + " bytes (at most " + maxBytes + ")");
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(needed, 2L * bytes.length)));
        }
        if (count == uniqKeys.length) {
            uniqKeys = Arrays.copyOf(uniqKeys, 2 * count);
        }
        String uniqKey = BatchEntryDescriptor.write(message, propertiesBytes, keys, bytes, sizeBytes);
        uniqKeys[count++] = uniqKey;
        sizeBytes = needed;
    }

    /** Bytes written. */
    int sizeBytes() {
        return sizeBytes;
    }

    /** Messages written. */
    int count() {
        return count;
    }

    /** The array the entries are in, from index 0 to {@link #sizeBytes()}; not a copy. */
    byte[] array() {
        return bytes;
    }

    /** The messages' UNIQ_KEYs in batch order; a view, valid while nothing is appended. */
    List<String> uniqKeys() {
        return Arrays.asList(uniqKeys).subList(0, count);
    }
}
