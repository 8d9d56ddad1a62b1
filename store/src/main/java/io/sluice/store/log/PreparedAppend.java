package io.sluice.store.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A validated draft with everything that does not depend on its position already computed (body CRCs, topic
 * and properties bytes, sizes), so that the append lock is held only to assign offsets and copy bytes.
 * Produced by {@link DraftEncoder}.
 *
 * <p>Thread-safety: created by the appending thread, then used under the append lock by the same thread.
 */
abstract class PreparedAppend {

    private static final ByteOrder BE = RecordDescriptor.BYTE_ORDER;
    private static final byte[] NO_BYTES = new byte[0];

    final String topic;
    final int queueId;
    final boolean assignsQueueOffset;
    final boolean waitsForFlush;
    final int messageCount;
    private final byte[] topicBytes;
    private final int magic;
    private final int sysFlag;
    private final long bornTimestampMs;
    private final byte[] bornHostBytes;
    private final int reconsumeTimes;
    private final long preparedTransactionOffset;

    PreparedAppend(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes,
                   boolean assignsQueueOffset, boolean waitsForFlush, int messageCount) {
        this.topic = draft.topic();
        this.queueId = draft.queueId();
        this.topicBytes = topicBytes;
        this.magic = RecordDescriptor.magicForTopic(topicBytes.length);
        this.sysFlag = sysFlag;
        this.bornTimestampMs = draft.bornTimestampMs();
        this.bornHostBytes = bornHostBytes;
        this.reconsumeTimes = draft.reconsumeTimes();
        this.preparedTransactionOffset = draft.preparedTransactionOffset();
        this.assignsQueueOffset = assignsQueueOffset;
        this.waitsForFlush = waitsForFlush;
        this.messageCount = messageCount;
    }

    /** Records this append writes. */
    abstract int recordCount();

    /** Bytes of all records together once the base queue offset is known. */
    abstract int bytes(long baseQueueOffset);

    /**
     * Writes the records at {@code dst[index]}, which is log position {@code position}.
     *
     * @param positionsOut receives the position of every record written (length {@link #recordCount()})
     */
    abstract void write(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                        byte[] storeHostBytes, long[] positionsOut);

    /** TOTALSIZE of one record of this append. */
    final int recordBytes(int bodyLength, int propertiesLength) {
        return (int) RecordDescriptor.recordBytes(sysFlag, magic, bodyLength, topicBytes.length, propertiesLength);
    }

    /** Writes one record; returns its size. */
    final int writeRecord(UnsafeBuffer dst, int index, int bodyCrc, int flag, long queueOffset, long position,
                          long storeTimestampMs, byte[] storeHostBytes, ByteBuffer body, int bodyIndex,
                          int bodyLength, ByteBuffer properties, int propertiesIndex, int propertiesLength,
                          byte[] propertiesSuffix) {
        int totalSize = recordBytes(bodyLength, propertiesLength + propertiesSuffix.length);
        dst.putInt(index + RecordDescriptor.TOTAL_SIZE_OFFSET, totalSize, BE);
        dst.putInt(index + RecordDescriptor.MAGIC_OFFSET, magic, BE);
        dst.putInt(index + RecordDescriptor.BODY_CRC_OFFSET, bodyCrc, BE);
        dst.putInt(index + RecordDescriptor.QUEUE_ID_OFFSET, queueId, BE);
        dst.putInt(index + RecordDescriptor.FLAG_OFFSET, flag, BE);
        dst.putLong(index + RecordDescriptor.QUEUE_OFFSET_OFFSET, queueOffset, BE);
        dst.putLong(index + RecordDescriptor.PHYSICAL_OFFSET_OFFSET, position, BE);
        dst.putInt(index + RecordDescriptor.SYS_FLAG_OFFSET, sysFlag, BE);
        dst.putLong(index + RecordDescriptor.BORN_TIMESTAMP_OFFSET, bornTimestampMs, BE);
        int at = index + RecordDescriptor.BORN_HOST_OFFSET;
        dst.putBytes(at, bornHostBytes);
        at += bornHostBytes.length;
        dst.putLong(at, storeTimestampMs, BE);
        at += Long.BYTES;
        dst.putBytes(at, storeHostBytes);
        at += storeHostBytes.length;
        dst.putInt(at, reconsumeTimes, BE);
        at += Integer.BYTES;
        dst.putLong(at, preparedTransactionOffset, BE);
        at += Long.BYTES;
        dst.putInt(at, bodyLength, BE);
        at += Integer.BYTES;
        dst.putBytes(at, body, bodyIndex, bodyLength);
        at += bodyLength;
        if (magic == RecordDescriptor.MAGIC_V2) {
            dst.putShort(at, (short) topicBytes.length, BE);
            at += Short.BYTES;
        } else {
            dst.putByte(at, (byte) topicBytes.length);
            at += Byte.BYTES;
        }
        dst.putBytes(at, topicBytes);
        at += topicBytes.length;
        dst.putShort(at, (short) (propertiesLength + propertiesSuffix.length), BE);
        at += Short.BYTES;
        dst.putBytes(at, properties, propertiesIndex, propertiesLength);
        at += propertiesLength;
        dst.putBytes(at, propertiesSuffix);
        return totalSize;
    }

    /** A plain message: one record. */
    static final class Single extends PreparedAppend {
        private final ByteBuffer body;
        private final int bodyCrc;
        private final int flag;
        private final ByteBuffer properties;

        Single(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean assignsQueueOffset,
               boolean waitsForFlush, byte[] propertiesBytes) {
            super(draft, topicBytes, sysFlag, bornHostBytes, assignsQueueOffset, waitsForFlush, 1);
            this.body = draft.body();
            this.bodyCrc = RecordDescriptor.bodyCrc(body);
            this.flag = draft.flag();
            this.properties = ByteBuffer.wrap(propertiesBytes);
        }

        @Override
        int recordCount() {
            return 1;
        }

        @Override
        int bytes(long baseQueueOffset) {
            return recordBytes(body.remaining(), properties.capacity());
        }

        @Override
        void write(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                   byte[] storeHostBytes, long[] positionsOut) {
            writeRecord(dst, index, bodyCrc, flag, baseQueueOffset, position, storeTimestampMs, storeHostBytes,
                    body, body.position(), body.remaining(), properties, 0, properties.capacity(), NO_BYTES);
            positionsOut[0] = position;
        }
    }

    /** A BatchCQ inner batch: one record whose properties end with INNER_NUM and INNER_BASE. */
    static final class InnerBatch extends PreparedAppend {
        private final ByteBuffer body;
        private final int bodyCrc;
        private final int flag;
        /** The draft's properties, terminated, then {@code INNER_NUM 0x01 n 0x02 INNER_BASE 0x01}. */
        private final ByteBuffer propertiesPrefix;

        InnerBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean waitsForFlush,
                   int innerNum, byte[] propertiesPrefix) {
            super(draft, topicBytes, sysFlag, bornHostBytes, true, waitsForFlush, innerNum);
            this.body = draft.body();
            this.bodyCrc = RecordDescriptor.bodyCrc(body);
            this.flag = draft.flag();
            this.propertiesPrefix = ByteBuffer.wrap(propertiesPrefix);
        }

        /** Builds the fixed part of the properties: everything up to the INNER_BASE value. */
        static byte[] propertiesPrefix(String text, int innerNum) {
            StringBuilder sb = new StringBuilder(text.length() + 40);
            MessageProperties.appendTerminated(sb, text);
            sb.append(MessageProperties.INNER_NUM).append(MessageProperties.NAME_VALUE_SEPARATOR).append(innerNum)
                    .append(MessageProperties.PROPERTY_SEPARATOR)
                    .append(MessageProperties.INNER_BASE).append(MessageProperties.NAME_VALUE_SEPARATOR);
            return sb.toString().getBytes(StandardCharsets.UTF_8);
        }

        /** Longest suffix: 19 digits and the final 0x02. */
        static final int MAX_SUFFIX_BYTES = 20;

        private static byte[] suffix(long baseQueueOffset) {
            String digits = Long.toString(baseQueueOffset);
            byte[] out = new byte[digits.length() + 1];
            for (int i = 0; i < digits.length(); i++) {
                out[i] = (byte) digits.charAt(i);
            }
            out[digits.length()] = MessageProperties.PROPERTY_SEPARATOR;
            return out;
        }

        private static int suffixBytes(long baseQueueOffset) {
            int digits = 1;
            for (long v = baseQueueOffset; v >= 10; v /= 10) {
                digits++;
            }
            return digits + 1;
        }

        @Override
        int recordCount() {
            return 1;
        }

        @Override
        int bytes(long baseQueueOffset) {
            return recordBytes(body.remaining(), propertiesPrefix.capacity() + suffixBytes(baseQueueOffset));
        }

        @Override
        void write(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                   byte[] storeHostBytes, long[] positionsOut) {
            writeRecord(dst, index, bodyCrc, flag, baseQueueOffset, position, storeTimestampMs, storeHostBytes,
                    body, body.position(), body.remaining(), propertiesPrefix, 0, propertiesPrefix.capacity(),
                    suffix(baseQueueOffset));
            positionsOut[0] = position;
        }
    }

    /** A batch unpacked into one record per entry, written together. */
    static final class UnpackedBatch extends PreparedAppend {
        private final ByteBuffer batch;
        private final BatchBodyDescriptor.Entry[] entries;
        private final int[] bodyCrcs;
        private final int totalBytes;

        UnpackedBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean waitsForFlush,
                      BatchBodyDescriptor.Entry[] entries) {
            super(draft, topicBytes, sysFlag, bornHostBytes, true, waitsForFlush, entries.length);
            this.batch = draft.body();
            this.entries = entries;
            this.bodyCrcs = new int[entries.length];
            long total = 0;
            for (int i = 0; i < entries.length; i++) {
                BatchBodyDescriptor.Entry e = entries[i];
                bodyCrcs[i] = RecordDescriptor.bodyCrc(batch, e.bodyIndex(), e.bodyLength());
                total += recordBytes(e.bodyLength(), e.propertiesLength());
            }
            this.totalBytes = (int) Math.min(Integer.MAX_VALUE, total);
        }

        @Override
        int recordCount() {
            return entries.length;
        }

        @Override
        int bytes(long baseQueueOffset) {
            return totalBytes;
        }

        @Override
        void write(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                   byte[] storeHostBytes, long[] positionsOut) {
            int at = index;
            long pos = position;
            for (int i = 0; i < entries.length; i++) {
                BatchBodyDescriptor.Entry e = entries[i];
                positionsOut[i] = pos;
                int size = writeRecord(dst, at, bodyCrcs[i], e.flag(), baseQueueOffset + i, pos, storeTimestampMs,
                        storeHostBytes, batch, e.bodyIndex(), e.bodyLength(), batch, e.propertiesIndex(),
                        e.propertiesLength(), NO_BYTES);
                at += size;
                pos += size;
            }
        }
    }
}
