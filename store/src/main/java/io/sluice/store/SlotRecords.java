package io.sluice.store;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The records of one queue in the bytes of a BatchCQ slot (docs/storage.md#shared-batchcq-slots). A slot's bytes
 * run from its first record's start to its last record's end; when the slot spans, other queues' records lie
 * between its own, and a pull skips them by their headers (queue id, transaction type, topic).
 *
 * <p>Stateless; thread-safe.
 */
final class SlotRecords {

    private SlotRecords() {
    }

    /**
     * Adds to {@code out} views of the records of {@code topic}-{@code queueId} in {@code slot} whose messages lie
     * in {@code [from, endOffset)}: the record holding {@code from} (the last own record starting at or below it)
     * and every later own record starting below {@code endOffset}. Own records back to back share one view.
     * Records past {@code endOffset} are left out: a growing slot's size may run ahead of its count.
     *
     * @param slot      the slot's bytes, from its position to its limit
     * @param topic     the queue's topic (ASCII, as every valid topic name)
     * @param endOffset the slot's base offset plus its message count
     * @return the queue offset of the first message added; -1 when the slot holds no own record below
     *         {@code endOffset} ({@code out} unchanged)
     */
    static long collect(ByteBuffer slot, String topic, int queueId, long from, long endOffset,
                        List<ByteBuffer> out) {
        int mark = out.size();
        int limit = slot.limit();
        long first = -1;
        long lastTaken = Long.MIN_VALUE;
        int runStart = -1;
        int runEnd = -1;
        int at = slot.position();
        while (limit - at >= RecordDescriptor.MIN_RECORD_BYTES) {
            int totalSize = slot.getInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET);
            if (totalSize < RecordDescriptor.MIN_RECORD_BYTES || totalSize > limit - at) {
                break;
            }
            if (isOwn(slot, at, totalSize, topic, queueId)) {
                long queueOffset = slot.getLong(at + RecordDescriptor.QUEUE_OFFSET_OFFSET);
                if (queueOffset >= endOffset) {
                    break;
                }
                if (queueOffset > lastTaken) {
                    if (queueOffset <= from || first < 0) {
                        // Starts (or restarts, nearer to from) the records returned.
                        out.subList(mark, out.size()).clear();
                        first = queueOffset;
                        runStart = at;
                        runEnd = at + totalSize;
                    } else if (at == runEnd) {
                        runEnd += totalSize;
                    } else {
                        out.add(slot.slice(runStart, runEnd - runStart));
                        runStart = at;
                        runEnd = at + totalSize;
                    }
                    lastTaken = queueOffset;
                }
            }
            at += totalSize;
        }
        if (first >= 0) {
            out.add(slot.slice(runStart, runEnd - runStart));
        }
        return first;
    }

    /** Whether the record at {@code at} is a message of {@code topic}-{@code queueId} that has a consume slot. */
    static boolean isOwn(ByteBuffer buffer, int at, int totalSize, String topic, int queueId) {
        if (buffer.getInt(at + RecordDescriptor.QUEUE_ID_OFFSET) != queueId) {
            return false;
        }
        int magic = buffer.getInt(at + RecordDescriptor.MAGIC_OFFSET);
        int sysFlag = buffer.getInt(at + RecordDescriptor.SYS_FLAG_OFFSET);
        int tx = RecordDescriptor.transactionType(sysFlag);
        if (!RecordDescriptor.isMessageMagic(magic) || tx == RecordDescriptor.TRANSACTION_PREPARED_TYPE
                || tx == RecordDescriptor.TRANSACTION_ROLLBACK_TYPE) {
            return false;
        }
        int end = at + totalSize;
        int bodyLengthAt = at + RecordDescriptor.bodyLengthOffset(sysFlag);
        if (bodyLengthAt + Integer.BYTES > end) {
            return false;
        }
        int bodyBytes = buffer.getInt(bodyLengthAt);
        int topicLengthAt = bodyLengthAt + Integer.BYTES + bodyBytes;
        int lengthBytes = RecordDescriptor.topicLengthBytes(magic);
        if (bodyBytes < 0 || bodyBytes > end - bodyLengthAt || topicLengthAt + lengthBytes > end) {
            return false;
        }
        int topicBytes = lengthBytes == Byte.BYTES ? buffer.get(topicLengthAt) & 0xFF
                : buffer.getShort(topicLengthAt) & 0xFFFF;
        int topicAt = topicLengthAt + lengthBytes;
        if (topicBytes != topic.length() || topicAt + topicBytes > end) {
            return false;
        }
        for (int i = 0; i < topicBytes; i++) {
            if (buffer.get(topicAt + i) != (byte) topic.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
