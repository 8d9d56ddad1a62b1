package io.sluice.store.index;

import static io.sluice.store.index.BatchConsumeQueueDescriptor.MAX_BATCH_COUNT;

/**
 * When a BatchCQ record joins its queue's last slot instead of opening a slot of its own
 * (docs/storage.md#shared-batchcq-slots).
 *
 * <p>A record joins when it carries the slot's tags code, the slot stays within
 * {@link BatchConsumeQueueDescriptor#MAX_BATCH_COUNT} messages and its own records within {@code unitMaxBytes}, and
 * either it starts where the
 * slot ends (back to back), or, with {@code spanMaxBytes} set, the slot's bytes from its first record to the end
 * of this one (other queues' records between included) stay within {@code spanMaxBytes}, within one CommitLog
 * segment, span at most {@link #SPAN_MAX_RECORDS} dispatched records and carry at most
 * {@link #SPAN_MAX_MESSAGES} messages. A pull reads a slot's span and walks its record headers, so the record
 * bound is what a pull may cost; the message bound keeps a pull within what a push consumer caches.
 *
 * <p>Immutable; thread-safe.
 *
 * @param unitMaxBytes    the most bytes of the queue's own records a slot holds; 0: a slot per record
 * @param spanMaxBytes    the most bytes a slot spans; 0: records join only back to back
 * @param logSegmentBytes the CommitLog's segment size (0 when {@code spanMaxBytes} is 0)
 */
record SlotSharing(int unitMaxBytes, int spanMaxBytes, int logSegmentBytes) {

    /** The most dispatched records (the slot's own and others) from a slot's first record to its last. */
    static final int SPAN_MAX_RECORDS = 1024;

    /**
     * The most messages a slot grows to by records at a distance. Apache's push consumer stops pulling a queue for
     * 50 ms once it caches 1,000 of its messages ({@code pullThresholdForQueue}), and a pull returns a whole slot:
     * at 100-byte messages, slots of 8 batches (2,000 messages) had every pull stopped (OMB W4, 22:23).
     */
    static final int SPAN_MAX_MESSAGES = 512;

    SlotSharing {
        if (unitMaxBytes < 0 || spanMaxBytes < 0 || logSegmentBytes < 0 || (spanMaxBytes > 0 && logSegmentBytes == 0)) {
            throw new IllegalArgumentException("slot sharing needs unitMaxBytes, spanMaxBytes >= 0 and the log's "
                    + "segment size with a span, were " + unitMaxBytes + ", " + spanMaxBytes + ", " + logSegmentBytes);
        }
    }

    /** Whether a slot's later records may follow it at a distance. */
    boolean spans() {
        return spanMaxBytes > 0 && unitMaxBytes > 0;
    }

    /**
     * Whether a record joins the last slot.
     *
     * @param slotTagsCode    tags code of the slot (of its first record)
     * @param slotPosition    position of the slot's first record
     * @param slotEnd         end of the slot's last record
     * @param slotOwnBytes    bytes of the slot's own records
     * @param slotMessages    messages the slot holds
     * @param slotFirstRecord dispatch sequence number of the slot's first record; negative when unknown
     * @param tagsCode        the record's tags code
     * @param position        the record's position (at or after {@code slotEnd})
     * @param sizeBytes       the record's size
     * @param messages        messages the record carries
     * @param record          the record's dispatch sequence number; negative when unknown
     */
    boolean joins(long slotTagsCode, long slotPosition, long slotEnd, long slotOwnBytes, int slotMessages,
                  long slotFirstRecord, long tagsCode, long position, int sizeBytes, int messages, long record) {
        // A slot has one tags code (consumers filter by it) and one batch count field.
        if (unitMaxBytes == 0 || tagsCode != slotTagsCode || slotMessages + messages > MAX_BATCH_COUNT
                || slotOwnBytes + sizeBytes > unitMaxBytes) {
            return false;
        }
        if (position == slotEnd) {
            return true; // a record never ends at a segment's end (the blank at least follows), so this one is in it
        }
        long end = position + sizeBytes;
        return spans() && position > slotEnd && end - slotPosition <= spanMaxBytes
                && slotMessages + messages <= SPAN_MAX_MESSAGES
                && slotFirstRecord >= 0 && record > slotFirstRecord && record - slotFirstRecord < SPAN_MAX_RECORDS
                && slotPosition / logSegmentBytes == (end - 1) / logSegmentBytes;
    }
}
