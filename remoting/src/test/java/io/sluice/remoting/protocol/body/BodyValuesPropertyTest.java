package io.sluice.remoting.protocol.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSON;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The value rules every JSON body shares: defensive copies keep order and refuse nulls by field name; queues order by
 * topic, broker name and id (consistently with equality); queue-keyed tables read back from both the standard and
 * Apache's bare-object key form and refuse anything else; a version bump keeps the state version.
 */
class BodyValuesPropertyTest {

    @Property(tries = 300)
    void copiesKeepOrderAndCannotBeChanged(@ForAll @Size(max = 12) List<@StringLength(max = 5) String> items) {
        List<String> list = Copies.list(items, "items");
        assertEquals(items, list);
        assertThrows(UnsupportedOperationException.class, () -> list.add("x"));
        assertEquals(new ArrayList<>(new LinkedHashSet<>(items)), new ArrayList<>(Copies.set(items, "items")),
                "a set keeps the first occurrence's order");
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            positions.put(items.get(i), i);
        }
        Map<String, Integer> copy = Copies.map(positions, "positions");
        assertEquals(new ArrayList<>(positions.keySet()), new ArrayList<>(copy.keySet()));
        assertThrows(UnsupportedOperationException.class, () -> copy.put("y", 1));
    }

    @Test
    @Timeout(10)
    void absentCollectionsAreEmptyAndNullMembersAreRefusedByName() {
        assertEquals(List.of(), Copies.list(null, "brokerDatas"));
        assertEquals(Map.of(), Copies.map(null, "filterServerTable"));
        assertEquals(0, Copies.set(null, "tagsSet").size());
        assertEquals("brokerDatas has a null element", assertThrows(IllegalArgumentException.class,
                () -> Copies.list(Arrays.asList("a", null), "brokerDatas")).getMessage());
        assertEquals("tagsSet has a null element", assertThrows(IllegalArgumentException.class,
                () -> Copies.set(Arrays.asList(null, "b"), "tagsSet")).getMessage());
        Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "v");
        assertEquals("table has a null key", assertThrows(IllegalArgumentException.class,
                () -> Copies.map(nullKey, "table")).getMessage());
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("k", null);
        assertEquals("table has a null value for key k", assertThrows(IllegalArgumentException.class,
                () -> Copies.map(nullValue, "table")).getMessage());
        assertEquals("topic is missing", assertThrows(IllegalArgumentException.class,
                () -> new MessageQueue(null, "b", 0)).getMessage());
    }

    @Property(tries = 500)
    void queuesOrderByTopicThenBrokerThenIdConsistentlyWithEquality(
            @ForAll @StringLength(min = 1, max = 3) @AlphaChars String topicA,
            @ForAll @StringLength(min = 1, max = 3) @AlphaChars String brokerA, @ForAll @IntRange(max = 3) int idA,
            @ForAll @StringLength(min = 1, max = 3) @AlphaChars String topicB,
            @ForAll @StringLength(min = 1, max = 3) @AlphaChars String brokerB, @ForAll @IntRange(max = 3) int idB) {
        MessageQueue a = new MessageQueue(topicA, brokerA, idA);
        MessageQueue b = new MessageQueue(topicB, brokerB, idB);
        int expected = !topicA.equals(topicB) ? topicA.compareTo(topicB)
                : !brokerA.equals(brokerB) ? brokerA.compareTo(brokerB) : Integer.compare(idA, idB);
        assertEquals(Integer.signum(expected), Integer.signum(a.compareTo(b)));
        assertEquals(-Integer.signum(a.compareTo(b)), Integer.signum(b.compareTo(a)));
        assertEquals(a.equals(b), a.compareTo(b) == 0);
    }

    @Property(tries = 200)
    void queueKeyedTablesReadBackFromTheStandardForm(@ForAll @Size(max = 6) List<@IntRange(max = 7) Integer> ids,
                                                     @ForAll @IntRange(min = 0, max = 1_000) int base) {
        Map<MessageQueue, TopicOffset> table = new HashMap<>();
        for (int id : ids) {
            table.put(new MessageQueue(id % 2 == 0 ? "T" : "U", "broker-" + id % 3, id),
                    new TopicOffset(base + id, base + 10L * id, 0));
        }
        Map<String, Object> wire = MessageQueueKeys.toWire(table);
        List<MessageQueue> written = new ArrayList<>();
        for (String key : wire.keySet()) {
            written.add(JSON.parseObject(key, MessageQueue.class));
        }
        List<MessageQueue> sorted = new ArrayList<>(table.keySet());
        sorted.sort(null);
        assertEquals(sorted, written, "keys are written in queue order");
        Object parsed = JSON.parseObject(JSON.toJSONString(wire));
        assertEquals(table, MessageQueueKeys.fromWire(parsed, TopicOffset.class, "offsetTable"));
    }

    @Test
    @Timeout(10)
    void queueKeyedTablesRefuseWhatIsNotATableOfQueues() {
        assertEquals(Map.of(), MessageQueueKeys.fromWire(null, TopicOffset.class, "offsetTable"));
        assertEquals("offsetTable is not a JSON object", assertThrows(IllegalArgumentException.class,
                () -> MessageQueueKeys.fromWire(List.of(), TopicOffset.class, "offsetTable")).getMessage());
        Object numberValue = JSON.parseObject("{\"{\\\"brokerName\\\":\\\"b\\\",\\\"queueId\\\":0,\\\"topic\\\":"
                + "\\\"T\\\"}\":5}");
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> MessageQueueKeys.fromWire(numberValue, TopicOffset.class, "offsetTable")).getMessage()
                .startsWith("offsetTable value for MessageQueue[topic=T, brokerName=b, queueId=0] is not a JSON"
                        + " object"));
        Map<Object, Object> numberKey = new HashMap<>();
        numberKey.put(7, JSON.parseObject("{}"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> MessageQueueKeys.fromWire(numberKey, TopicOffset.class, "offsetTable")).getMessage()
                .startsWith("offsetTable key is neither a queue object nor queue JSON text"));
    }

    @Property(tries = 100)
    void aVersionBumpCountsOneAndKeepsTheStateVersion(@ForAll @IntRange(min = 0, max = 100) int bumps,
                                                      @ForAll long stateVersion) {
        DataVersion version = new DataVersion(stateVersion, 0, 0);
        for (int i = 1; i <= bumps; i++) {
            version = version.next(1_000L * i);
        }
        assertEquals(new DataVersion(stateVersion, 1_000L * bumps, bumps), version);
    }
}
