package io.sluice.store.index;

import java.util.Arrays;

/**
 * A reusable buffer of consecutive slots filled by {@link ConsumeQueue#read(long, SlotBatch)}: the pull path reads
 * up to {@link #capacity()} slots at once, then walks them by index, with no allocation per read.
 *
 * <p>Not thread-safe: one batch per reader thread (keep it in the pull handler's thread-local state).
 */
public final class SlotBatch {

    private final long[] positions;
    private final int[] sizes;
    private final long[] tagsCodes;
    private final long[] baseOffsets;
    private final int[] batchCounts;
    private final long[] storeTimestamps;
    private int size;

    /**
     * @param capacity the most slots one read returns, at least 1
     * @throws IllegalArgumentException naming the value if {@code capacity < 1}
     */
    public SlotBatch(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("slot batch capacity must be >= 1, was " + capacity);
        }
        positions = new long[capacity];
        sizes = new int[capacity];
        tagsCodes = new long[capacity];
        baseOffsets = new long[capacity];
        batchCounts = new int[capacity];
        storeTimestamps = new long[capacity];
    }

    public int capacity() {
        return positions.length;
    }

    /** Slots held by the last read, 0 when it found none. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long position(int index) {
        return positions[check(index)];
    }

    public int sizeBytes(int index) {
        return sizes[check(index)];
    }

    public long tagsCode(int index) {
        return tagsCodes[check(index)];
    }

    public long baseOffset(int index) {
        return baseOffsets[check(index)];
    }

    public int batchCount(int index) {
        return batchCounts[check(index)];
    }

    /** The record's store time, or {@link QueueSlot#UNKNOWN_STORE_TIME} for SimpleCQ. */
    public long storeTimestampMs(int index) {
        return storeTimestamps[check(index)];
    }

    /** The offset after the last slot held (where the next read continues); undefined when empty. */
    public long nextOffset() {
        int last = check(size - 1);
        return baseOffsets[last] + batchCounts[last];
    }

    /** The slot at {@code index} as a record (allocates; for tests and tools). */
    public QueueSlot slot(int index) {
        int i = check(index);
        return new QueueSlot(positions[i], sizes[i], tagsCodes[i], baseOffsets[i], batchCounts[i],
                storeTimestamps[i]);
    }

    public void clear() {
        size = 0;
    }

    boolean isFull() {
        return size == positions.length;
    }

    void add(long position, int sizeBytes, long tagsCode, long baseOffset, int batchCount, long storeTimestampMs) {
        int i = size++;
        positions[i] = position;
        sizes[i] = sizeBytes;
        tagsCodes[i] = tagsCode;
        baseOffsets[i] = baseOffset;
        batchCounts[i] = batchCount;
        storeTimestamps[i] = storeTimestampMs;
    }

    private int check(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("slot index " + index + " outside [0, " + size + ")");
        }
        return index;
    }

    @Override
    public String toString() {
        return "SlotBatch{size=" + size + ", baseOffsets=" + Arrays.toString(Arrays.copyOf(baseOffsets, size)) + '}';
    }
}
