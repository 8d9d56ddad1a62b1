package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared BatchCQ slots: records back to back in the log grow the last slot, up to a byte limit; so do records that
 * lie past other queues' records, while the slot's span, its own bytes, its record count and the CommitLog segment
 * allow (only when the dispatcher gives the record's sequence number).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchConsumeQueueSharedSlotTest {

    private static final int UNIT_BYTES = 1_000;
    private static final int SPAN_BYTES = 4_000;
    private static final int SEGMENT_BYTES = 10_000;

    @TempDir
    Path dir;
    private ConsumeQueueTable table;
    private ConsumeQueue queue;

    @BeforeEach
    void open() throws IOException {
        reopen(LastStop.CRASH);
    }

    private void reopen(LastStop stop) throws IOException {
        if (table != null) {
            table.close();
        }
        IndexSettings settings = IndexSettings.defaults(dir).withBatchCqSlotsPerFile(64)
                .withBatchCqUnitMaxBytes(UNIT_BYTES).withBatchCqSpan(SPAN_BYTES, SEGMENT_BYTES);
        table = ConsumeQueueTable.open(settings, topic -> ConsumeQueueType.BATCH, (position, size) -> -1L, stop);
        queue = table.getOrCreate("T", 0);
    }

    @AfterEach
    void close() {
        table.close();
    }

    private SlotAppendStatus append(long offset, int count, long position, int size) {
        return queue.append(offset, count, position, size, 7, 1_000 + position);
    }

    @Test
    void recordsBackToBackGrowTheLastSlotAndAreVisibleAtOnce() {
        assertEquals(SlotAppendStatus.APPENDED, append(0, 10, 0, 300));
        assertEquals(10, queue.maxOffset());
        assertEquals(SlotAppendStatus.APPENDED, append(10, 10, 300, 300));
        assertEquals(20, queue.maxOffset());
        assertEquals(SlotAppendStatus.APPENDED, append(20, 5, 600, 300));
        assertEquals(25, queue.maxOffset());
        assertEquals(new QueueSlot(0, 900, 7, 0, 25, 1_000), queue.lookup(13));
        SlotBatch slots = new SlotBatch(4);
        assertEquals(SlotReadStatus.FOUND, queue.read(21, slots));
        assertEquals(1, slots.size());
        assertEquals(900, slots.sizeBytes(0));
    }

    @Test
    void aGapInPositionsOtherTagsOrTheByteLimitStartANewSlot() {
        append(0, 1, 0, 400);
        append(1, 1, 400, 400);
        append(2, 1, 800, 400);          // 1,200 bytes would pass the limit
        append(3, 1, 1_300, 100);        // not back to back
        queue.append(4, 1, 1_400, 100, 8, 0); // other tags code
        assertEquals(new QueueSlot(0, 800, 7, 0, 2, 1_000), queue.lookup(1));
        assertEquals(800, ((QueueSlot) queue.lookup(2)).position());
        assertEquals(1, ((QueueSlot) queue.lookup(2)).batchCount());
        assertEquals(1_300, ((QueueSlot) queue.lookup(3)).position());
        assertEquals(1_400, ((QueueSlot) queue.lookup(4)).position());
        assertEquals(5, queue.maxOffset());
    }

    @Test
    void aRecordAsLargeAsTheLimitGetsItsOwnSlotAtOnce() {
        assertEquals(SlotAppendStatus.APPENDED, append(0, 3, 0, UNIT_BYTES));
        assertEquals(SlotAppendStatus.APPENDED, append(3, 1, UNIT_BYTES, 10));
        assertEquals(UNIT_BYTES, ((QueueSlot) queue.lookup(0)).sizeBytes(), "nothing can join a full slot");
        assertEquals(UNIT_BYTES, ((QueueSlot) queue.lookup(3)).position());
    }

    @Test
    void reDispatchOfRecordsInsideASharedSlotIsADuplicateAndAnotherSplitAConflict() {
        append(0, 10, 0, 300);
        append(10, 10, 300, 300);
        append(20, 10, 600, 300);
        assertEquals(SlotAppendStatus.DUPLICATE, append(0, 10, 0, 300));
        assertEquals(SlotAppendStatus.DUPLICATE, append(10, 10, 300, 300));
        assertEquals(SlotAppendStatus.DUPLICATE, append(20, 10, 600, 300));
        assertEquals(SlotAppendStatus.CONFLICT, append(10, 10, 800, 300), "bytes beyond the slot's");
        assertEquals(SlotAppendStatus.CONFLICT, append(0, 10, 0, 900), "the whole slot's bytes for part of its offsets");
        assertEquals(SlotAppendStatus.CONFLICT, append(20, 5, 600, 300), "ends at the slot's end with fewer messages");
        assertEquals(30, queue.maxOffset());
    }

    @Test
    void truncationInsideASharedSlotDropsTheWholeSlotAndSaysWhereItStarted() throws IOException {
        append(0, 5, 0, 90);
        append(5, 10, 100, 300); // not back to back: a new slot at 100...
        append(15, 10, 400, 300); // ... which this one joins
        assertEquals(Long.MAX_VALUE, queue.startOfSlotReachingPast(700), "nothing reaches past the end");
        assertEquals(100, queue.startOfSlotReachingPast(400));
        assertEquals(1, queue.truncateFromPosition(400), "the shared slot reaches past the cut");
        assertEquals(5, queue.maxOffset());
        assertInstanceOf(QueueSlot.class, queue.lookup(4));
        assertEquals(SlotAppendStatus.APPENDED, append(5, 10, 100, 300), "re-dispatch from its start rebuilds it");
        assertEquals(15, queue.maxOffset());
    }

    @Test
    void aGrownSlotSurvivesAReopenAndIsNotGrownAfterIt() throws IOException {
        append(0, 5, 0, 100);
        append(5, 5, 100, 100);
        reopen(LastStop.CRASH);
        assertEquals(10, queue.maxOffset());
        assertEquals(new QueueSlot(0, 200, 7, 0, 10, 1_000), queue.lookup(7));
        assertEquals(SlotAppendStatus.DUPLICATE, append(5, 5, 100, 100), "re-dispatch of its second record");
        assertEquals(SlotAppendStatus.APPENDED, append(10, 5, 200, 100));
        assertEquals(200, ((QueueSlot) queue.lookup(10)).position(), "a new slot after the reopen");
    }

    private SlotAppendStatus append(long offset, int count, long position, int size, long record) {
        return queue.append(offset, count, position, size, 7, 1_000 + position, record);
    }

    private QueueSlot slotOf(long offset) {
        return assertInstanceOf(QueueSlot.class, queue.lookup(offset));
    }

    @Test
    void recordsPastOtherQueuesRecordsJoinTheSlotWhoseSizeSpansThem() {
        assertEquals(SlotAppendStatus.APPENDED, append(0, 10, 0, 200, 0));
        assertEquals(SlotAppendStatus.APPENDED, append(10, 10, 1_000, 200, 5)); // other queues' 800 bytes between
        assertEquals(SlotAppendStatus.APPENDED, append(20, 5, 2_000, 200, 9));
        assertEquals(25, queue.maxOffset());
        assertEquals(new QueueSlot(0, 2_200, 7, 0, 25, 1_000), slotOf(21), "one slot from 0 to the last end");
    }

    @Test
    void theSpanTheOwnBytesTheRecordCountAndTheSegmentEachEndASlot() {
        append(0, 1, 0, 300, 0);
        append(1, 1, 3_700, 300, 1);     // span 4,000: joins
        append(2, 1, 4_100, 100, 2);     // span 4,200 > 4,000: a new slot
        assertEquals(new QueueSlot(0, 4_000, 7, 0, 2, 1_000), slotOf(1));
        assertEquals(4_100, slotOf(2).position());

        append(3, 1, 4_300, 400, 3);     // joins: own bytes 500
        append(4, 1, 5_000, 600, 4);     // own bytes 1,100 > 1,000: a new slot
        assertEquals(new QueueSlot(4_100, 600, 7, 2, 2, 1_000 + 4_100), slotOf(3));
        assertEquals(5_000, slotOf(4).position());

        append(5, 1, 6_000, 990, 4 + SlotSharing.SPAN_MAX_RECORDS); // 1,024 records after the slot's first
        assertEquals(6_000, slotOf(5).position());

        append(6, 1, 9_500, 100, 4 + SlotSharing.SPAN_MAX_RECORDS + 1); // own bytes 1,090: a new slot
        append(7, 1, 9_950, 100, 4 + SlotSharing.SPAN_MAX_RECORDS + 2); // span 550, but it crosses the segment
        assertEquals(9_500, slotOf(6).position());
        assertEquals(new QueueSlot(9_950, 100, 7, 7, 1, 1_000 + 9_950), slotOf(7));
        assertEquals(8, queue.maxOffset());
    }

    @Test
    void withoutADispatchSequenceOnlyRecordsBackToBackJoin() {
        queue.append(0, 1, 0, 100, 7, 0);
        queue.append(1, 1, 100, 100, 7, 0);     // back to back
        queue.append(2, 1, 500, 100, 7, 0);     // at a distance, sequence unknown: a new slot
        assertEquals(new QueueSlot(0, 200, 7, 0, 2, 0), slotOf(1));
        assertEquals(500, slotOf(2).position());
    }

    @Test
    void reDispatchInsideASpanningSlotIsADuplicateAndTruncationInsideItDropsIt() throws IOException {
        append(0, 5, 0, 100, 0);
        append(5, 5, 1_000, 100, 3);
        append(10, 5, 2_000, 100, 6);
        assertEquals(SlotAppendStatus.DUPLICATE, append(5, 5, 1_000, 100, 10));
        assertEquals(SlotAppendStatus.CONFLICT, append(5, 5, 2_100, 100, 11), "bytes beyond the slot's");
        assertEquals(0, queue.startOfSlotReachingPast(1_500));
        assertEquals(1, queue.truncateFromPosition(1_500), "the slot reaches past the cut: dropped whole");
        assertEquals(0, queue.maxOffset());
        assertEquals(SlotAppendStatus.APPENDED, append(0, 5, 0, 100, 20), "re-dispatch from its start");
        assertEquals(SlotAppendStatus.APPENDED, append(5, 5, 1_000, 100, 23));
        assertEquals(new QueueSlot(0, 1_100, 7, 0, 10, 1_000), slotOf(7));
    }

    @Test
    void aSpanningSlotSurvivesAReopen() throws IOException {
        append(0, 5, 0, 100, 0);
        append(5, 5, 1_000, 100, 3);
        reopen(LastStop.CRASH);
        assertEquals(10, queue.maxOffset());
        assertEquals(new QueueSlot(0, 1_100, 7, 0, 10, 1_000), slotOf(7));
        assertEquals(SlotAppendStatus.DUPLICATE, append(5, 5, 1_000, 100, 0), "re-dispatch of its second record");
        assertEquals(SlotAppendStatus.APPENDED, append(10, 5, 2_000, 100, 1));
        assertEquals(2_000, slotOf(10).position(), "a new slot after the reopen");
    }

    @Test
    void aSlotGrowsPastOtherRecordsToAtMost512MessagesAndBackToBackBeyond() {
        append(0, 300, 0, 100, 0);
        append(300, 212, 1_000, 100, 1);     // 512 messages: joins
        append(512, 1, 2_000, 100, 2);       // 513: a new slot
        append(513, 600, 2_100, 100, 3);     // back to back: joins whatever the count
        assertEquals(new QueueSlot(0, 1_100, 7, 0, 512, 1_000), slotOf(511));
        assertEquals(new QueueSlot(2_000, 200, 7, 512, 601, 1_000 + 2_000), slotOf(1_000));
    }
}
