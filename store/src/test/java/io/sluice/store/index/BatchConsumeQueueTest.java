package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchConsumeQueueTest extends ConsumeQueueContractTest {

    @Override
    ConsumeQueueType type() {
        return ConsumeQueueType.BATCH;
    }

    @Test
    void filesAreNamedByTheBytePositionOfTheirFirstSlot() {
        fx.appendMany(9);
        List<String> names = fx.files().stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("00000000000000000000", "00000000000000000184", "00000000000000000368"), names);
        assertEquals(4L * 46, fx.files().get(0).toFile().length(), "pre-allocated to full size");
    }

    @Test
    void anOffsetInsideABatchReturnsTheWholeBatch() {
        Rec batch = fx.append(fx.next(32, 1_000));
        for (long offset = 0; offset < 32; offset++) {
            assertEquals(batch.slot(ConsumeQueueType.BATCH), fx.queue.lookup(offset));
        }
        SlotBatch slots = new SlotBatch(8);
        assertEquals(SlotReadStatus.FOUND, fx.queue.read(17, slots));
        assertEquals(0, slots.baseOffset(0));
        assertEquals(32, slots.nextOffset());
    }

    @Test
    void aBatchStraddlingTheEndIsAConflict() {
        fx.appendMany(2);
        Rec next = fx.next(4, 2_000);
        Rec straddling = new Rec(next.offset() - 1, 4, next.position(), next.size(), 0, 0);
        assertEquals(SlotAppendStatus.CONFLICT, fx.queue.append(straddling.entry()));
    }

    @Test
    void aReplayedBatchWithAnotherSplitIsAConflict() {
        Rec batch = fx.append(fx.next(5, 1_000));
        fx.appendMany(2);
        Rec resplit = new Rec(batch.offset(), 3, batch.position(), batch.size(), 0, 0);
        assertEquals(SlotAppendStatus.CONFLICT, fx.queue.append(resplit.entry()));
        Rec inside = new Rec(batch.offset() + 1, 2, batch.position(), batch.size(), 0, 0);
        assertEquals(SlotAppendStatus.CONFLICT, fx.queue.append(inside.entry()));
    }

    @Test
    void aBatchAboveTheSlotLimitIsRejectedNamingTheCount() {
        assertRejects(() -> fx.queue.append(0, 32_768, 0, 100, 0, 0), "batchCount 32768");
        assertEquals(SlotAppendStatus.APPENDED, fx.queue.append(0, 32_767, 0, 100, 0, 0));
        assertEquals(32_767, fx.queue.maxOffset());
    }
}
