package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimpleConsumeQueueTest extends ConsumeQueueContractTest {

    @Override
    ConsumeQueueType type() {
        return ConsumeQueueType.SIMPLE;
    }

    @Test
    void filesAreNamedByTheBytePositionOfTheirFirstSlot() {
        fx.appendMany(9);
        List<String> names = fx.files().stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("00000000000000000000", "00000000000000000080", "00000000000000000160"), names);
        assertEquals(4L * 20, fx.files().get(0).toFile().length(), "pre-allocated to full size");
    }

    @Test
    void aBatchIsRejectedNamingTheCount() {
        assertRejects(() -> fx.queue.append(0, 3, 0, 100, 0, 0), "batchCount 3");
    }

    @Test
    void theFirstFileOfAQueueStartingLateIsPaddedWithFillers() {
        Rec first = fx.append(fx.startAt(6, 1, 1_000));
        Path file = fx.files().get(0);
        assertEquals("00000000000000000080", file.getFileName().toString(), "offset 6 lives in the second file");
        assertEquals(first.slot(ConsumeQueueType.SIMPLE), fx.queue.lookup(6));
        assertEquals(SlotReadStatus.BELOW_MIN, fx.queue.lookup(5).status(), "the filler at offset 4 is never read");
        assertEquals(SlotReadStatus.BELOW_MIN, fx.queue.read(4, new SlotBatch(4)));
        fx.reopen();
        assertEquals(6, fx.queue.minOffset());
        assertEquals(7, fx.queue.maxOffset());
    }

    @Test
    void aTimeSearchTreatsUnreadableRecordsAsOlderThanEverything() {
        fx.appendMany(6);
        fx.timeByPosition.remove(fx.records.get(0).position());
        fx.timeByPosition.remove(fx.records.get(1).position());
        assertEquals(2, fx.queue.offsetByTimestamp(0, true));
        assertEquals(-1, fx.queue.earliestStoreTimeMs());
    }
}
