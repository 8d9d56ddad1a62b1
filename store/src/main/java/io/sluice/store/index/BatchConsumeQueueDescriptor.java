package io.sluice.store.index;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of a BatchCQ slot: one per stored record or run of records (a shared slot, see {@link BatchConsumeQueue});
 * the slot's records carry {@code batchCount} messages with consecutive offsets from {@code baseOffset}.
 *
 * <pre>
 *  byte 0          8       12         20          28          36      38          42         46
 *       +----------+-------+----------+-----------+-----------+-------+-----------+----------+
 *       | position | size  | tagsCode | storeTime | baseOffset| batch | compacted | reserved |
 *       | long     | int   | long     | long, ms  | long      | Count | Offset    | int      |
 *       |          | whole |          |           | 1st inner | short | int, -1   | 0        |
 *       |          | record|          |           | message   | >= 1  |           |          |
 *       +----------+-------+----------+-----------+-----------+-------+-----------+----------+
 * </pre>
 *
 * <p>Big-endian. {@code compactedOffset} is always -1 and {@code reserved} 0; recovery checks both, which catches
 * torn slots. Slot {@code k} lies at byte {@code k * 46} of the queue's slot space, files are named by the 20-digit
 * byte position of their first slot, and offsets are found by binary search on {@code baseOffset}
 * (docs/storage.md#batchcq-slots).
 */
final class BatchConsumeQueueDescriptor {

    /** Directory under the index root holding {@code <topic>/<queueId>/} BatchCQ files. */
    static final String DIRECTORY = "batchconsumequeue";

    static final int SLOT_BYTES = 46;
    static final int POSITION_OFFSET = 0;
    static final int SIZE_OFFSET = 8;
    static final int TAGS_CODE_OFFSET = 12;
    static final int STORE_TIME_OFFSET = 20;
    static final int BASE_OFFSET_OFFSET = 28;
    static final int BATCH_COUNT_OFFSET = 36;
    static final int COMPACTED_OFFSET_OFFSET = 38;
    static final int RESERVED_OFFSET = 42;

    static final int COMPACTED_OFFSET_NONE = -1;

    /** The largest inner batch a slot can describe (the count is a signed short). */
    static final int MAX_BATCH_COUNT = Short.MAX_VALUE;

    /** Upstream default: 300,000 slots = 13,800,000 bytes per file. */
    static final int DEFAULT_SLOTS_PER_FILE = 300_000;

    /** Largest slots-per-file value whose file still fits one mapping (2 GiB - 1). */
    static final int MAX_SLOTS_PER_FILE = Integer.MAX_VALUE / SLOT_BYTES;

    static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private BatchConsumeQueueDescriptor() {
    }

    static void write(UnsafeBuffer buffer, int at, long position, int sizeBytes, long tagsCode,
                      long storeTimestampMs, long baseOffset, int batchCount) {
        buffer.putLong(at + POSITION_OFFSET, position, ORDER);
        buffer.putInt(at + SIZE_OFFSET, sizeBytes, ORDER);
        buffer.putLong(at + TAGS_CODE_OFFSET, tagsCode, ORDER);
        buffer.putLong(at + STORE_TIME_OFFSET, storeTimestampMs, ORDER);
        buffer.putLong(at + BASE_OFFSET_OFFSET, baseOffset, ORDER);
        buffer.putShort(at + BATCH_COUNT_OFFSET, (short) batchCount, ORDER);
        buffer.putInt(at + COMPACTED_OFFSET_OFFSET, COMPACTED_OFFSET_NONE, ORDER);
        buffer.putInt(at + RESERVED_OFFSET, 0, ORDER);
    }

    /**
     * Grows a published slot by records that follow it: the size first, then the count, with a release fence
     * between, so a reader that loads the count and then (acquire fence) the size never sees a count its size does
     * not cover.
     */
    static void grow(UnsafeBuffer buffer, int at, int sizeBytes, int batchCount) {
        buffer.putInt(at + SIZE_OFFSET, sizeBytes, ORDER);
        VarHandle.releaseFence();
        buffer.putShort(at + BATCH_COUNT_OFFSET, (short) batchCount, ORDER);
    }

    /** The count, then (acquire fence) the size: see {@link #grow}. Returns {@code (count << 32) | size}. */
    static long countThenSize(UnsafeBuffer buffer, int at) {
        int count = batchCount(buffer, at);
        VarHandle.acquireFence();
        return ((long) count << 32) | (size(buffer, at) & 0xFFFF_FFFFL);
    }

    static long position(UnsafeBuffer buffer, int at) {
        return buffer.getLong(at + POSITION_OFFSET, ORDER);
    }

    static int size(UnsafeBuffer buffer, int at) {
        return buffer.getInt(at + SIZE_OFFSET, ORDER);
    }

    static long tagsCode(UnsafeBuffer buffer, int at) {
        return buffer.getLong(at + TAGS_CODE_OFFSET, ORDER);
    }

    static long storeTimestampMs(UnsafeBuffer buffer, int at) {
        return buffer.getLong(at + STORE_TIME_OFFSET, ORDER);
    }

    static long baseOffset(UnsafeBuffer buffer, int at) {
        return buffer.getLong(at + BASE_OFFSET_OFFSET, ORDER);
    }

    static int batchCount(UnsafeBuffer buffer, int at) {
        return buffer.getShort(at + BATCH_COUNT_OFFSET, ORDER);
    }

    /** Field checks of one slot on its own (the chain checks between slots are done by recovery). */
    static boolean isWellFormed(UnsafeBuffer buffer, int at) {
        return position(buffer, at) >= 0
                && size(buffer, at) > 0
                && baseOffset(buffer, at) >= 0
                && batchCount(buffer, at) > 0
                && buffer.getInt(at + COMPACTED_OFFSET_OFFSET, ORDER) == COMPACTED_OFFSET_NONE
                && buffer.getInt(at + RESERVED_OFFSET, ORDER) == 0;
    }
}
