package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicAttributesTest {

    @Test
    void shouldParseTheOmbCreateString() {
        assertEquals(Map.of("queue.type", "BatchCQ"), TopicAttributes.forCreate("+queue.type=BatchCQ"));
        assertEquals(Map.of(), TopicAttributes.forCreate(""));
        assertEquals(Map.of(), TopicAttributes.forCreate(null));
        assertEquals(Map.of("queue.type", "SimpleCQ", "message.type", "FIFO"),
                TopicAttributes.forCreate("+queue.type=SimpleCQ,+message.type=FIFO"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"queue.type=BatchCQ", "queue.type", "+queue.type=", "+=x", "-", "+a+b=c",
        "+queue.type=BatchCQ,+queue.type=SimpleCQ"})
    void shouldRejectMalformedStrings(String spec) {
        assertThrows(IllegalArgumentException.class, () -> TopicAttributes.forCreate(spec));
    }

    @Test
    void shouldRejectDeletesOnCreateUnknownKeysAndBadValues() {
        IllegalArgumentException delete = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forCreate("-message.type"));
        assertTrue(delete.getMessage().contains("message.type"), delete.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forCreate("+reserve.time=10"));
        assertTrue(unknown.getMessage().contains("reserve.time"), unknown.getMessage());
        IllegalArgumentException badValue = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forCreate("+queue.type=FastCQ"));
        assertTrue(badValue.getMessage().contains("FastCQ"), badValue.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TopicAttributes.forCreate("+cleanup.policy=COMPACTION"));
        IllegalArgumentException badType = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forCreate("+message.type=SCHEDULED"));
        assertTrue(badType.getMessage().contains("SCHEDULED"), badType.getMessage());
    }

    @Test
    void shouldAcceptTransactionDelayAndMixedTopicsNowThatTheyAreServed() {
        for (String type : new String[] {"TRANSACTION", "DELAY", "MIXED"}) {
            assertEquals(Map.of("message.type", type), TopicAttributes.forCreate("+message.type=" + type));
        }
    }

    @Test
    void shouldApplyUpdatesToChangeableKeysOnly() {
        Map<String, String> current = Map.of("queue.type", "BatchCQ", "message.type", "NORMAL");
        assertEquals(Map.of("queue.type", "BatchCQ", "message.type", "FIFO"),
                TopicAttributes.forUpdate(current, "+message.type=FIFO"));
        assertEquals(Map.of("queue.type", "BatchCQ"), TopicAttributes.forUpdate(current, "-message.type"));
        IllegalArgumentException fixed = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forUpdate(current, "+queue.type=BatchCQ"));
        assertTrue(fixed.getMessage().contains("unchangeable attribute. key: queue.type"), fixed.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> TopicAttributes.forUpdate(Map.of(), "-message.type"));
        assertTrue(missing.getMessage().contains("nonexistent key: message.type"), missing.getMessage());
    }
}
