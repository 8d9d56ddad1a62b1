package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.QueueFixture.Rec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** SimpleCQ round trip: any slots appended read back exactly, by lookup and by batch read, before and after reopen. */
class SimpleConsumeQueuePropertyTest {

    @Property(tries = 150)
    void slotsReadBackExactlyBeforeAndAfterReopen(
            @ForAll @Size(min = 1, max = 150) List<@LongRange(min = 0, max = 100_000) Long> gaps,
            @ForAll @Size(150) List<@IntRange(min = 1, max = 4_194_304) Integer> sizes,
            @ForAll @Size(150) List<Long> tagsCodes,
            @ForAll @LongRange(min = 0, max = 2_000) long startOffset,
            @ForAll @IntRange(min = 1, max = 9) int slotsPerFile,
            @ForAll @IntRange(min = 1, max = 10) int readCapacity) throws IOException {
        Path root = Files.createTempDirectory("cq-roundtrip");
        try (QueueFixture fx = new QueueFixture(root, ConsumeQueueType.SIMPLE, slotsPerFile)) {
            long position = 0;
            for (int i = 0; i < gaps.size(); i++) {
                position += gaps.get(i);
                fx.append(new Rec(startOffset + i, 1, position, sizes.get(i), tagsCodes.get(i), 0));
                position += sizes.get(i);
            }
            check(fx, startOffset, readCapacity);
            fx.reopen();
            check(fx, startOffset, readCapacity);
        } finally {
            QueueFixture.deleteRecursively(root);
        }
    }

    private static void check(QueueFixture fx, long startOffset, int readCapacity) {
        long max = startOffset + fx.records.size();
        assertEquals(startOffset, fx.queue.minOffset());
        assertEquals(max, fx.queue.maxOffset());
        assertEquals(fx.last().end(), fx.queue.maxPhysicalEnd());
        SlotBatch slots = new SlotBatch(readCapacity);
        for (long offset = Math.max(0, startOffset - 2); offset < max + 2; offset++) {
            if (offset < startOffset) {
                assertEquals(SlotReadStatus.BELOW_MIN, fx.queue.lookup(offset).status());
                assertEquals(SlotReadStatus.BELOW_MIN, fx.queue.read(offset, slots));
            } else if (offset >= max) {
                assertEquals(SlotReadStatus.BEYOND_MAX, fx.queue.lookup(offset).status());
            } else {
                int index = (int) (offset - startOffset);
                assertEquals(fx.records.get(index).slot(ConsumeQueueType.SIMPLE), fx.queue.lookup(offset));
                assertEquals(SlotReadStatus.FOUND, fx.queue.read(offset, slots));
                int expected = Math.min(readCapacity, fx.records.size() - index);
                assertEquals(expected, slots.size());
                for (int i = 0; i < expected; i++) {
                    assertEquals(fx.records.get(index + i).slot(ConsumeQueueType.SIMPLE), slots.slot(i));
                }
            }
        }
    }
}
