package io.sluice.store.dispatch.pipeline;

import io.sluice.store.log.RecordDescriptor;
import io.sluice.store.log.RecordParser;
import io.sluice.store.log.TopicCache;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * An allocation-free reader for the common record: a well-formed message that is not a BatchCQ inner batch. It
 * applies {@link RecordParser}'s validation (magic, lengths, recomputed size, position, non-negative queue offset)
 * and reads the fields dispatch needs into itself; topics come from a small cache keyed by their bytes and the tags
 * code is hashed straight from ASCII bytes, so a record costs no object at all.
 *
 * <p>It never decides that a record is bad: anything it does not accept (a blank, damage, an inner batch, a CRC to
 * check, non-ASCII tags) it leaves to {@link RecordParser}, which then gives the authoritative answer. So whenever
 * it accepts a record, {@code RecordParser} would have returned VALID with the same fields; the decoder's property
 * test checks exactly that.
 *
 * <p>Not thread-safe: one per decoding thread (in the {@link DecodeScratch}); the fields describe the last record
 * accepted.
 */
final class FastRecordReader {

    private static final ByteOrder BE = RecordDescriptor.BYTE_ORDER;
    private static final int MIN_RECORD_BYTES =
            (int) RecordDescriptor.recordBytes(0, RecordDescriptor.MAGIC_V1, 0, 0, 0);
    /** The property name, as {@code MessageProperties.TAGS}. */
    private static final byte[] TAGS = {'T', 'A', 'G', 'S'};
    private static final byte NAME_VALUE_SEPARATOR = 1;
    private static final byte PROPERTY_SEPARATOR = 2;

    private final TopicCache topics = new TopicCache();

    // The last record accepted.
    String topic;
    int queueId;
    long queueOffset;
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
        if ((flags & RecordDescriptor.INNER_BATCH_FLAG) != 0) {
            return -1; // INNER_NUM / INNER_BASE: left to the parser
        }
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
        long tags = tagsCode(buffer, topicIndex + topicLength + Short.BYTES, propertiesLength);
        if (tags == Long.MIN_VALUE) {
            return -1; // non-ASCII tags: the parser decodes them
        }
        topic = topics.topic(buffer, topicIndex, topicLength);
        queueId = buffer.getInt(index + RecordDescriptor.QUEUE_ID_OFFSET, BE);
        queueOffset = offset;
        sizeBytes = totalSize;
        tagsCode = tags;
        storeTimestampMs = buffer.getLong(index + RecordDescriptor.storeTimestampOffset(flags), BE);
        sysFlag = flags;
        return totalSize;
    }

    /**
     * {@code TAGS.hashCode()} sign-extended, 0 without TAGS, or {@link Long#MIN_VALUE} when the value is not ASCII.
     * Finds the value as {@code MessageProperties.findValue} does: pieces split by 0x02, name and value split at
     * the first 0x01, value non-empty, the last occurrence wins.
     */
    private static long tagsCode(DirectBuffer buffer, int index, int length) {
        int valueStart = -1;
        int valueEnd = -1;
        int end = index + length;
        int start = index;
        while (start < end) {
            int pieceEnd = start;
            int sep = -1;
            while (pieceEnd < end) {
                byte b = buffer.getByte(pieceEnd);
                if (b == PROPERTY_SEPARATOR) {
                    break;
                }
                if (b == NAME_VALUE_SEPARATOR && sep < 0) {
                    sep = pieceEnd;
                }
                pieceEnd++;
            }
            if (sep > start && sep < pieceEnd - 1 && sep - start == TAGS.length && isTags(buffer, start)) {
                valueStart = sep + 1;
                valueEnd = pieceEnd;
            }
            start = pieceEnd + 1;
        }
        if (valueStart < 0) {
            return 0;
        }
        int h = 0;
        for (int i = valueStart; i < valueEnd; i++) {
            byte b = buffer.getByte(i);
            if (b < 0) {
                return Long.MIN_VALUE;
            }
            h = 31 * h + b; // String.hashCode over the chars of an ASCII string
        }
        return h;
    }

    private static boolean isTags(DirectBuffer buffer, int at) {
        for (int i = 0; i < TAGS.length; i++) {
            if (buffer.getByte(at + i) != TAGS[i]) {
                return false;
            }
        }
        return true;
    }
}
