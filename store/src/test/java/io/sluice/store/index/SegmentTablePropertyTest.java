package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;

/**
 * A queue's file snapshot finds the file of any slot by arithmetic alone (the file's index, or -1 outside the
 * files), keeps each file's cached first-slot fields, and stays consistent when files are added at the end,
 * dropped at the front, or the last one's first slot is read again.
 */
class SegmentTablePropertyTest {

    private static final int SLOT_BYTES = BatchConsumeQueueDescriptor.SLOT_BYTES;
    /** Two cached fields of the first slot, as the BatchCQ caches position and base offset. */
    private static final int[] CACHED = {0, Long.BYTES};

    private final List<SlotSegment> opened = new ArrayList<>();
    private Path dir;

    @AfterTry
    void retireAll() throws IOException {
        for (SlotSegment segment : opened) {
            segment.retire(true);
        }
        opened.clear();
        if (dir != null) {
            Files.deleteIfExists(dir);
            dir = null;
        }
    }

    @Property(tries = 60)
    void aSlotIsFoundInItsFileOrNowhere(@ForAll @IntRange(min = 1, max = 5) int files,
                                       @ForAll @IntRange(min = 1, max = 40) int slotsPerFile,
                                       @ForAll @IntRange(min = 0, max = 1_000) int firstStartSlot,
                                       @ForAll @IntRange(min = 0, max = 1_300) int probe) throws IOException {
        SegmentTable table = SegmentTable.of(segments(files, slotsPerFile, firstStartSlot).toArray(SlotSegment[]::new),
                slotsPerFile, CACHED);
        long relative = probe - firstStartSlot;
        int expected = relative < 0 || relative >= (long) files * slotsPerFile ? -1 : (int) (relative / slotsPerFile);
        assertEquals(expected, table.indexOf(probe), "slot " + probe);
        assertEquals(firstStartSlot, table.firstStartSlot());
        assertEquals(firstStartSlot + (long) files * slotsPerFile, table.endSlot());
        for (int i = 0; i < files; i++) {
            assertEquals(firstSlotPosition(firstStartSlot + (long) i * slotsPerFile), table.firstSlotValue(i, 0));
            assertEquals(firstStartSlot + (long) i * slotsPerFile, table.firstSlotValue(i, 1));
        }
    }

    @Property(tries = 40)
    void droppingFrontFilesKeepsTheRestAndTheirCachedFields(@ForAll @IntRange(min = 2, max = 5) int files,
                                                            @ForAll @IntRange(min = 1, max = 20) int slotsPerFile,
                                                            @ForAll @IntRange(min = 1, max = 4) int dropped)
            throws IOException {
        int keepFrom = Math.min(dropped, files - 1);
        SegmentTable whole = SegmentTable.of(segments(files, slotsPerFile, 0).toArray(SlotSegment[]::new),
                slotsPerFile, CACHED);
        SegmentTable rest = whole.withFirst(keepFrom);
        assertEquals(files - keepFrom, rest.size());
        assertEquals((long) keepFrom * slotsPerFile, rest.firstStartSlot());
        assertEquals(-1, rest.indexOf((long) keepFrom * slotsPerFile - 1), "a dropped file's slot");
        assertEquals(0, rest.indexOf((long) keepFrom * slotsPerFile));
        for (int i = 0; i < rest.size(); i++) {
            assertEquals(whole.firstSlotValue(i + keepFrom, 0), rest.firstSlotValue(i, 0));
            assertEquals(whole.firstSlotValue(i + keepFrom, 1), rest.firstSlotValue(i, 1));
        }
    }

    @Property(tries = 30)
    void anAddedFileIsReadOnceAndItsFirstSlotAgainWhenWritten(@ForAll @IntRange(min = 1, max = 30) int slotsPerFile)
            throws IOException {
        List<SlotSegment> first = segments(1, slotsPerFile, 0);
        SegmentTable table = SegmentTable.empty(slotsPerFile, CACHED);
        assertTrue(table.isEmpty());
        assertEquals(-1, table.indexOf(0));
        assertEquals(0, table.endSlot());
        table = table.withLast(first.get(0));
        SlotSegment unwritten = segment(slotsPerFile, slotsPerFile, false);
        table = table.withLast(unwritten);
        assertEquals(2, table.size());
        assertEquals(0, table.firstSlotValue(1, 0), "a file with no slot written reads as zeros");
        assertEquals(1, table.indexOf(slotsPerFile));
        writeFirstSlot(unwritten);
        assertEquals(0, table.firstSlotValue(1, 0), "a snapshot does not change");
        SegmentTable reread = table.withLastReread();
        assertEquals(firstSlotPosition(slotsPerFile), reread.firstSlotValue(1, 0));
        assertEquals(table.firstSlotValue(0, 0), reread.firstSlotValue(0, 0));
        assertEquals(0, reread.cachedFieldIndex(0));
        assertEquals(1, reread.cachedFieldIndex(Long.BYTES));
        assertEquals(-1, reread.cachedFieldIndex(16));
    }

    /** {@code files} contiguous files with their first slot written. */
    private List<SlotSegment> segments(int files, int slotsPerFile, long firstStartSlot) throws IOException {
        SlotSegment[] array = new SlotSegment[files];
        for (int i = 0; i < files; i++) {
            array[i] = segment(firstStartSlot + (long) i * slotsPerFile, slotsPerFile, true);
        }
        return List.of(array);
    }

    private SlotSegment segment(long startSlot, int slotsPerFile, boolean written) throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory("segment-table");
        }
        SlotSegment segment = SlotSegment.create(dir.resolve(SlotLog.fileName(startSlot * SLOT_BYTES)), startSlot,
                slotsPerFile, SLOT_BYTES);
        opened.add(segment);
        if (written) {
            writeFirstSlot(segment);
        }
        return segment;
    }

    private static void writeFirstSlot(SlotSegment segment) {
        segment.buffer().putLong(0, firstSlotPosition(segment.startSlot()), BatchConsumeQueueDescriptor.ORDER);
        segment.buffer().putLong(Long.BYTES, segment.startSlot(), BatchConsumeQueueDescriptor.ORDER);
    }

    private static long firstSlotPosition(long startSlot) {
        return 1_000_000 + startSlot * 977;
    }
}
