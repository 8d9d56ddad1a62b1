package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The consumer's per-queue bookkeeping against a model: which offset may be committed (never past a message still
 * being consumed), how many messages and body bytes are held (flow control), for both consumption modes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProcessQueuePropertyTest {

    private static final MessageQueue QUEUE = new MessageQueue("T", "b", 0);

    @Property(tries = 300)
    void concurrentConsumptionCommitsTheSmallestUnfinishedOffset(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 40) Integer> offsets,
            @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 40) Integer> finishedOffsets) {
        TreeMap<Long, Integer> model = new TreeMap<>();
        ProcessQueue queue = pulled(offsets, model);
        long highest = model.lastKey();
        assertEquals(model.size(), queue.count());
        assertEquals(sum(model), queue.bodyBytes());
        for (int offset : finishedOffsets) {
            model.remove((long) offset);
            long commit = queue.remove(List.of(message(offset)));
            assertEquals(model.isEmpty() ? highest + 1 : model.firstKey(), commit, "after finishing " + offset);
            assertEquals(model.size(), queue.count());
            assertEquals(sum(model), queue.bodyBytes());
        }
        assertEquals(model.isEmpty(), queue.isEmpty());
    }

    @Property(tries = 300)
    void orderlyConsumptionTakesInOffsetOrderAndCommitsPastTheBatch(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 100) Integer> offsets,
            @ForAll @IntRange(min = 1, max = 8) int batch,
            @ForAll @Size(max = 20) List<Boolean> commits) {
        TreeMap<Long, Integer> model = new TreeMap<>();
        ProcessQueue queue = pulled(offsets, model);
        for (boolean commit : commits) {
            List<ReceivedMessage> taken = queue.take(batch);
            List<Long> expected = new ArrayList<>(model.keySet()).subList(0, Math.min(batch, model.size()));
            assertEquals(expected, taken.stream().map(ReceivedMessage::queueOffset).toList());
            assertEquals(model.size(), queue.count(), "taken messages still count");
            if (commit) {
                long next = queue.commitTaken();
                assertEquals(expected.isEmpty() ? -1 : expected.get(expected.size() - 1) + 1, next);
                expected.forEach(model::remove);
            } else {
                queue.rollbackTaken();
            }
            assertEquals(model.size(), queue.count());
            assertEquals(sum(model), queue.bodyBytes());
        }
    }

    @Test
    void suspensionsCountPerOffsetAndEndWithTheCommit() {
        ProcessQueue queue = new ProcessQueue(QUEUE);
        queue.add(List.of(message(5), message(6), message(7)));
        queue.take(2);
        assertEquals(1, queue.suspendTaken());
        assertEquals(2, queue.suspendTaken());
        queue.rollbackTaken();
        queue.take(3);
        assertEquals(3, queue.suspendTaken(), "offsets 5 and 6 were redelivered twice before");
        assertEquals(Map.of(5L, 3, 6L, 3, 7L, 1), queue.suspends);
        assertEquals(8, queue.commitTaken());
        assertTrue(queue.suspends.isEmpty());
        assertTrue(queue.isEmpty());
        assertEquals(-1, queue.commitTaken(), "nothing taken: nothing to commit");
    }

    @Test
    void aMessagePulledTwiceIsHeldOnce() {
        ProcessQueue queue = new ProcessQueue(QUEUE);
        queue.add(List.of(message(1), message(2)));
        queue.add(List.of(message(2), message(3)));
        assertEquals(3, queue.count());
        assertEquals(sizeOf(1) + sizeOf(2) + sizeOf(3), queue.bodyBytes());
        assertEquals(1, queue.remove(List.of(message(2), message(2))));
        assertEquals(sizeOf(1) + sizeOf(3), queue.bodyBytes(), "a message finished twice frees its bytes once");
    }

    /** A queue that pulled {@code offsets} in one go; {@code model} gets each distinct offset and its body size. */
    private static ProcessQueue pulled(List<Integer> offsets, TreeMap<Long, Integer> model) {
        ProcessQueue queue = new ProcessQueue(QUEUE);
        List<ReceivedMessage> messages = new ArrayList<>();
        for (int offset : offsets) {
            messages.add(message(offset));
            model.putIfAbsent((long) offset, sizeOf(offset));
        }
        queue.add(messages);
        return queue;
    }

    private static int sizeOf(long offset) {
        return (int) (offset % 7) + 1;
    }

    private static long sum(TreeMap<Long, Integer> model) {
        return model.values().stream().mapToLong(Integer::longValue).sum();
    }

    private static ReceivedMessage message(long offset) {
        return new ReceivedMessage("T", 0, "b", offset, new byte[sizeOf(offset)], 0, 0, Map.of(), 0, null, 0, null,
                0, 0, "id" + offset);
    }
}
