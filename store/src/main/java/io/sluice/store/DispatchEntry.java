package io.sluice.store;

/**
 * What dispatch (reput) learns from one CommitLog record and writes into its queue's index.
 *
 * <p>For a plain message {@code batchCount == 1} and {@code queueOffset} is the message's own offset. For a
 * BatchCQ inner batch, {@code queueOffset} is the base offset and {@code batchCount} the number of inner
 * messages; the queue advances by {@code batchCount}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param topic            the topic
 * @param queueId          the queue id within the topic
 * @param queueOffset      logical offset (base offset for an inner batch)
 * @param batchCount       messages carried by the record, at least 1
 * @param position         byte position of the record's first byte in the CommitLog
 * @param sizeBytes        the record's TOTALSIZE
 * @param tagsCode         hash of the TAGS property ({@code String.hashCode()}, sign-extended), 0 without tags
 * @param storeTimestampMs the record's STORETIMESTAMP
 * @param sysFlag          the record's SYSFLAG
 */
public record DispatchEntry(
        String topic,
        int queueId,
        long queueOffset,
        int batchCount,
        long position,
        int sizeBytes,
        long tagsCode,
        long storeTimestampMs,
        int sysFlag) {

    public DispatchEntry {
        if (batchCount < 1) {
            throw new IllegalArgumentException("batchCount must be >= 1, was " + batchCount);
        }
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("sizeBytes must be > 0, was " + sizeBytes);
        }
        if (queueOffset < 0 || position < 0) {
            throw new IllegalArgumentException(
                    "queueOffset and position must be >= 0, were " + queueOffset + " and " + position);
        }
    }

    /** The first offset after this entry in its queue. */
    public long nextQueueOffset() {
        return queueOffset + batchCount;
    }
}
