package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlotSegmentTest {

    @TempDir
    Path dir;

    @Test
    void aNewFileIsPreAllocatedWithZeros() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(0));
        SlotSegment segment = SlotSegment.create(file, 0, 10, 20);
        assertEquals(200, Files.size(file));
        assertEquals(0L, segment.buffer().getLong(192));
        assertThrows(IOException.class, () -> SlotSegment.create(file, 0, 10, 20), "never clobbers a file");
        segment.retire(false);
    }

    @Test
    void pagesAheadOfTheWriterArePreparedWithoutTouchingWrittenBytes() throws IOException {
        int slotBytes = 46;
        int slots = 10_000; // 460,000 bytes: several windows
        Path file = dir.resolve(SlotLog.fileName(0));
        SlotSegment segment = SlotSegment.create(file, 0, slots, slotBytes);
        int window = SlotSegment.PREPARE_AHEAD_BYTES;
        assertEquals(window, segment.preparedBytes(), "a new file has its first window prepared");
        for (int slot = 0; slot < slots; slot++) {
            int at = segment.byteIndex(slot);
            segment.prepareWrite(at + slotBytes);
            assertTrue(segment.preparedBytes() >= at + slotBytes, "prepared before the store at slot " + slot);
            segment.buffer().putLong(at, slot + 1L);
            segment.buffer().putLong(at + slotBytes - Long.BYTES, -(slot + 1L));
        }
        assertEquals(slots * slotBytes, segment.preparedBytes(), "capped at the file's end");
        for (int slot = 0; slot < slots; slot++) {
            int at = segment.byteIndex(slot);
            assertEquals(slot + 1L, segment.buffer().getLong(at), "slot " + slot + " kept by later preparation");
            assertEquals(-(slot + 1L), segment.buffer().getLong(at + slotBytes - Long.BYTES));
        }
        segment.retire(true);
    }

    @Test
    void preparingAFileDeletedUnderTheWriterFailsWithAnIoError() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(0));
        SlotSegment segment = SlotSegment.create(file, 0, 10_000, 20);
        Files.delete(file);
        assertThrows(IOException.class, () -> segment.prepareWrite(SlotSegment.PREPARE_AHEAD_BYTES + 1));
        segment.retire(false);
    }

    @Test
    void anOpenedFileIsTakenAsPrepared() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(0));
        SlotSegment.create(file, 0, 10_000, 20).retire(false);
        SlotSegment opened = SlotSegment.open(file, 0, 10_000, 20, false);
        assertEquals(200_000, opened.preparedBytes());
        opened.retire(false);
    }

    @Test
    void aRetiredFileStaysMappedUntilTheLastReaderReleases() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(200));
        SlotSegment segment = SlotSegment.create(file, 10, 10, 20);
        segment.buffer().putLong(0, 42L);
        assertTrue(segment.tryHold());
        assertEquals(2, segment.references());

        segment.retire(true);
        assertFalse(Files.exists(file), "deleted at once");
        assertFalse(segment.tryHold(), "no new reader after retirement");
        assertEquals(1, segment.references(), "the reader still holds the mapping");
        assertEquals(42L, segment.buffer().getLong(0));

        segment.release();
        assertEquals(0, segment.references(), "unmapped");
        segment.retire(true);
        assertEquals(0, segment.references(), "retire is idempotent");
    }

    @Test
    void openRejectsAWrongLengthNamingTheFile() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(0));
        Files.write(file, new byte[30]);
        IOException e = assertThrows(IOException.class, () -> SlotSegment.open(file, 0, 10, 20, false));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("30"), e.getMessage());
        Files.write(file, new byte[300]);
        assertThrows(IOException.class, () -> SlotSegment.open(file, 0, 10, 20, true), "longer: never cut");
    }

    @Test
    void openExtendsAShortNewestFileWithZeros() throws IOException {
        Path file = dir.resolve(SlotLog.fileName(0));
        Files.write(file, new byte[] {1, 2, 3});
        SlotSegment segment = SlotSegment.open(file, 0, 10, 20, true);
        assertEquals(200, Files.size(file));
        assertEquals(3, segment.buffer().getByte(2));
        assertEquals(0, segment.buffer().getByte(3));
        segment.retire(false);
    }

    @Test
    void zeroingOnlyWritesWhereThereIsSomethingToClear() throws IOException {
        SlotSegment segment = SlotSegment.create(dir.resolve(SlotLog.fileName(0)), 0, 10, 20);
        assertFalse(segment.zeroNonZero(0, 200));
        segment.buffer().putByte(117, (byte) 9);
        segment.buffer().putByte(199, (byte) 9);
        assertFalse(segment.zeroNonZero(0, 117));
        assertTrue(segment.zeroNonZero(3, 200));
        assertFalse(segment.zeroNonZero(0, 200));
        segment.retire(false);
    }

    @Test
    void fileNamesAreTwentyDigitBytePositions() {
        assertEquals("00000000000006000000", SlotLog.fileName(6_000_000));
        assertTrue(SlotLog.isFileName("00000000000013800000"));
        assertFalse(SlotLog.isFileName("0000000000001380000"));
        assertFalse(SlotLog.isFileName("0000000000001380000x"));
        assertFalse(SlotLog.isFileName("99999999999999999999"), "beyond a long");
    }
}
