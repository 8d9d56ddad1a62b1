package io.sluice.store.log;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A validated draft with everything that does not depend on its position already computed (body CRCs, topic and
 * properties bytes, sizes), so that the append lock is held only to assign offsets and copy bytes. Produced by
 * {@link DraftEncoder}; nothing here allocates under the lock but the view of a gathered body.
 *
 * <p>Publish order: {@link #write} stores every byte of its records but the first record's TOTALSIZE, then, behind a
 * release fence, that TOTALSIZE ({@link #publishTotalSize}); the CommitLog writes them to the file in that order.
 * Bytes past the written position are always zero and {@link RecordParser} reads a zero TOTALSIZE as "no record", so
 * a process killed mid-append leaves no record with a damaged tail (docs/storage.md#publish-order). The blank record
 * is written the same way ({@link #writeBlank}).
 *
 * <p>Thread-safety: created by the appending thread, then used under the append lock by the same thread.
 */
abstract class PreparedAppend implements DraftEncoder.Outcome {

    private static final ByteOrder BE = RecordDescriptor.BYTE_ORDER;
    /**
     * A record body at least this long that sits in direct memory is not staged: the CommitLog writes it from the
     * request's own buffer, between the staged header and tail, in one gathering write. Staging a 256 KiB batch
     * costs a copy as large as the kernel's own copy of it into the page cache; a gathering write costs one more
     * system call (a seek: Java has no positional gathering write), worth about a copy of a few pages.
     */
    static final int GATHER_MIN_BODY_BYTES = 16 * 1024;
    private static final ByteBuffer NO_BODY = ByteBuffer.allocateDirect(0);

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

    @Override
    public final AppendStatus status() {
        return AppendStatus.PUT_OK;
    }

    /** Bytes of all records together once the base queue offset is known. */
    abstract int bytes(long baseQueueOffset);

    /**
     * The body that {@link #writeAroundBody} leaves out of {@code dst} for the CommitLog to write by gathering, from
     * its position to its limit (a view the caller may move); empty when every byte is staged.
     */
    ByteBuffer gatheredBody() {
        return NO_BODY;
    }

    /** Index of the gathered body in the record: the staged header's length. Valid after {@link #writeAroundBody}. */
    int gatheredBodyIndex() {
        return 0;
    }

    /**
     * Writes the records at {@code dst[index]}, which is log position {@code position}: every byte of
     * {@code [index, index + bytes)}, the first TOTALSIZE last (see the class comment), whatever {@code dst} held
     * before.
     */
    final void write(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                     byte[] storeHostBytes) {
        int firstRecordBytes = writeUnpublished(dst, index, position, baseQueueOffset, storeTimestampMs,
                storeHostBytes, false);
        publishTotalSize(dst, index, firstRecordBytes);
    }

    /**
     * As {@link #write}, but the {@link #gatheredBody()} is left out: {@code dst} then holds the record's header up
     * to {@link #gatheredBodyIndex()} and, right after it, the record's tail.
     */
    final void writeAroundBody(UnsafeBuffer dst, int index, long position, long baseQueueOffset,
                               long storeTimestampMs, byte[] storeHostBytes) {
        int firstRecordBytes = writeUnpublished(dst, index, position, baseQueueOffset, storeTimestampMs,
                storeHostBytes, true);
        publishTotalSize(dst, index, firstRecordBytes);
    }

    /**
     * Writes every byte of the records except the first record's TOTALSIZE, which is left as it is (zero), and,
     * when {@code leaveBodyOut}, the {@link #gatheredBody()}.
     *
     * @return the first record's TOTALSIZE
     */
    abstract int writeUnpublished(UnsafeBuffer dst, int index, long position, long baseQueueOffset,
                                  long storeTimestampMs, byte[] storeHostBytes, boolean leaveBodyOut);

    /**
     * Stores the TOTALSIZE of the record at {@code dst[index]} after every store made before it. A release
     * fence and a plain store rather than a release store: records are not 4-byte aligned, and a release store
     * instruction faults on unaligned addresses on some CPUs (AArch64 STLR). Even a store that the hardware
     * split into bytes could not fake a record: a partial big-endian TOTALSIZE is either the full value (the
     * missing bytes were zero in it too) or a value that does not match the size recomputed from the fields.
     */
    static void publishTotalSize(UnsafeBuffer dst, int index, int totalSize) {
        VarHandle.releaseFence();
        dst.putInt(index + RecordDescriptor.TOTAL_SIZE_OFFSET, totalSize, BE);
    }

    /** Writes the end-of-segment blank record of {@code blankBytes} at {@code dst[index]}, TOTALSIZE last. */
    static void writeBlank(UnsafeBuffer dst, int index, int blankBytes) {
        dst.putInt(index + RecordDescriptor.MAGIC_OFFSET, RecordDescriptor.MAGIC_BLANK, BE);
        publishTotalSize(dst, index, blankBytes);
    }

    /**
     * The position of every record written by {@link #write}, for an append that writes several records;
     * {@code null} for one that writes a single record (at the position given to {@code write}).
     */
    long[] recordPositions() {
        return null;
    }

    /** TOTALSIZE of one record of this append. */
    final int recordBytes(int bodyLength, int propertiesLength) {
        return (int) RecordDescriptor.recordBytes(sysFlag, magic, bodyLength, topicBytes.length, propertiesLength);
    }

    /**
     * Writes every field before the body (BODYLENGTH included) except TOTALSIZE.
     *
     * @return the index of the body
     */
    final int writeHeader(UnsafeBuffer dst, int index, int bodyCrc, int flag, long queueOffset, long position,
                          long storeTimestampMs, byte[] storeHostBytes, int bodyLength) {
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
        return at + Integer.BYTES;
    }

    /**
     * Writes TOPICLENGTH, TOPIC and PROPERTIESLENGTH at {@code at}, just after the body.
     *
     * @return the index of the properties
     */
    final int writeTopic(UnsafeBuffer dst, int at, int propertiesLength) {
        if (magic == RecordDescriptor.MAGIC_V2) {
            dst.putShort(at, (short) topicBytes.length, BE);
            at += Short.BYTES;
        } else {
            dst.putByte(at, (byte) topicBytes.length);
            at += Byte.BYTES;
        }
        dst.putBytes(at, topicBytes);
        at += topicBytes.length;
        dst.putShort(at, (short) propertiesLength, BE);
        return at + Short.BYTES;
    }

    /** An append of one record holding the draft's body: its CRC, and whether the body is staged or gathered. */
    abstract static class OneRecord extends PreparedAppend {
        final int bodyLength;
        final int bodyCrc;
        final int flag;
        private final ByteBuffer body;
        private final int bodyIndex;
        private final boolean gathered;
        /** Set by {@link #writeBody}; its caller reads it right after. */
        private int bodyIndexInRecord;

        OneRecord(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean assignsQueueOffset,
                  boolean waitsForFlush, int messageCount) {
            super(draft, topicBytes, sysFlag, bornHostBytes, assignsQueueOffset, waitsForFlush, messageCount);
            this.body = draft.body();
            this.bodyIndex = body.position();
            this.bodyLength = body.remaining();
            this.bodyCrc = RecordDescriptor.bodyCrc(body, bodyIndex, bodyLength);
            this.flag = draft.flag();
            this.gathered = body.isDirect() && bodyLength >= GATHER_MIN_BODY_BYTES;
        }

        @Override
        final ByteBuffer gatheredBody() {
            return gathered ? body.duplicate().limit(bodyIndex + bodyLength).position(bodyIndex) : super.gatheredBody();
        }

        @Override
        final int gatheredBodyIndex() {
            return bodyIndexInRecord;
        }

        /**
         * The body's place in the record, at {@code dst[at]} just after the header of the record at {@code index}:
         * copies the body there unless it is gathered and {@code leaveBodyOut}.
         *
         * @return where the bytes after the body go in {@code dst}
         */
        final int writeBody(UnsafeBuffer dst, int index, int at, boolean leaveBodyOut) {
            bodyIndexInRecord = at - index;
            if (gathered && leaveBodyOut) {
                return at;
            }
            dst.putBytes(at, body, bodyIndex, bodyLength);
            return at + bodyLength;
        }
    }

    /** A plain message: one record. */
    static final class Single extends OneRecord {
        private final byte[] properties;

        Single(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean assignsQueueOffset,
               boolean waitsForFlush, byte[] properties) {
            super(draft, topicBytes, sysFlag, bornHostBytes, assignsQueueOffset, waitsForFlush, 1);
            this.properties = properties;
        }

        @Override
        int bytes(long baseQueueOffset) {
            return recordBytes(bodyLength, properties.length);
        }

        @Override
        int writeUnpublished(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                             byte[] storeHostBytes, boolean leaveBodyOut) {
            int at = writeHeader(dst, index, bodyCrc, flag, baseQueueOffset, position, storeTimestampMs,
                    storeHostBytes, bodyLength);
            at = writeTopic(dst, writeBody(dst, index, at, leaveBodyOut), properties.length);
            dst.putBytes(at, properties);
            return recordBytes(bodyLength, properties.length);
        }
    }

    /**
     * A BatchCQ inner batch: one record whose properties end with {@code INNER_NUM 0x01 n 0x02 INNER_BASE 0x01
     * base 0x02}; only the base's digits are left to write under the lock.
     */
    static final class InnerBatch extends OneRecord {
        private static final byte[] INNER_NUM_NAME = (MessageProperties.INNER_NUM
                + MessageProperties.NAME_VALUE_SEPARATOR).getBytes(StandardCharsets.US_ASCII);
        private static final byte[] INNER_BASE_NAME = (MessageProperties.PROPERTY_SEPARATOR
                + MessageProperties.INNER_BASE + MessageProperties.NAME_VALUE_SEPARATOR)
                .getBytes(StandardCharsets.US_ASCII);
        /** Longest suffix: 19 digits and the final 0x02. */
        static final int MAX_SUFFIX_BYTES = 20;

        /** The draft's properties, terminated, then {@code INNER_NUM 0x01 n 0x02 INNER_BASE 0x01}. */
        private final byte[] propertiesPrefix;

        InnerBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean waitsForFlush,
                   int innerNum, byte[] propertiesPrefix) {
            super(draft, topicBytes, sysFlag, bornHostBytes, true, waitsForFlush, innerNum);
            this.propertiesPrefix = propertiesPrefix;
        }

        /** Builds the fixed part of the properties: everything up to the INNER_BASE value. */
        static byte[] propertiesPrefix(String text, int innerNum) {
            byte[] draftProperties = text.getBytes(StandardCharsets.UTF_8);
            int length = draftProperties.length;
            // A final 0x02 byte can only be the separator: UTF-8 never uses bytes below 0x80 inside a character.
            boolean terminate = length > 0 && draftProperties[length - 1] != MessageProperties.PROPERTY_SEPARATOR;
            int digits = decimalDigits(innerNum);
            byte[] out = new byte[length + (terminate ? 1 : 0) + INNER_NUM_NAME.length + digits
                    + INNER_BASE_NAME.length];
            System.arraycopy(draftProperties, 0, out, 0, length);
            int at = length;
            if (terminate) {
                out[at++] = MessageProperties.PROPERTY_SEPARATOR;
            }
            System.arraycopy(INNER_NUM_NAME, 0, out, at, INNER_NUM_NAME.length);
            at += INNER_NUM_NAME.length;
            for (int i = at + digits - 1, v = innerNum; i >= at; i--, v /= 10) {
                out[i] = (byte) ('0' + v % 10);
            }
            at += digits;
            System.arraycopy(INNER_BASE_NAME, 0, out, at, INNER_BASE_NAME.length);
            return out;
        }

        /** Digits of a non-negative number. */
        static int decimalDigits(long value) {
            int digits = 1;
            for (long v = value; v >= 10; v /= 10) {
                digits++;
            }
            return digits;
        }

        @Override
        int bytes(long baseQueueOffset) {
            return recordBytes(bodyLength, propertiesPrefix.length + decimalDigits(baseQueueOffset) + 1);
        }

        @Override
        int writeUnpublished(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                             byte[] storeHostBytes, boolean leaveBodyOut) {
            int propertiesLength = propertiesPrefix.length + decimalDigits(baseQueueOffset) + 1;
            int at = writeHeader(dst, index, bodyCrc, flag, baseQueueOffset, position, storeTimestampMs,
                    storeHostBytes, bodyLength);
            at = writeTopic(dst, writeBody(dst, index, at, leaveBodyOut), propertiesLength);
            dst.putBytes(at, propertiesPrefix);
            at += propertiesPrefix.length;
            at += dst.putNaturalLongAscii(at, baseQueueOffset);
            dst.putByte(at, (byte) MessageProperties.PROPERTY_SEPARATOR);
            return recordBytes(bodyLength, propertiesLength);
        }
    }

    /**
     * A batch unpacked into one record per entry, written together: the first record's TOTALSIZE, stored last,
     * publishes them all.
     */
    static final class UnpackedBatch extends PreparedAppend {
        private final ByteBuffer batch;
        private final BatchBodyDescriptor.Entry[] entries;
        private final int[] bodyCrcs;
        private final int totalBytes;
        private final long[] positions;

        UnpackedBatch(MessageDraft draft, byte[] topicBytes, int sysFlag, byte[] bornHostBytes, boolean waitsForFlush,
                      BatchBodyDescriptor.Entry[] entries) {
            super(draft, topicBytes, sysFlag, bornHostBytes, true, waitsForFlush, entries.length);
            this.batch = draft.body();
            this.entries = entries;
            this.bodyCrcs = new int[entries.length];
            this.positions = new long[entries.length];
            long total = 0;
            for (int i = 0; i < entries.length; i++) {
                BatchBodyDescriptor.Entry e = entries[i];
                bodyCrcs[i] = RecordDescriptor.bodyCrc(batch, e.bodyIndex(), e.bodyLength());
                total += recordBytes(e.bodyLength(), e.propertiesLength());
            }
            this.totalBytes = (int) Math.min(Integer.MAX_VALUE, total);
        }

        @Override
        int bytes(long baseQueueOffset) {
            return totalBytes;
        }

        @Override
        int writeUnpublished(UnsafeBuffer dst, int index, long position, long baseQueueOffset, long storeTimestampMs,
                             byte[] storeHostBytes, boolean leaveBodyOut) {
            int at = index;
            long pos = position;
            int firstRecordBytes = 0;
            for (int i = 0; i < entries.length; i++) {
                BatchBodyDescriptor.Entry e = entries[i];
                positions[i] = pos;
                int size = recordBytes(e.bodyLength(), e.propertiesLength());
                if (i == 0) {
                    firstRecordBytes = size;
                } else {
                    dst.putInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET, size, BE);
                }
                int bodyAt = writeHeader(dst, at, bodyCrcs[i], e.flag(), baseQueueOffset + i, pos,
                        storeTimestampMs, storeHostBytes, e.bodyLength());
                dst.putBytes(bodyAt, batch, e.bodyIndex(), e.bodyLength());
                int propertiesAt = writeTopic(dst, bodyAt + e.bodyLength(), e.propertiesLength());
                dst.putBytes(propertiesAt, batch, e.propertiesIndex(), e.propertiesLength());
                at += size;
                pos += size;
            }
            return firstRecordBytes;
        }

        @Override
        long[] recordPositions() {
            return positions;
        }
    }
}
