package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link ConsumeQueue} must show, run once per implementation. Files hold 4 slots so that
 * every test crosses file boundaries. BatchCQ records carry 1, 2 or 3 messages.
 */
abstract class ConsumeQueueContractTest {

    static final int SLOTS_PER_FILE = 4;

    @TempDir
    Path root;

    QueueFixture fx;

    abstract ConsumeQueueType type();

    @BeforeEach
    void openQueue() {
        fx = new QueueFixture(root, type(), SLOTS_PER_FILE);
    }

    @AfterEach
    void closeQueue() {
        fx.close();
    }

    private ConsumeQueue queue() {
        return fx.queue;
    }

    private void assertHolds(Rec rec, long offset) {
        SlotLookup found = queue().lookup(offset);
        assertEquals(rec.slot(type()), found, () -> "lookup(" + offset + ")");
    }

    private void assertAllLookups() {
        for (Rec rec : fx.records) {
            for (long offset = rec.offset(); offset < rec.next(); offset++) {
                assertHolds(rec, offset);
            }
        }
    }

    @Test
    void emptyQueueHasNothing() {
        assertEquals(0, queue().minOffset());
        assertEquals(0, queue().maxOffset());
        assertEquals(SlotReadStatus.BEYOND_MAX, queue().lookup(0).status());
        assertEquals(SlotReadStatus.BEYOND_MAX, queue().read(0, new SlotBatch(4)));
        assertEquals(0, queue().maxPhysicalEnd());
        assertEquals(-1, queue().earliestStoreTimeMs());
        assertEquals(0, queue().offsetByTimestamp(5, true));
        assertEquals(0, queue().offsetByTimestamp(5, false));
        assertEquals(List.of(), fx.files(), "no file before the first append");
        assertEquals(type(), queue().type());
    }

    @Test
    void appendedSlotsAreFoundAtEveryOffsetAcrossFiles() {
        fx.appendMany(10);
        assertEquals(0, queue().minOffset());
        assertEquals(fx.last().next(), queue().maxOffset());
        assertAllLookups();
        assertEquals(SlotReadStatus.BEYOND_MAX, queue().lookup(fx.last().next()).status());
        assertEquals(3, fx.files().size(), "10 slots in files of 4");
    }

    @Test
    void readReturnsConsecutiveSlotsAcrossFileBoundaries() {
        fx.appendMany(10);
        Rec third = fx.records.get(2);
        SlotBatch batch = new SlotBatch(5);
        assertEquals(SlotReadStatus.FOUND, queue().read(third.next() - 1, batch));
        assertEquals(5, batch.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(fx.records.get(2 + i).slot(type()), batch.slot(i));
        }
        assertEquals(fx.records.get(6).next(), batch.nextOffset());
    }

    @Test
    void readStopsAtTheEndOfWrittenData() {
        fx.appendMany(6);
        SlotBatch batch = new SlotBatch(32);
        assertEquals(SlotReadStatus.FOUND, queue().read(fx.records.get(4).offset(), batch));
        assertEquals(2, batch.size());
        assertEquals(fx.last().next(), batch.nextOffset());
        assertEquals(SlotReadStatus.BEYOND_MAX, queue().read(fx.last().next(), batch));
        assertTrue(batch.isEmpty());
    }

    @Test
    void reAppendingAnIndexedEntryIsADuplicateAndChangesNothing() {
        fx.appendMany(6);
        Rec second = fx.records.get(1);
        assertEquals(SlotAppendStatus.DUPLICATE, queue().append(second.entry()));
        assertEquals(SlotAppendStatus.DUPLICATE, queue().append(fx.last().entry()));
        assertEquals(fx.last().next(), queue().maxOffset());
        assertAllLookups();
    }

    @Test
    void anIndexedOffsetPointingElsewhereIsAConflict() {
        fx.appendMany(6);
        Rec second = fx.records.get(1);
        Rec moved = new Rec(second.offset(), second.batch(), second.position() + 1, second.size(), 0, 0);
        assertEquals(SlotAppendStatus.CONFLICT, queue().append(moved.entry()));
        assertAllLookups();
    }

    @Test
    void anOffsetBeyondTheNextIsAGapAndWritesNothing() {
        fx.appendMany(5);
        Rec next = fx.next(1, 5_000);
        Rec skipping = new Rec(next.offset() + 1, 1, next.position(), next.size(), 0, 0);
        assertEquals(SlotAppendStatus.GAP, queue().append(skipping.entry()));
        assertEquals(next.offset(), queue().maxOffset());
        fx.append(next);
        assertAllLookups();
    }

    @Test
    void aRecordStartingBeforeTheLastOneEndsIsAConflict() {
        fx.appendMany(3);
        Rec next = fx.next(1, 5_000);
        Rec overlapping = new Rec(next.offset(), 1, fx.last().end() - 1, next.size(), 0, 0);
        assertEquals(SlotAppendStatus.CONFLICT, queue().append(overlapping.entry()));
        assertEquals(next.offset(), queue().maxOffset());
    }

    @Test
    void aQueueCanStartAtANonZeroOffsetAndKeepsItAcrossReopen() {
        Rec first = fx.append(fx.startAt(7, 1, 1_000));
        fx.appendMany(3);
        assertEquals(7, queue().minOffset());
        assertEquals(fx.last().next(), queue().maxOffset());
        assertEquals(SlotReadStatus.BELOW_MIN, queue().lookup(6).status());
        assertEquals(SlotReadStatus.BELOW_MIN, queue().lookup(0).status());
        assertHolds(first, 7);
        fx.reopen();
        assertEquals(7, queue().minOffset());
        assertEquals(fx.last().next(), queue().maxOffset());
        assertAllLookups();
        assertEquals(SlotReadStatus.BELOW_MIN, queue().lookup(3).status());
    }

    @Test
    void timeSearchFindsFirstAtOrAfterAndLastAtOrBefore() {
        long[] times = {100, 110, 110, 110, 120, 130, 130, 140};
        for (long time : times) {
            fx.append(fx.next(type() == ConsumeQueueType.SIMPLE ? 1 : 2, time));
        }
        long perRecord = type() == ConsumeQueueType.SIMPLE ? 1 : 2;
        assertEquals(0, queue().offsetByTimestamp(50, true));
        assertEquals(0, queue().offsetByTimestamp(100, true));
        assertEquals(perRecord, queue().offsetByTimestamp(101, true));
        assertEquals(perRecord, queue().offsetByTimestamp(110, true), "first of the equal run");
        assertEquals(4 * perRecord, queue().offsetByTimestamp(111, true));
        assertEquals(queue().maxOffset(), queue().offsetByTimestamp(141, true));
        assertEquals(0, queue().offsetByTimestamp(50, false), "nothing at or before: min");
        assertEquals(perRecord - 1, queue().offsetByTimestamp(100, false));
        assertEquals(4 * perRecord - 1, queue().offsetByTimestamp(110, false), "last of the equal run");
        assertEquals(4 * perRecord - 1, queue().offsetByTimestamp(119, false));
        assertEquals(queue().maxOffset() - 1, queue().offsetByTimestamp(10_000, false));
        assertEquals(100, queue().earliestStoreTimeMs());
    }

    @Test
    void maxPhysicalEndIsTheEndOfTheLastRecord() {
        fx.appendMany(5);
        assertEquals(fx.last().end(), queue().maxPhysicalEnd());
        fx.reopen();
        assertEquals(fx.last().end(), queue().maxPhysicalEnd());
    }

    @Test
    void truncateDropsRecordsAtOrAfterThePosition() {
        fx.appendMany(10);
        Rec sixth = fx.records.get(5);
        assertEquals(5, queue().truncateFromPosition(sixth.position()));
        assertEquals(sixth.offset(), queue().maxOffset());
        assertEquals(SlotReadStatus.BEYOND_MAX, queue().lookup(sixth.offset()).status());
        assertEquals(fx.records.get(4).end(), queue().maxPhysicalEnd());
        assertEquals(2, fx.files().size(), "the third file (slots 8, 9) is gone");
        fx.records.subList(5, 10).clear();
        assertAllLookups();

        Rec again = fx.append(fx.next(sixth.batch(), 9_000));
        assertHolds(again, again.offset());
        fx.reopen();
        assertEquals(again.next(), queue().maxOffset());
        assertAllLookups();
    }

    @Test
    void truncateBetweenRecordsKeepsTheRecordThatStartsBefore() {
        fx.appendMany(6);
        Rec fourth = fx.records.get(3);
        assertEquals(2, queue().truncateFromPosition(fourth.position() + 1));
        assertEquals(fourth.next(), queue().maxOffset());
        assertEquals(0, queue().truncateFromPosition(fourth.end() + 1000), "nothing at or after it");
    }

    @Test
    void truncateToZeroEmptiesTheQueue() {
        fx.appendMany(6);
        queue().truncateFromPosition(0);
        assertEquals(0, queue().maxOffset());
        assertEquals(0, queue().minOffset());
        assertEquals(0, queue().maxPhysicalEnd());
        assertEquals(1, fx.files().size(), "the first file stays");
        fx.records.clear();
        fx.appendMany(3);
        fx.reopen();
        assertAllLookups();
        assertEquals(fx.last().next(), queue().maxOffset());
    }

    @Test
    void trimDeletesWholeFilesBelowThePositionAndRaisesMin() {
        fx.appendMany(10);
        Rec seventh = fx.records.get(6);
        assertEquals(1, queue().trimBelowPosition(seventh.position()), "only the first file is wholly below");
        assertEquals(seventh.offset(), queue().minOffset());
        assertEquals(SlotReadStatus.BELOW_MIN, queue().lookup(seventh.offset() - 1).status());
        assertEquals(SlotReadStatus.BELOW_MIN, queue().read(0, new SlotBatch(2)));
        assertHolds(seventh, seventh.offset());
        assertEquals(2, fx.files().size());
        assertEquals(1_000 + 10 * 6, queue().earliestStoreTimeMs());
        assertEquals(seventh.offset(), queue().offsetByTimestamp(0, true), "time search starts at min");
    }

    @Test
    void trimBeyondEverythingKeepsTheLastFileAndEmptiesTheQueue() {
        fx.appendMany(10);
        assertEquals(2, queue().trimBelowPosition(Long.MAX_VALUE));
        assertEquals(queue().maxOffset(), queue().minOffset());
        assertEquals(1, fx.files().size());
        assertEquals(-1, queue().earliestStoreTimeMs());
        assertEquals(fx.last().end(), queue().maxPhysicalEnd(), "the last record is still known to recovery");
        Rec next = fx.append(fx.next(1, 9_000));
        assertHolds(next, next.offset());
    }

    @Test
    void trimNeverLowersMin() {
        fx.appendMany(10);
        queue().trimBelowPosition(fx.records.get(8).position());
        long min = queue().minOffset();
        queue().trimBelowPosition(fx.records.get(2).position());
        assertEquals(min, queue().minOffset());
    }

    @Test
    void reopenGivesTheSameOffsetsAndSlots() {
        fx.appendMany(9);
        Rec sixth = fx.records.get(5);
        queue().trimBelowPosition(sixth.position());
        long max = queue().maxOffset();
        fx.reopen();
        assertEquals(max, queue().maxOffset());
        assertEquals(fx.records.get(4).offset(), queue().minOffset(), "min is the first record on disk");
        queue().trimBelowPosition(sixth.position());
        assertEquals(sixth.offset(), queue().minOffset(), "re-applying the CommitLog minimum restores it");
        fx.records.subList(0, 5).clear();
        assertAllLookups();
    }

    @Test
    void negativeArgumentsAreRejectedNamingTheValue() {
        fx.appendMany(2);
        assertRejects(() -> queue().lookup(-1), "-1");
        assertRejects(() -> queue().read(-5, new SlotBatch(1)), "-5");
        assertRejects(() -> queue().offsetByTimestamp(-7, true), "-7");
        assertRejects(() -> queue().truncateFromPosition(-3), "-3");
        assertRejects(() -> queue().trimBelowPosition(-4), "-4");
        assertRejects(() -> queue().append(-2, 1, 0, 10, 0, 0), "-2");
        assertRejects(() -> queue().append(2, 1, 5000, 0, 0, 0), "sizeBytes 0");
    }

    @Test
    void anEntryOfAnotherQueueIsRejected() {
        DispatchEntry other = new DispatchEntry("Other", QueueFixture.QUEUE_ID, 0, 1, 0, 10, 0, 0, 0);
        assertRejects(() -> queue().append(other), "Other-3");
        DispatchEntry otherId = new DispatchEntry(QueueFixture.TOPIC, 4, 0, 1, 0, 10, 0, 0, 0);
        assertRejects(() -> queue().append(otherId), "TopicA-4");
    }

    @Test
    void aClosedQueueRefusesAppendsAndReads() {
        fx.appendMany(3);
        queue().close();
        assertEquals(SlotAppendStatus.CLOSED, queue().append(fx.next(1, 0).entry()));
        assertEquals(SlotReadStatus.UNAVAILABLE, queue().lookup(0).status());
        assertEquals(SlotReadStatus.UNAVAILABLE, queue().read(0, new SlotBatch(3)));
        queue().close();
    }

    @Test
    void destroyDeletesFilesAndDirectory() {
        fx.appendMany(6);
        queue().destroy();
        assertFalse(Files.exists(fx.queueDir()));
        assertEquals(SlotAppendStatus.CLOSED, queue().append(fx.next(1, 0).entry()));
    }

    @Test
    void flushedSlotsSurviveReopen() {
        fx.appendMany(7);
        queue().flush();
        fx.appendMany(2);
        queue().flush();
        fx.reopen();
        assertAllLookups();
    }

    @Test
    void lookupResultIsASlotOrAnAbsentStatus() {
        fx.appendMany(1);
        assertInstanceOf(QueueSlot.class, queue().lookup(0));
        assertInstanceOf(SlotLookup.Absent.class, queue().lookup(100));
    }

    static void assertRejects(Executable call, String mustName) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(mustName), () -> "message '" + e.getMessage() + "' names " + mustName);
    }
}
