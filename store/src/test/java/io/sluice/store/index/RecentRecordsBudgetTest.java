package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory of recent records grows where pulls fall behind it, within the table's budget, and is given back when
 * the queue closes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecentRecordsBudgetTest {

    @TempDir
    Path dir;

    @Test
    void takesOnlyWhatRemains() {
        RecentRecordsBudget budget = new RecentRecordsBudget(100);
        assertTrue(budget.take(60));
        assertFalse(budget.take(41), "41 of 40");
        assertEquals(40, budget.remaining());
        budget.giveBack(60);
        assertEquals(100, budget.remaining());
        assertThrows(IllegalArgumentException.class, () -> new RecentRecordsBudget(-1));
    }

    /** Records of 10 messages, 100 bytes, each after 100 bytes of other queues' (so every record spans). */
    private static void append(ConsumeQueue queue, long k) {
        assertEquals(SlotAppendStatus.APPENDED, queue.append(10 * k, 10, 200 * k, 100, 7, 1_000 + k));
    }

    private static long findRecent(ConsumeQueue queue, long from) {
        long end = queue.maxOffset();
        return queue.findRecent(from, Math.min(end, from + 10), 0, Long.MAX_VALUE, (position, bytes) -> { },
                new long[queue.recentScratchLongs()]);
    }

    @Test
    void aPullBehindTheMemoryDoublesItAtTheNextRecord() throws IOException {
        IndexSettings settings = IndexSettings.defaults(dir).withBatchCqSlotsPerFile(1024);
        ConsumeQueueTable table = ConsumeQueueTable.open(settings, topic -> ConsumeQueueType.BATCH,
                (position, size) -> -1L, LastStop.CRASH);
        try {
            ConsumeQueue queue = table.getOrCreate("T", 0);
            long k = 0;
            for (; k < 100; k++) {
                append(queue, k);
            }
            int first = BatchConsumeQueue.RECENT_RECORDS;
            assertEquals(4 * first, queue.recentScratchLongs());
            long behind = 10 * (100 - first - 1); // the record just before the oldest kept
            assertEquals(-1, findRecent(queue, behind), "not kept");
            assertEquals(10 * (100 - first), findRecent(queue, 10 * (100 - first)), "the oldest kept");
            append(queue, k++);
            assertEquals(8 * first, queue.recentScratchLongs(), "doubled at the next record");
            assertEquals(-1, findRecent(queue, behind), "what was forgotten stays so");
            for (int i = 0; i < first; i++) {
                append(queue, k++);
            }
            assertEquals(8 * first, queue.recentScratchLongs(), "no pull asked for more");
            long oldest = 10 * (k - 2 * first);
            assertEquals(oldest, findRecent(queue, oldest), "twice as many records kept");
            while (queue.recentScratchLongs() < 4 * BatchConsumeQueue.MAX_RECENT_RECORDS) {
                findRecent(queue, 0);
                append(queue, k++);
            }
            findRecent(queue, 0);
            append(queue, k++);
            assertEquals(4 * BatchConsumeQueue.MAX_RECENT_RECORDS, queue.recentScratchLongs(), "at most this many");
        } finally {
            table.close();
        }
    }

    @Test
    void queuesGrowOnlyWithinTheBudgetAndGiveItBackWhenTheyClose() throws IOException {
        int first = BatchConsumeQueue.RECENT_RECORDS;
        RecentRecordsBudget budget = new RecentRecordsBudget(first);
        IndexSettings settings = IndexSettings.defaults(dir);
        BatchConsumeQueue a = BatchConsumeQueue.open("T", 0, dir.resolve("a"), 1024, 2, settings.slotSharing(),
                budget, LastStop.CRASH);
        BatchConsumeQueue b = BatchConsumeQueue.open("T", 1, dir.resolve("b"), 1024, 2, settings.slotSharing(),
                budget, LastStop.CRASH);
        try {
            long k = 0;
            for (; k < 3 * first; k++) {
                append(a, k);
                append(b, k);
            }
            findRecent(a, 0);
            append(a, k);
            assertEquals(8 * first, a.recentScratchLongs(), "a took the whole budget");
            assertEquals(0, budget.remaining());
            findRecent(b, 0);
            append(b, k++);
            assertEquals(4 * first, b.recentScratchLongs(), "nothing left for b");
            a.close();
            assertEquals(first, budget.remaining(), "given back");
            a.destroy();
            assertEquals(first, budget.remaining(), "given back once, though closed and then destroyed");
            findRecent(b, 0);
            append(b, k);
            assertEquals(8 * first, b.recentScratchLongs(), "b grows once a gave back");
        } finally {
            b.close();
        }
        assertEquals(first, budget.remaining());
    }
}
