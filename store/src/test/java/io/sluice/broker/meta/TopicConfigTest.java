package io.sluice.broker.meta;

import io.sluice.format.TopicFilterType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicConfigTest {

    @Test
    void shouldAllowTenThousandQueues() {
        TopicConfig t = TopicConfig.of("wide", 10_000, ConsumeQueueType.BATCH);
        assertEquals(10_000, t.queueCount());
        assertTrue(t.isValidQueueId(9_999));
        assertFalse(t.isValidQueueId(10_000));
    }

    @Test
    void shouldRejectQueueCountsOutOfRangeNamingTheValue() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> TopicConfig.of("t", 0, ConsumeQueueType.SIMPLE));
        assertTrue(zero.getMessage().contains("readQueueNums 0"), zero.getMessage());
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                () -> TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE).withQueueNums(1, TopicConfig.MAX_QUEUE_NUMS + 1));
        assertTrue(tooMany.getMessage().contains("writeQueueNums " + (TopicConfig.MAX_QUEUE_NUMS + 1)));
        TopicConfig.of("t", TopicConfig.MAX_QUEUE_NUMS, ConsumeQueueType.SIMPLE);
    }

    @Test
    void shouldRejectInvalidNameAndPerm() {
        assertThrows(IllegalArgumentException.class, () -> TopicConfig.of("a".repeat(128), 1, ConsumeQueueType.SIMPLE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE).withPerm(16));
        assertTrue(e.getMessage().contains("perm 16"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE).withPerm(-1));
    }

    @Test
    void shouldCheckQueueIdsAgainstTheLargerOfReadAndWriteCounts() {
        TopicConfig t = TopicConfig.of("t", 4, ConsumeQueueType.SIMPLE).withQueueNums(2, 4);
        assertEquals(3, t.checkQueueId(3));
        assertFalse(t.isValidQueueId(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.checkQueueId(4));
        assertTrue(e.getMessage().contains("queueId[4]"), e.getMessage());
    }

    @Test
    void shouldKeepQueueTypeAndAttributeInAgreement() {
        TopicConfig batch = TopicConfig.of("b", 4, ConsumeQueueType.BATCH);
        assertEquals(Map.of("queue.type", "BatchCQ"), batch.attributes());
        TopicConfig simple = TopicConfig.of("s", 4, ConsumeQueueType.SIMPLE);
        assertEquals(Map.of(), simple.attributes());
        assertEquals(ConsumeQueueType.SIMPLE, simple.queueType());

        TopicConfig fromAttribute = simple.withAttributes(Map.of("queue.type", "batchcq"));
        assertEquals(ConsumeQueueType.BATCH, fromAttribute.queueType());
        assertEquals("BatchCQ", fromAttribute.attributes().get("queue.type"), "normalised spelling");

        assertThrows(IllegalArgumentException.class, () -> new TopicConfig("x", 1, 1, 6, TopicFilterType.SINGLE_TAG,
                0, false, ConsumeQueueType.SIMPLE, Map.of("queue.type", "BatchCQ")));
    }

    @Test
    void shouldRejectUnknownQueueTypeNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE).withAttributes(Map.of("queue.type", "RocksDBCQ")));
        assertTrue(e.getMessage().contains("RocksDBCQ"), e.getMessage());
    }

    @Test
    void shouldExposePermissionBits() {
        TopicConfig t = TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE);
        assertTrue(t.isReadable());
        assertTrue(t.isWriteable());
        TopicConfig readOnly = t.withPerm(TopicPerm.READ);
        assertFalse(readOnly.isWriteable());
        assertTrue(TopicPerm.isInherited(7));
        assertEquals("RWX", TopicPerm.describe(7));
        assertEquals("RW-", TopicPerm.describe(6));
    }
}
