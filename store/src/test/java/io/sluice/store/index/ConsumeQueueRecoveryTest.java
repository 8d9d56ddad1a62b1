package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Opening a queue whose files a crash left damaged: the tail is validated and cut at the first bad slot. */
class ConsumeQueueRecoveryTest {

    private static final int SLOTS_PER_FILE = 4;

    @TempDir
    Path root;

    private QueueFixture fx;

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    private QueueFixture fixture(ConsumeQueueType type) {
        fx = new QueueFixture(root, type, SLOTS_PER_FILE);
        return fx;
    }

    /** Closes the table, edits the files, reopens. */
    private void crashAndEdit(Consumer<QueueFixture> edit) {
        fx.table.close();
        edit.accept(fx);
        fx.open();
    }

    private Path fileOf(long slot) {
        return fx.queueDir().resolve(SlotLog.fileName((slot - slot % SLOTS_PER_FILE) * fx.slotBytes()));
    }

    private long byteOf(long slot) {
        return (slot % SLOTS_PER_FILE) * fx.slotBytes();
    }

    private void zeroSlotBytes(long slot, int from, int to) {
        write(fileOf(slot), byteOf(slot) + from, new byte[to - from]);
    }

    private static void write(Path file, long at, byte[] bytes) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), at);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private byte[] slotBytesOnDisk(long slot) {
        try (FileChannel channel = FileChannel.open(fileOf(slot), StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(fx.slotBytes());
            channel.read(buffer, byteOf(slot));
            return buffer.array();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void truncateFile(Path file, long length) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private void assertEndsAfter(Rec last) {
        assertEquals(last.next(), fx.queue.maxOffset());
        assertEquals(last.end(), fx.queue.maxPhysicalEnd());
        assertEquals(last.slot(fx.type), fx.queue.lookup(last.offset()));
        assertEquals(SlotReadStatus.BEYOND_MAX, fx.queue.lookup(last.next()).status());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aTornTrailingSlotIsDropped(ConsumeQueueType type) {
        fixture(type).appendMany(6);
        Rec fifth = fx.records.get(4);
        crashAndEdit(f -> zeroSlotBytes(5, fx.slotBytes() / 2, fx.slotBytes()));
        assertEndsAfter(fifth);
        fx.records.remove(5);
        Rec redone = fx.append(fx.next(1, 9_000));
        assertEquals(redone.slot(type), fx.queue.lookup(redone.offset()));
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aSlotStartingBeforeThePreviousRecordEndsIsTorn(ConsumeQueueType type) {
        fixture(type).appendMany(6);
        Rec fifth = fx.records.get(4);
        // A well-formed slot whose position went backwards, as if a stale page had been persisted.
        crashAndEdit(f -> write(fileOf(5), byteOf(5), ByteBuffer.allocate(8).putLong(fifth.position()).array()));
        assertEndsAfter(fifth);
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aZeroFilledTailIsEmptyAndItsEmptyFileGoes(ConsumeQueueType type) {
        fixture(type).appendMany(6);
        crashAndEdit(f -> {
            zeroSlotBytes(4, 0, fx.slotBytes());
            zeroSlotBytes(5, 0, fx.slotBytes());
        });
        assertEndsAfter(fx.records.get(3));
        assertEquals(1, fx.files().size());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void slotsAfterAZeroSlotAreScrubbedSoTheyCannotComeBack(ConsumeQueueType type) {
        fixture(type).appendMany(7);
        crashAndEdit(f -> zeroSlotBytes(5, 0, fx.slotBytes()));
        assertEndsAfter(fx.records.get(4));
        assertArrayEquals(new byte[fx.slotBytes()], slotBytesOnDisk(6), "the stray slot 6 was zeroed on disk");

        // Re-dispatch writes slot 5 again at the same CommitLog position; the old slot 6 would chain after it.
        fx.records.subList(5, 7).clear();
        Rec redone = fx.append(fx.next(fx.type == ConsumeQueueType.SIMPLE ? 1 : 3, 9_000));
        fx.reopen();
        assertEndsAfter(redone);
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void afterACleanStopTheQueueReopensAtItsEndAndAppendsGoOn(ConsumeQueueType type) {
        fixture(type).appendMany(6);
        fx.lastStop = LastStop.CLEAN;
        fx.reopen();
        assertEndsAfter(fx.records.get(5));

        Rec next = fx.append(fx.next(type == ConsumeQueueType.SIMPLE ? 1 : 4, 9_000));
        Rec after = fx.append(fx.next(1, 9_001));
        fx.reopen();
        assertEndsAfter(after);
        assertEquals(next.slot(type), fx.queue.lookup(next.offset()));
        assertEquals(2, fx.files().size());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aShortNewestFileIsExtended(ConsumeQueueType type) {
        fixture(type).appendMany(5);
        crashAndEdit(f -> truncateFile(fileOf(4), fx.slotBytes() + 3L));
        assertEquals((long) SLOTS_PER_FILE * fx.slotBytes(), fileOf(4).toFile().length());
        assertEndsAfter(fx.records.get(4));
        fx.append(fx.next(1, 9_000));
        assertEndsAfter(fx.last());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void anEmptyNewestFileLeftByACrashDuringCreationIsDropped(ConsumeQueueType type) {
        fixture(type).appendMany(4);
        crashAndEdit(f -> {
            try {
                Files.createFile(fileOf(4));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertEndsAfter(fx.records.get(3));
        assertEquals(1, fx.files().size());
        fx.appendMany(2);
        assertEndsAfter(fx.last());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aShortOlderFileFailsTheLoadNamingTheFile(ConsumeQueueType type) {
        fixture(type).appendMany(6);
        fx.table.close();
        truncateFile(fileOf(0), 10);
        IOException e = assertThrows(IOException.class,
                () -> ConsumeQueueTable.open(fx.settings, topic -> type, StoreTimeLookup.NONE));
        assertTrue(e.getMessage().contains(fileOf(0).toString()), e.getMessage());
        fx = null;
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aMissingMiddleFileFailsTheLoadNamingIt(ConsumeQueueType type) throws IOException {
        fixture(type).appendMany(10);
        fx.table.close();
        Files.delete(fileOf(4));
        IOException e = assertThrows(IOException.class,
                () -> ConsumeQueueTable.open(fx.settings, topic -> type, StoreTimeLookup.NONE));
        assertTrue(e.getMessage().contains(fileOf(4).getFileName().toString()), e.getMessage());
        fx = null;
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aFileOffTheFileBoundaryFailsTheLoad(ConsumeQueueType type) throws IOException {
        fixture(type).appendMany(6);
        fx.table.close();
        Path odd = fx.queueDir().resolve(SlotLog.fileName(fx.slotBytes() * 5L));
        Files.move(fileOf(4), odd);
        IOException e = assertThrows(IOException.class,
                () -> ConsumeQueueTable.open(fx.settings, topic -> type, StoreTimeLookup.NONE));
        assertTrue(e.getMessage().contains(odd.toString()), e.getMessage());
        fx = null;
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void aBadSlotInAnOlderFileWithinTheScanWindowCutsThere(ConsumeQueueType type) {
        fixture(type).appendMany(10);
        crashAndEdit(f -> zeroSlotBytes(1, 0, fx.slotBytes()));
        assertEndsAfter(fx.records.get(0));
        assertEquals(1, fx.files().size());
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void reopeningRepeatedlyGivesTheSameState(ConsumeQueueType type) {
        fixture(type).appendMany(9);
        long min = fx.queue.minOffset();
        long max = fx.queue.maxOffset();
        long end = fx.queue.maxPhysicalEnd();
        for (int i = 0; i < 3; i++) {
            fx.reopen();
            assertEquals(min, fx.queue.minOffset());
            assertEquals(max, fx.queue.maxOffset());
            assertEquals(end, fx.queue.maxPhysicalEnd());
        }
        for (Rec rec : fx.records) {
            assertEquals(rec.slot(type), fx.queue.lookup(rec.offset()));
        }
    }

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void strayFilesInTheQueueDirectoryAreIgnored(ConsumeQueueType type) {
        fixture(type).appendMany(3);
        crashAndEdit(f -> {
            try {
                Files.writeString(fx.queueDir().resolve("notes.txt"), "x");
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertEndsAfter(fx.last());
    }

    @Test
    void aSimpleQueueWhoseFirstRecordWasTornKeepsItsStartOffset() {
        fixture(ConsumeQueueType.SIMPLE).append(fx.startAt(6, 1, 1_000));
        crashAndEdit(f -> zeroSlotBytes(6, 0, fx.slotBytes()));
        assertEquals(6, fx.queue.minOffset(), "the fillers remember where the queue starts");
        assertEquals(6, fx.queue.maxOffset());
        assertEquals(0, fx.queue.maxPhysicalEnd());
        fx.records.clear();
        fx.append(fx.startAt(6, 1, 2_000));
    }

    @Test
    void aBatchSlotMissingItsReservedTailIsTorn() {
        fixture(ConsumeQueueType.BATCH).appendMany(6);
        crashAndEdit(f -> zeroSlotBytes(5, BatchConsumeQueueDescriptor.COMPACTED_OFFSET_OFFSET, fx.slotBytes()));
        assertEndsAfter(fx.records.get(4));
    }

    @Test
    void aBatchSlotWhoseBaseDoesNotFollowIsTorn() {
        fixture(ConsumeQueueType.BATCH).appendMany(6);
        long wrongBase = fx.records.get(5).offset() + 1;
        crashAndEdit(f -> write(fileOf(5), byteOf(5) + BatchConsumeQueueDescriptor.BASE_OFFSET_OFFSET,
                ByteBuffer.allocate(8).putLong(wrongBase).array()));
        assertEndsAfter(fx.records.get(4));
    }
}
