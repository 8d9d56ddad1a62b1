package io.sluice.broker.schedule;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The fields of one stored CommitLog record ({@link RecordDescriptor} layout), decoded for broker paths that copy
 * a message into another topic: delivery of due delayed messages and consumer send-back.
 *
 * <p>Immutable; thread-safe. {@link #body()} is a read-only view of the record's bytes, not a copy: it is valid as
 * long as the buffer it was decoded from is.
 *
 * @param topic                     the stored topic
 * @param queueId                   the stored queue id
 * @param flag                      the producer's flag
 * @param queueOffset               the stored queue offset (an inner batch's base offset)
 * @param position                  the record's CommitLog position (PHYSICALOFFSET)
 * @param sysFlag                   the stored SYSFLAG
 * @param bornTimestampMs           producer clock at sending
 * @param bornHost                  the producer's address
 * @param storeTimestampMs          broker clock at storing
 * @param storeHost                 the broker's address
 * @param reconsumeTimes            times the message was reconsumed
 * @param preparedTransactionOffset transactions only
 * @param body                      the stored body (compressed when SYSFLAG says so), read-only
 * @param propertiesText            the encoded properties string
 */
public record StoredMessage(String topic, int queueId, int flag, long queueOffset, long position, int sysFlag,
                            long bornTimestampMs, InetSocketAddress bornHost, long storeTimestampMs,
                            InetSocketAddress storeHost, int reconsumeTimes, long preparedTransactionOffset,
                            ByteBuffer body, String propertiesText) {

    /**
     * Decodes the record that starts at {@code record.position()}; the buffer is not moved.
     *
     * @throws IllegalArgumentException naming the field when the bytes are not a well-formed record
     */
    public static StoredMessage decode(ByteBuffer record) {
        ByteBuffer r = record.duplicate().order(RecordDescriptor.BYTE_ORDER);
        int base = r.position();
        int available = r.remaining();
        if (available < RecordDescriptor.BORN_HOST_OFFSET) {
            throw new IllegalArgumentException("a record needs more than " + available + " bytes");
        }
        int totalSize = r.getInt(base + RecordDescriptor.TOTAL_SIZE_OFFSET);
        int magic = r.getInt(base + RecordDescriptor.MAGIC_OFFSET);
        if (!RecordDescriptor.isMessageMagic(magic)) {
            throw new IllegalArgumentException("MAGICCODE 0x" + Integer.toHexString(magic) + " is not a message");
        }
        if (totalSize > available || totalSize < RecordDescriptor.BORN_HOST_OFFSET) {
            throw new IllegalArgumentException("TOTALSIZE " + totalSize + " does not fit the " + available
                    + " bytes given");
        }
        int sysFlag = r.getInt(base + RecordDescriptor.SYS_FLAG_OFFSET);
        int bodyLengthAt = base + RecordDescriptor.bodyLengthOffset(sysFlag);
        int end = base + totalSize;
        require(bodyLengthAt + Integer.BYTES <= end, "SYSFLAG host fields", totalSize);
        int bodyLength = r.getInt(bodyLengthAt);
        int bodyAt = bodyLengthAt + Integer.BYTES;
        require(bodyLength >= 0 && (long) bodyAt + bodyLength <= end, "BODYLENGTH " + bodyLength, totalSize);
        int topicLengthAt = bodyAt + bodyLength;
        int topicLengthBytes = RecordDescriptor.topicLengthBytes(magic);
        require(topicLengthAt + topicLengthBytes <= end, "TOPICLENGTH", totalSize);
        int topicLength = topicLengthBytes == Short.BYTES ? r.getShort(topicLengthAt) : r.get(topicLengthAt);
        int topicAt = topicLengthAt + topicLengthBytes;
        require(topicLength >= 0 && (long) topicAt + topicLength + Short.BYTES <= end, "TOPICLENGTH " + topicLength,
                totalSize);
        int propertiesLength = r.getShort(topicAt + topicLength);
        int propertiesAt = topicAt + topicLength + Short.BYTES;
        require(propertiesLength >= 0 && propertiesAt + propertiesLength == end,
                "PROPERTIESLENGTH " + propertiesLength, totalSize);

        int bornHostAt = base + RecordDescriptor.BORN_HOST_OFFSET;
        int storeHostAt = base + RecordDescriptor.storeHostOffset(sysFlag);
        return new StoredMessage(
                text(r, topicAt, topicLength),
                r.getInt(base + RecordDescriptor.QUEUE_ID_OFFSET),
                r.getInt(base + RecordDescriptor.FLAG_OFFSET),
                r.getLong(base + RecordDescriptor.QUEUE_OFFSET_OFFSET),
                r.getLong(base + RecordDescriptor.PHYSICAL_OFFSET_OFFSET),
                sysFlag,
                r.getLong(base + RecordDescriptor.BORN_TIMESTAMP_OFFSET),
                host(r, bornHostAt, RecordDescriptor.bornHostBytes(sysFlag), "BORNHOST"),
                r.getLong(base + RecordDescriptor.storeTimestampOffset(sysFlag)),
                host(r, storeHostAt, RecordDescriptor.storeHostBytes(sysFlag), "STOREHOST"),
                r.getInt(base + RecordDescriptor.reconsumeTimesOffset(sysFlag)),
                r.getLong(base + RecordDescriptor.preparedTransactionOffsetOffset(sysFlag)),
                r.duplicate().limit(bodyAt + bodyLength).position(bodyAt).slice().asReadOnlyBuffer(),
                text(r, propertiesAt, propertiesLength));
    }

    /** The value of a property, or {@code null} when absent. */
    public String property(String name) {
        return MessageProperties.find(propertiesText, name);
    }

    /** The offset message id of this record (store host + position), as clients compute it. */
    public String offsetMsgId() {
        return MessageIdDescriptor.offsetMsgId(storeHost, position);
    }

    /** True for a BatchCQ inner-batch record (its body holds several messages). */
    public boolean isInnerBatch() {
        return (sysFlag & RecordDescriptor.INNER_BATCH_FLAG) != 0;
    }

    private static void require(boolean condition, String field, int totalSize) {
        if (!condition) {
            throw new IllegalArgumentException(field + " does not fit the record's TOTALSIZE " + totalSize);
        }
    }

    private static String text(ByteBuffer r, int at, int length) {
        byte[] bytes = new byte[length];
        r.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static InetSocketAddress host(ByteBuffer r, int at, int width, String field) {
        byte[] address = new byte[width - Integer.BYTES];
        r.get(at, address);
        int port = r.getInt(at + address.length);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), port);
        } catch (UnknownHostException | IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " holds an invalid address or port " + port, e);
        }
    }
}
