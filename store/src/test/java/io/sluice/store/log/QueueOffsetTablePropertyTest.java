package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The next-offset table against a map model, through any sequence of sets, recovery advances, topic removals and
 * clears, with queue ids that make a topic's array grow; refused input changes nothing.
 */
class QueueOffsetTablePropertyTest {

    private static final List<String> TOPICS = List.of("a", "b", "%RETRY%g");

    /** One change: kind 0 set, 1 advance, 2 remove the topic, 3 clear, 4 a refused set. */
    record Op(int kind, String topic, int queueId, long offset) {
    }

    @Property(tries = 300)
    void shouldAgreeWithAMapThroughAnySequenceOfChanges(@ForAll("ops") List<Op> ops) {
        QueueOffsetTable table = new QueueOffsetTable(new ReentrantLock());
        Map<String, Long> model = new TreeMap<>();
        for (Op op : ops) {
            String name = op.topic() + '-' + op.queueId();
            switch (op.kind()) {
                case 0 -> {
                    table.set(op.topic(), op.queueId(), op.offset());
                    model.put(name, op.offset());
                }
                case 1 -> {
                    table.advanceTo(op.topic(), op.queueId(), op.offset());
                    model.merge(name, op.offset(), Math::max);
                }
                case 2 -> {
                    table.remove(op.topic());
                    model.keySet().removeIf(k -> k.startsWith(op.topic() + '-'));
                }
                case 3 -> {
                    table.clear();
                    model.clear();
                }
                default -> {
                    assertThrows(IllegalArgumentException.class, () -> table.set(op.topic(), -1 - op.queueId(), 0));
                    assertThrows(IllegalArgumentException.class,
                            () -> table.set(op.topic(), QueueOffsetTable.MAX_QUEUE_ID + 1 + op.queueId(), 0));
                    assertThrows(IllegalArgumentException.class,
                            () -> table.set(op.topic(), op.queueId(), -1 - op.offset()));
                }
            }
            assertEquals(model.getOrDefault(name, 0L), table.nextOffset(op.topic(), op.queueId()), op.toString());
        }
        model.values().removeIf(v -> v == 0);
        assertEquals(model, table.snapshot());
        for (String topic : TOPICS) {
            assertEquals(model.getOrDefault(topic + "-" + QueueOffsetTable.MAX_QUEUE_ID, 0L),
                    table.nextOffset(topic, QueueOffsetTable.MAX_QUEUE_ID), "a queue beyond the array reads 0");
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 20).map(k -> k < 10 ? 0 : k < 17 ? 1 : k - 15);
        Arbitrary<Integer> queueIds = Arbitraries.oneOf(Arbitraries.integers().between(0, 9),
                Arbitraries.integers().between(0, QueueOffsetTable.MAX_QUEUE_ID));
        Arbitrary<Long> offsets = Arbitraries.longs().between(0, 1L << 40);
        return Combinators.combine(kinds, Arbitraries.of(TOPICS), queueIds, offsets).as(Op::new).list()
                .ofMaxSize(60);
    }
}
