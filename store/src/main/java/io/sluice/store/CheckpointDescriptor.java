package io.sluice.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Layout of the checkpoint file {@code <root>/checkpoint}. Big-endian, {@value #FILE_BYTES} bytes.
 *
 * <pre>
 *  offset  field                 width
 *  ------  --------------------  -----  ---------------------------------------------------------------
 *     0    MAGIC                 int    0x534C4350 ("SLCP")
 *     4    VERSION               int    1
 *     8    DISPATCHED_POSITION   long   every CommitLog record below it is durable in the log AND has its
 *                                       consume-queue slot durable: recovery re-dispatches from here
 *    16    WRITTEN_AT_MS         long   wall clock when the checkpoint was taken (diagnostics only)
 *    24    CRC                   int    CRC32 of bytes [0, 24)
 *    28    (end)
 * </pre>
 *
 * <p>Replaced atomically (written to {@code checkpoint.tmp}, forced, renamed, directory forced); the CRC rejects a
 * file damaged otherwise. A position, not Apache's timestamps, so recovery needs no clock-skew slack.
 *
 * <p>Stateless; thread-safe.
 */
final class CheckpointDescriptor {

    public static final ByteOrder BYTE_ORDER = ByteOrder.BIG_ENDIAN;
    public static final int MAGIC = 0x534C4350;
    public static final int VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int DISPATCHED_POSITION_OFFSET = 8;
    public static final int WRITTEN_AT_MS_OFFSET = 16;
    public static final int CRC_OFFSET = 24;
    public static final int FILE_BYTES = 28;
    /** File name under the store root. */
    public static final String FILE_NAME = "checkpoint";
    /** Name of the temporary file a new checkpoint is written to before the rename. */
    public static final String TEMP_FILE_NAME = "checkpoint.tmp";

    private CheckpointDescriptor() {
    }

    /** Encodes a checkpoint into a new buffer, position 0, limit {@link #FILE_BYTES}. */
    public static ByteBuffer encode(long dispatchedPosition, long writtenAtMs) {
        ByteBuffer b = ByteBuffer.allocate(FILE_BYTES).order(BYTE_ORDER);
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.putInt(VERSION_OFFSET, VERSION);
        b.putLong(DISPATCHED_POSITION_OFFSET, dispatchedPosition);
        b.putLong(WRITTEN_AT_MS_OFFSET, writtenAtMs);
        b.putInt(CRC_OFFSET, crc(b));
        return b;
    }

    /**
     * Why {@code bytes} is not a valid checkpoint, or {@code null} when it is.
     */
    public static String problem(ByteBuffer bytes) {
        if (bytes.remaining() != FILE_BYTES) {
            return "size " + bytes.remaining() + " bytes, expected " + FILE_BYTES;
        }
        ByteBuffer b = bytes.slice().order(BYTE_ORDER);
        if (b.getInt(MAGIC_OFFSET) != MAGIC) {
            return "magic 0x" + Integer.toHexString(b.getInt(MAGIC_OFFSET));
        }
        if (b.getInt(VERSION_OFFSET) != VERSION) {
            return "unknown version " + b.getInt(VERSION_OFFSET);
        }
        if (b.getInt(CRC_OFFSET) != crc(b)) {
            return "CRC mismatch";
        }
        if (b.getLong(DISPATCHED_POSITION_OFFSET) < 0) {
            return "negative position " + b.getLong(DISPATCHED_POSITION_OFFSET);
        }
        return null;
    }

    /** DISPATCHED_POSITION of a valid checkpoint. */
    public static long dispatchedPosition(ByteBuffer bytes) {
        return bytes.slice().order(BYTE_ORDER).getLong(DISPATCHED_POSITION_OFFSET);
    }

    /** WRITTEN_AT_MS of a valid checkpoint. */
    public static long writtenAtMs(ByteBuffer bytes) {
        return bytes.slice().order(BYTE_ORDER).getLong(WRITTEN_AT_MS_OFFSET);
    }

    private static int crc(ByteBuffer b) {
        CRC32 crc = new CRC32();
        crc.update(b.duplicate().position(0).limit(CRC_OFFSET));
        return (int) crc.getValue();
    }
}
