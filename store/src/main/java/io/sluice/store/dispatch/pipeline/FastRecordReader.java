package io.sluice.store.dispatch.pipeline;

import io.sluice.format.RecordDescriptor;
import io.sluice.store.log.RecordParser;
import io.sluice.store.log.TopicCache;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * An allocation-free reader for the common record: a well-formed message or BatchCQ inner batch. It applies
 * {@link RecordParser}'s validation (magic, lengths, recomputed size, position, non-negative queue offset, an inner
 * batch's INNER_NUM and INNER_BASE) and reads the fields dispatch needs into itself; topics come from a small cache
 * keyed by their bytes and the tags code is {@link RecordParser#tagsCode}, so a record with ASCII tags costs no
 * object at all.
 *
 * <p>It never decides that a record is bad: anything it does not accept (a blank, damage, a CRC to check) it leaves
 * to {@link RecordParser}, which then gives the authoritative answer. So whenever it accepts a record,
 * {@code RecordParser} would have returned VALID with the same fields; the decoder's property test checks exactly
 * that.
 *
 * <p>Not thread-safe: one per decoding thread (in the {@link DecodeScratch}); the fields describe the last record
 * accepted.
 */
final class FastRecordReader {

    private static final ByteOrder BE = RecordDescriptor.BYTE_ORDER;
    private static final int MIN_RECORD_BYTES =
            (int) RecordDescriptor.recordBytes(0, RecordDescriptor.MAGIC_V1, 0, 0, 0);

    private final TopicCache topics = new TopicCache();
    private final long[] innerBatchScratch = new long[RecordParser.INNER_BATCH_SLOTS];

    // The last record accepted.
    String topic;
    int queueId;
    long queueOffset;
    /** INNER_NUM for an inner batch, else 1. */
    int batchCount;
    int sizeBytes;
    long tagsCode;
    long storeTimestampMs;
    int sysFlag;

    /**
     * Reads the record at {@code buffer[index]}, read at log position {@code position}.
     *
     * @param readableBytes     bytes from {@code index} to the end of the chunk
     * @param bytesToSegmentEnd bytes from {@code index} to the end of the segment
     * @return the record's size if it was accepted (fields set), or -1: ask {@link RecordParser}
     */
    int read(DirectBuffer buffer, int index, int readableBytes, int bytesToSegmentEnd, long position) {
        if (readableBytes < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
            return -1;
        }
        int totalSize = buffer.getInt(index + RecordDescriptor.TOTAL_SIZE_OFFSET, BE);
        int magic = buffer.getInt(index + RecordDescriptor.MAGIC_OFFSET, BE);
        if (!RecordDescriptor.isMessageMagic(magic) || totalSize < MIN_RECORD_BYTES || totalSize > bytesToSegmentEnd
                || totalSize > readableBytes) {
            return -1;
        }
        int flags = buffer.getInt(index + RecordDescriptor.SYS_FLAG_OFFSET, BE);
        int bodyLengthOffset = RecordDescriptor.bodyLengthOffset(flags);
        int topicLengthBytes = RecordDescriptor.topicLengthBytes(magic);
        int fixedBytes = bodyLengthOffset + Integer.BYTES + topicLengthBytes;
        if (fixedBytes > totalSize) {
            return -1;
        }
        int bodyLength = buffer.getInt(index + bodyLengthOffset, BE);
        if (bodyLength < 0 || bodyLength > totalSize - fixedBytes) {
            return -1;
        }
        int topicLengthIndex = index + bodyLengthOffset + Integer.BYTES + bodyLength;
        int topicLength = magic == RecordDescriptor.MAGIC_V2
                ? buffer.getShort(topicLengthIndex, BE) : buffer.getByte(topicLengthIndex);
        int topicIndex = topicLengthIndex + topicLengthBytes;
        if (topicLength < 0 || (long) topicIndex + topicLength + Short.BYTES > index + totalSize) {
            return -1;
        }
        int propertiesLength = buffer.getShort(topicIndex + topicLength, BE);
        if (propertiesLength < 0
                || RecordDescriptor.recordBytes(flags, magic, bodyLength, topicLength, propertiesLength) != totalSize
                || buffer.getLong(index + RecordDescriptor.PHYSICAL_OFFSET_OFFSET, BE) != position) {
            return -1;
        }
        long offset = buffer.getLong(index + RecordDescriptor.QUEUE_OFFSET_OFFSET, BE);
        if (offset < 0) {
            return -1;
        }
        int propertiesIndex = topicIndex + topicLength + Short.BYTES;
        boolean innerBatch = (flags & RecordDescriptor.INNER_BATCH_FLAG) != 0;
        int batch = 1;
        if (innerBatch) {
            batch = RecordParser.innerBatchCount(buffer, propertiesIndex, propertiesLength, offset, innerBatchScratch);
            if (batch < 0) {
                return -1;
            }
        }
        topic = topics.topic(buffer, topicIndex, topicLength);
        queueId = buffer.getInt(index + RecordDescriptor.QUEUE_ID_OFFSET, BE);
        queueOffset = offset;
        batchCount = batch;
        sizeBytes = totalSize;
        tagsCode = innerBatch
                ? RecordParser.innerBatchTagsCode(buffer, innerBatchScratch) // found in the same pass
                : RecordParser.tagsCode(buffer, propertiesIndex, propertiesLength);
        storeTimestampMs = buffer.getLong(index + RecordDescriptor.storeTimestampOffset(flags), BE);
        sysFlag = flags;
        return totalSize;
    }
}
