package io.sluice.store.log;

import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.DispatchEntry;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads one CommitLog record ({@link RecordDescriptor}) and says what it is, without trusting any length
 * before checking it: the bytes may be a torn write, stale data or garbage.
 *
 * <p>A zero TOTALSIZE is NO_MORE_DATA, whatever follows it: writers store TOTALSIZE last (see
 * {@link RecordDescriptor}), so it marks a position where no record was published, e.g. one whose copy a crash
 * interrupted. A record is VALID when its magic is v1/v2, every length field fits inside TOTALSIZE, the size recomputed
 * from the fields equals TOTALSIZE, PHYSICALOFFSET equals the position it was read at, and (when asked) the
 * body CRC matches. For a valid record it fills a {@link DispatchEntry}: tagsCode is {@code TAGS.hashCode()}
 * sign-extended (0 without TAGS); queueOffset is QUEUEOFFSET and batchCount is 1, except for an INNER_BATCH
 * record, whose batchCount is INNER_NUM. An INNER_BATCH record is only VALID with a decimal INNER_NUM of at least
 * 1 and an INNER_BASE equal to QUEUEOFFSET, as every writer stores them: without them its tail (topic and
 * properties, which BODYCRC does not cover) was never written completely.
 *
 * <p>Stateless; thread-safe.
 */
public final class RecordParser {

    private static final ByteOrder BE = RecordDescriptor.BYTE_ORDER;
    /** Smallest possible message record: IPv4 hosts, empty body, topic and properties. */
    static final int MIN_RECORD_BYTES = (int) RecordDescriptor.recordBytes(0, RecordDescriptor.MAGIC_V1, 0, 0, 0);
    private static final byte[] TAGS = MessageProperties.nameBytes(MessageProperties.TAGS);
    private static final byte[] INNER_NUM = MessageProperties.nameBytes(MessageProperties.INNER_NUM);
    private static final byte[] INNER_BASE = MessageProperties.nameBytes(MessageProperties.INNER_BASE);
    /** What an inner batch's properties are searched for, in one pass; slot k of the scratch gets name k. */
    private static final MessageProperties.NameSet INNER_BATCH_NAMES =
            new MessageProperties.NameSet(TAGS, INNER_NUM, INNER_BASE);
    private static final int TAGS_SLOT = 0;
    private static final int INNER_NUM_SLOT = 1;
    private static final int INNER_BASE_SLOT = 2;
    /** Length of the scratch array {@link #innerBatchCount} takes. */
    public static final int INNER_BATCH_SLOTS = 3;
    private static final ThreadLocal<CRC32> CRC = ThreadLocal.withInitial(CRC32::new);

    private RecordParser() {
    }

    /**
     * Parses the record that starts at {@code buffer.position()}, read at log position {@code position}; the
     * bytes up to the buffer's limit are taken as both readable and the rest of the segment.
     */
    public static ScanResult parse(ByteBuffer buffer, long position, boolean checkCrc) {
        UnsafeBuffer view = new UnsafeBuffer(buffer, buffer.position(), buffer.remaining());
        return parse(view, 0, buffer.remaining(), buffer.remaining(), position, checkCrc);
    }

    /**
     * Parses the record at {@code buffer[index]}.
     *
     * @param readableBytes     bytes from {@code index} that are written (published) and may be read
     * @param bytesToSegmentEnd bytes from {@code index} to the end of the segment
     * @param position          the log position of {@code buffer[index]}
     * @param checkCrc          verify BODYCRC
     */
    public static ScanResult parse(DirectBuffer buffer, int index, int readableBytes, int bytesToSegmentEnd,
                                   long position, boolean checkCrc) {
        return parse(buffer, index, readableBytes, bytesToSegmentEnd, position, checkCrc, null);
    }

    /**
     * {@link #parse(DirectBuffer, int, int, int, long, boolean)}, taking the topic string from {@code topics} (the
     * caller's, not thread-safe) when it is not null, so that a walk over many records of a few topics decodes each
     * topic once.
     */
    public static ScanResult parse(DirectBuffer buffer, int index, int readableBytes, int bytesToSegmentEnd,
                                   long position, boolean checkCrc, TopicCache topics) {
        if (readableBytes < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
            return ScanResult.noMoreData(position);
        }
        int totalSize = buffer.getInt(index + RecordDescriptor.TOTAL_SIZE_OFFSET, BE);
        if (totalSize == 0) {
            // TOTALSIZE is stored last: whatever follows it is a record whose copy has not finished (or never will).
            return ScanResult.noMoreData(position);
        }
        int magic = buffer.getInt(index + RecordDescriptor.MAGIC_OFFSET, BE);
        if (magic == RecordDescriptor.MAGIC_BLANK) {
            if (totalSize != bytesToSegmentEnd) {
                return ScanResult.corrupt(position, "blank record TOTALSIZE " + totalSize + " but "
                        + bytesToSegmentEnd + " bytes are left in the segment");
            }
            return ScanResult.endOfSegment(position, totalSize, position + totalSize);
        }
        if (!RecordDescriptor.isMessageMagic(magic)) {
            return ScanResult.corrupt(position, "illegal magic 0x" + Integer.toHexString(magic));
        }
        if (totalSize < MIN_RECORD_BYTES || totalSize > bytesToSegmentEnd) {
            return ScanResult.corrupt(position, "TOTALSIZE " + totalSize + " outside [" + MIN_RECORD_BYTES + ", "
                    + bytesToSegmentEnd + "]");
        }
        if (totalSize > readableBytes) {
            return ScanResult.noMoreData(position);
        }
        return parseMessage(buffer, index, totalSize, magic, position, checkCrc, topics);
    }

    private static ScanResult parseMessage(DirectBuffer buffer, int index, int totalSize, int magic, long position,
                                           boolean checkCrc, TopicCache topics) {
        int sysFlag = buffer.getInt(index + RecordDescriptor.SYS_FLAG_OFFSET, BE);
        int bodyLengthOffset = RecordDescriptor.bodyLengthOffset(sysFlag);
        int topicLengthBytes = RecordDescriptor.topicLengthBytes(magic);
        if (bodyLengthOffset + Integer.BYTES + topicLengthBytes > totalSize) {
            return ScanResult.corrupt(position, "SYSFLAG 0x" + Integer.toHexString(sysFlag)
                    + " host fields do not fit TOTALSIZE " + totalSize);
        }
        int bodyLength = buffer.getInt(index + bodyLengthOffset, BE);
        int bodyIndex = index + bodyLengthOffset + Integer.BYTES;
        if (bodyLength < 0 || bodyLength > totalSize - (bodyLengthOffset + Integer.BYTES + topicLengthBytes)) {
            return ScanResult.corrupt(position, "BODYLENGTH " + bodyLength + " does not fit TOTALSIZE " + totalSize);
        }
        int topicLengthIndex = bodyIndex + bodyLength;
        int topicLength = magic == RecordDescriptor.MAGIC_V2
                ? buffer.getShort(topicLengthIndex, BE) : buffer.getByte(topicLengthIndex);
        int topicIndex = topicLengthIndex + topicLengthBytes;
        int end = index + totalSize;
        if (topicLength < 0 || (long) topicIndex + topicLength + Short.BYTES > end) {
            return ScanResult.corrupt(position, "TOPICLENGTH " + topicLength + " does not fit TOTALSIZE "
                    + totalSize);
        }
        int propertiesLength = buffer.getShort(topicIndex + topicLength, BE);
        int propertiesIndex = topicIndex + topicLength + Short.BYTES;
        long computed = RecordDescriptor.recordBytes(sysFlag, magic, bodyLength, topicLength, propertiesLength);
        if (propertiesLength < 0 || computed != totalSize) {
            return ScanResult.corrupt(position, "TOTALSIZE " + totalSize + " but the fields add up to " + computed);
        }
        long physicalOffset = buffer.getLong(index + RecordDescriptor.PHYSICAL_OFFSET_OFFSET, BE);
        if (physicalOffset != position) {
            return ScanResult.corrupt(position, "PHYSICALOFFSET " + physicalOffset + " read at position "
                    + position);
        }
        if (checkCrc) {
            int stored = buffer.getInt(index + RecordDescriptor.BODY_CRC_OFFSET, BE);
            int actual = crc(buffer, bodyIndex, bodyLength);
            if (stored != actual) {
                return ScanResult.corrupt(position, "BODYCRC " + stored + " but the body's CRC is " + actual);
            }
        }
        long queueOffset = buffer.getLong(index + RecordDescriptor.QUEUE_OFFSET_OFFSET, BE);
        int batchCount = 1;
        long[] innerBatch = null;
        if ((sysFlag & RecordDescriptor.INNER_BATCH_FLAG) != 0) {
            innerBatch = new long[INNER_BATCH_SLOTS];
            // Every inner batch is written with both properties, INNER_BASE equal to QUEUEOFFSET. Without them
            // the record is torn (a crash stopped the copy after the body, which BODYCRC covers): taking it for a
            // one-message record would restart its queue inside the batch.
            batchCount = innerBatchCount(buffer, propertiesIndex, propertiesLength, queueOffset, innerBatch);
            if (batchCount < 0) {
                return ScanResult.corrupt(position, "INNER_BATCH record with INNER_NUM "
                        + propertyAsLong(buffer, propertiesIndex, propertiesLength, INNER_NUM) + " and INNER_BASE "
                        + propertyAsLong(buffer, propertiesIndex, propertiesLength, INNER_BASE) + " (QUEUEOFFSET "
                        + queueOffset + "; -1 = missing or not a number)");
            }
        }
        if (queueOffset < 0) {
            return ScanResult.corrupt(position, "QUEUEOFFSET " + queueOffset + " is negative");
        }
        String topic = topics != null ? topics.topic(buffer, topicIndex, topicLength)
                : buffer.getStringWithoutLengthUtf8(topicIndex, topicLength);
        long tagsCode = innerBatch != null ? innerBatchTagsCode(buffer, innerBatch)
                : tagsCode(buffer, propertiesIndex, propertiesLength);
        long storeTimestampMs = buffer.getLong(index + RecordDescriptor.storeTimestampOffset(sysFlag), BE);
        int queueId = buffer.getInt(index + RecordDescriptor.QUEUE_ID_OFFSET, BE);
        return ScanResult.valid(new DispatchEntry(topic, queueId, queueOffset, batchCount, position, totalSize,
                tagsCode, storeTimestampMs, sysFlag));
    }

    /**
     * The tags code of a record whose properties are {@code buffer[index, index + length)}: {@code TAGS.hashCode()}
     * sign-extended, 0 without TAGS. Computed from the bytes without a string when the value is ASCII.
     */
    public static long tagsCode(DirectBuffer buffer, int index, int length) {
        return tagsCodeOf(buffer, MessageProperties.findValue(buffer, index, length, TAGS));
    }

    /** {@link #tagsCode} from the TAGS lookup result. */
    private static long tagsCodeOf(DirectBuffer buffer, long tags) {
        if (tags == MessageProperties.NOT_FOUND) {
            return 0;
        }
        int valueIndex = MessageProperties.valueIndex(tags);
        int valueLength = MessageProperties.valueLength(tags);
        int h = 0;
        for (int i = valueIndex; i < valueIndex + valueLength; i++) {
            byte b = buffer.getByte(i);
            if (b < 0) {
                return buffer.getStringWithoutLengthUtf8(valueIndex, valueLength).hashCode();
            }
            h = 31 * h + b; // an ASCII byte is its char
        }
        return h;
    }

    /**
     * The message count of an INNER_BATCH record whose properties are {@code buffer[index, index + length)}: its
     * INNER_NUM, or -1 unless INNER_NUM is a decimal in [1, 2^31 - 1] and INNER_BASE equals {@code queueOffset}.
     * One pass over the properties, which also finds TAGS: {@link #innerBatchTagsCode} then reads it.
     *
     * @param scratch {@value #INNER_BATCH_SLOTS} longs, owned by the caller
     */
    public static int innerBatchCount(DirectBuffer buffer, int index, int length, long queueOffset, long[] scratch) {
        MessageProperties.findValues(buffer, index, length, INNER_BATCH_NAMES, scratch);
        long num = decimal(buffer, scratch[INNER_NUM_SLOT]);
        if (num < 1 || num > Integer.MAX_VALUE || decimal(buffer, scratch[INNER_BASE_SLOT]) != queueOffset) {
            return -1;
        }
        return (int) num;
    }

    /** The tags code of the record whose properties {@link #innerBatchCount} last searched with {@code scratch}. */
    public static long innerBatchTagsCode(DirectBuffer buffer, long[] scratch) {
        return tagsCodeOf(buffer, scratch[TAGS_SLOT]);
    }

    /** A non-negative decimal property value, or -1 when absent or not a number. */
    private static long propertyAsLong(DirectBuffer buffer, int index, int length, byte[] name) {
        return decimal(buffer, MessageProperties.findValue(buffer, index, length, name));
    }

    /** The non-negative decimal value of a lookup result, or -1 when not found or not a number. */
    private static long decimal(DirectBuffer buffer, long found) {
        if (found == MessageProperties.NOT_FOUND) {
            return -1;
        }
        int at = MessageProperties.valueIndex(found);
        int len = MessageProperties.valueLength(found);
        if (len > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < len; i++) {
            int digit = buffer.getByte(at + i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    /** Masked CRC32 of {@code length} bytes at {@code buffer[index]}. */
    static int crc(DirectBuffer buffer, int index, int length) {
        CRC32 crc = CRC.get();
        crc.reset();
        ByteBuffer bb = buffer.byteBuffer();
        byte[] array = buffer.byteArray();
        if (array != null) {
            crc.update(array, buffer.wrapAdjustment() + index, length);
        } else if (bb != null) {
            // Direct buffer: the adjustment is relative to the ByteBuffer's own address.
            int from = buffer.wrapAdjustment() + index;
            crc.update(bb.duplicate().clear().position(from).limit(from + length));
        } else {
            for (int i = 0; i < length; i++) {
                crc.update(buffer.getByte(index + i));
            }
        }
        return (int) crc.getValue() & RecordDescriptor.BODY_CRC_MASK;
    }
}
