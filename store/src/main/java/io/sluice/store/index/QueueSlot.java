package io.sluice.store.index;

/**
 * One consume-queue slot as a reader sees it: the CommitLog record holding the looked-up offset.
 *
 * <p>For a SimpleCQ slot {@code batchCount} is 1, {@code baseOffset} is the offset itself and
 * {@code storeTimestampMs} is {@link #UNKNOWN_STORE_TIME} (the 20-byte slot has no store time; read it from the
 * record). For a BatchCQ slot the record carries {@code batchCount} messages with offsets
 * {@code [baseOffset, baseOffset + batchCount)}; a lookup of any of them returns the whole slot.
 *
 * <p>Immutable; thread-safe.
 *
 * @param position         byte position of the record in the CommitLog
 * @param sizeBytes        the record's total size
 * @param tagsCode         hash of the record's TAGS property, 0 without tags
 * @param baseOffset       queue offset of the record's first message
 * @param batchCount       messages in the record, at least 1
 * @param storeTimestampMs the record's store time, or {@link #UNKNOWN_STORE_TIME} for SimpleCQ
 */
public record QueueSlot(long position, int sizeBytes, long tagsCode, long baseOffset, int batchCount,
                        long storeTimestampMs) implements SlotLookup {

    /** {@code storeTimestampMs} of a SimpleCQ slot, which does not store it. */
    public static final long UNKNOWN_STORE_TIME = -1L;

    @Override
    public SlotReadStatus status() {
        return SlotReadStatus.FOUND;
    }

    /** The first offset after this slot's messages: where the next pull starts. */
    public long nextOffset() {
        return baseOffset + batchCount;
    }
}
