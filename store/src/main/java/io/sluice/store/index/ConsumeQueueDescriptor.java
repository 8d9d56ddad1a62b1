package io.sluice.store.index;

import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of a SimpleCQ slot: one 20-byte slot per message, slot {@code n} holds queue offset {@code n}.
 *
 * <pre>
 *  byte 0                  8            12                 20
 *       +------------------+------------+------------------+
 *       | position         | sizeBytes  | tagsCode         |
 *       | long, CommitLog  | int, whole | long             |
 *       | byte position    | record     |                  |
 *       +------------------+------------+------------------+
 * </pre>
 *
 * <p>Big-endian. Files hold {@code slotsPerFile} slots (300,000 by default) and are named by the 20-digit byte
 * position of their first slot ({@code firstOffset * 20}). A slot is a record ({@code position >= 0},
 * {@code 0 < sizeBytes < FILLER_SIZE}), a filler {@code (0, FILLER_SIZE, 0)} before the first record of a queue that
 * starts at a non-zero offset, or empty (all zero: the end of data); anything else ends the valid data at recovery
 * (docs/storage.md#simplecq-slots).
 */
final class ConsumeQueueDescriptor {

    /** Directory under the index root holding {@code <topic>/<queueId>/} SimpleCQ files. */
    static final String DIRECTORY = "consumequeue";

    static final int SLOT_BYTES = 20;
    static final int POSITION_OFFSET = 0;
    static final int SIZE_OFFSET = 8;
    static final int TAGS_CODE_OFFSET = 12;

    /** {@code sizeBytes} of a filler slot; no real record is this large. */
    static final int FILLER_SIZE = Integer.MAX_VALUE;

    /** Upstream default: 300,000 slots = 6,000,000 bytes per file. */
    static final int DEFAULT_SLOTS_PER_FILE = 300_000;

    /** Largest slots-per-file value whose file still fits one mapping (2 GiB - 1). */
    static final int MAX_SLOTS_PER_FILE = Integer.MAX_VALUE / SLOT_BYTES;

    static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private ConsumeQueueDescriptor() {
    }

    static void write(UnsafeBuffer buffer, int at, long position, int sizeBytes, long tagsCode) {
        buffer.putLong(at + POSITION_OFFSET, position, ORDER);
        buffer.putInt(at + SIZE_OFFSET, sizeBytes, ORDER);
        buffer.putLong(at + TAGS_CODE_OFFSET, tagsCode, ORDER);
    }

    static void writeFiller(UnsafeBuffer buffer, int at) {
        write(buffer, at, 0L, FILLER_SIZE, 0L);
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

    static boolean isFiller(UnsafeBuffer buffer, int at) {
        return size(buffer, at) == FILLER_SIZE && position(buffer, at) == 0L && tagsCode(buffer, at) == 0L;
    }

    /** True for a slot that describes a record (not empty, not a filler, not obviously torn). */
    static boolean isRecord(UnsafeBuffer buffer, int at) {
        int size = size(buffer, at);
        return size > 0 && size != FILLER_SIZE && position(buffer, at) >= 0;
    }
}
