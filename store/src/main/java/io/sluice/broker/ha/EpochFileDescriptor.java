package io.sluice.broker.ha;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The layout of the epoch file ({@code <storePathRootDir>/epochFile}): one fixed-size record per epoch, appended
 * in epoch order when this broker becomes master or copies its master's epochs. All integers big-endian.
 *
 * <pre>
 * record, 20 bytes:
 *   +------------------+---------------+-------------------------+-----------------------------+
 *   | magic (int32)    | epoch (int32) | startPosition (int64)   | crc32c (int32) of bytes 0-15 |
 *   | 0x534C4550 SLEP  | from 1, rising| CommitLog position where |                             |
 *   |                  |               | the epoch's writes begin |                             |
 *   +------------------+---------------+-------------------------+-----------------------------+
 * </pre>
 *
 * A torn or damaged last record (a crash while appending: the epoch never started) is dropped on open; a damaged
 * record followed by more data is refused, since a lost epoch would let a replica keep a tail it must drop.
 *
 * <p>Stateless; thread-safe.
 */
final class EpochFileDescriptor {

    static final String FILE_NAME = "epochFile";
    /** "SLEP". */
    static final int MAGIC = 0x534C4550;
    static final int RECORD_BYTES = 20;
    static final int EPOCH_OFFSET = 4;
    static final int START_POSITION_OFFSET = 8;
    static final int CRC_OFFSET = 16;

    private EpochFileDescriptor() {
    }

    /** Writes one record into {@code buffer} at its position, advancing it. */
    static void write(ByteBuffer buffer, EpochEntry entry) {
        int start = buffer.position();
        buffer.putInt(MAGIC).putInt(entry.epoch()).putLong(entry.startPosition());
        buffer.putInt(crc(buffer, start));
    }

    /** The record at {@code offset}, or null when its magic or checksum is wrong. */
    static EpochEntry read(ByteBuffer buffer, int offset) {
        if (buffer.getInt(offset) != MAGIC || buffer.getInt(offset + CRC_OFFSET) != crc(buffer, offset)) {
            return null;
        }
        return new EpochEntry(buffer.getInt(offset + EPOCH_OFFSET), buffer.getLong(offset + START_POSITION_OFFSET));
    }

    private static int crc(ByteBuffer buffer, int offset) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate().position(offset).limit(offset + CRC_OFFSET));
        return (int) crc.getValue();
    }
}
