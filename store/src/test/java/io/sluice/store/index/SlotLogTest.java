package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SlotLogTest {

    private static final int SLOT_BYTES = 20;
    private static final int SLOTS_PER_FILE = 10_000;
    private static final int[] NO_CACHED_FIELDS = new int[0];

    @TempDir
    Path dir;

    @Test
    void fileNamesAreTheStartByteInTwentyZeroPaddedDigits() {
        assertEquals("00000000000000000000", SlotLog.fileName(0));
        assertEquals("00000000000013800000", SlotLog.fileName(13_800_000));
        assertEquals("09223372036854775807", SlotLog.fileName(Long.MAX_VALUE));
        assertTrue(SlotLog.isFileName(SlotLog.fileName(6_000_000L)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlotLog.fileName(-20));
        assertTrue(e.getMessage().contains("-20"), e.getMessage());
    }

    /** A full-length file whose first {@code slots} slots hold non-zero bytes, the rest a hole. */
    private Path fileWithSlots(int slots) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(SlotLog.fileName(0));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            byte[] used = new byte[slots * SLOT_BYTES];
            Arrays.fill(used, (byte) 7);
            channel.write(ByteBuffer.wrap(used), 0);
            channel.write(ByteBuffer.allocate(1), (long) SLOTS_PER_FILE * SLOT_BYTES - 1);
        }
        return file;
    }

    private static void writeByte(Path file, long at, byte value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {value}), at);
        }
    }

    private static byte readByte(Path file, long at) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            return one.get(0);
        }
    }

    @ParameterizedTest
    @EnumSource(LastStop.class)
    void recoveryCountsTheNewestFileAsPreparedOnlyUpToTheEndItKeeps(LastStop lastStop) throws IOException {
        fileWithSlots(3);
        SlotLog log = SlotLog.open(dir, SLOT_BYTES, SLOTS_PER_FILE, NO_CACHED_FIELDS);
        try {
            assertEquals(SLOTS_PER_FILE, log.count(), "every file is taken as full until recovery cuts it");
            log.recoverEnd(3, lastStop);

            assertEquals(3, log.count());
            SlotSegment tail = log.table().last();
            assertEquals(3 * SLOT_BYTES, tail.preparedBytes(), "the rest of the file may be an unread hole");
            SlotSegment forAppend = log.segmentForAppend(3);
            assertTrue(forAppend.preparedBytes() >= 4 * SLOT_BYTES + SlotSegment.PREPARE_AHEAD_BYTES - 4096,
                    "the next store is prepared ahead: " + forAppend.preparedBytes());
            assertEquals(7, forAppend.buffer().getByte(3 * SLOT_BYTES - 1), "slots kept are not touched");
        } finally {
            log.close();
        }
    }

    @Test
    void afterACrashRecoveryZeroesStrayBytesAfterTheEnd() throws IOException {
        StrayByte after = recoverBehindAStrayByte(500L * SLOT_BYTES, LastStop.CRASH);
        assertTrue(after.dropped(), "the stray byte counts as dropped");
        assertEquals(0, after.strayByte());
    }

    @Test
    void afterACleanStopRecoveryDoesNotReadPastTheEnd() throws IOException {
        // Cannot exist after a clean stop; placed here to show that the rest of the file is left unread.
        StrayByte after = recoverBehindAStrayByte(5_000L * SLOT_BYTES, LastStop.CLEAN);
        assertFalse(after.dropped(), "nothing read, nothing dropped");
        assertEquals(3, after.count());
        assertEquals(9, after.strayByte());
    }

    /** What recovery with 3 valid slots left: its answer, the count, and the byte stored as 9 at the stray place. */
    private record StrayByte(boolean dropped, long count, byte strayByte) {
    }

    private StrayByte recoverBehindAStrayByte(long strayPosition, LastStop stop) throws IOException {
        Path file = fileWithSlots(3);
        writeByte(file, strayPosition, (byte) 9);
        SlotLog log = SlotLog.open(dir, SLOT_BYTES, SLOTS_PER_FILE, NO_CACHED_FIELDS);
        boolean dropped;
        long count;
        try {
            dropped = log.recoverEnd(3, stop);
            count = log.count();
        } finally {
            log.close();
        }
        return new StrayByte(dropped, count, readByte(file, strayPosition));
    }
}
