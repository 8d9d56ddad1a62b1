package io.sluice.store.index;

import static io.sluice.store.index.ConsumeQueueContractTest.assertRejects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueTableTest {

    /** Topics whose name starts with "Batch" are BatchCQ. */
    private static final Function<String, ConsumeQueueType> TYPES =
            topic -> topic.startsWith("Batch") ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE;

    @TempDir
    Path root;

    private IndexSettings settings;
    private ConsumeQueueTable table;

    @BeforeEach
    void open() throws IOException {
        settings = IndexSettings.defaults(root).withSimpleCqSlotsPerFile(8).withBatchCqSlotsPerFile(8)
                .withMaxQueuesPerTopic(16);
        table = ConsumeQueueTable.open(settings, TYPES, StoreTimeLookup.NONE);
    }

    @AfterEach
    void close() {
        table.close();
    }

    private void reopen() throws IOException {
        table.close();
        table = ConsumeQueueTable.open(settings, TYPES, StoreTimeLookup.NONE);
    }

    private static DispatchEntry entry(String topic, int queueId, long offset, int batch, long position) {
        return new DispatchEntry(topic, queueId, offset, batch, position, 50, 0, 1_000 + position, 0);
    }

    @Test
    void getOrCreateReturnsOneQueuePerTopicAndId() {
        assertEquals(Optional.empty(), table.find("Orders", 2));
        ConsumeQueue queue = table.getOrCreate("Orders", 2);
        assertSame(queue, table.getOrCreate("Orders", 2));
        assertSame(queue, table.find("Orders", 2).orElseThrow());
        assertEquals(Optional.empty(), table.find("Orders", 1));
        assertEquals("Orders", queue.topic());
        assertEquals(2, queue.queueId());
    }

    @Test
    void theTopicTypeChoosesTheLayoutAndDirectory() {
        ConsumeQueue simple = table.getOrCreate("Orders", 0);
        ConsumeQueue batch = table.getOrCreate("BatchEvents", 0);
        assertEquals(ConsumeQueueType.SIMPLE, simple.type());
        assertEquals(ConsumeQueueType.BATCH, batch.type());
        assertEquals(SlotAppendStatus.APPENDED, simple.append(entry("Orders", 0, 0, 1, 0)));
        assertEquals(SlotAppendStatus.APPENDED, batch.append(entry("BatchEvents", 0, 0, 16, 100)));
        assertTrue(Files.isDirectory(root.resolve("consumequeue/Orders/0")));
        assertTrue(Files.isDirectory(root.resolve("batchconsumequeue/BatchEvents/0")));
        assertEquals(Optional.of(ConsumeQueueType.BATCH), table.typeOfExisting("BatchEvents"));
    }

    @Test
    void openLoadsEveryQueueOfBothDirectories() throws IOException {
        table.getOrCreate("Orders", 0).append(entry("Orders", 0, 0, 1, 0));
        table.getOrCreate("Orders", 5).append(entry("Orders", 5, 9, 1, 100));
        table.getOrCreate("BatchEvents", 1).append(entry("BatchEvents", 1, 0, 32, 200));
        table.getOrCreate("BatchEvents", 1).append(entry("BatchEvents", 1, 32, 32, 300));
        Map<QueueKey, Long> before = table.maxOffsets();
        reopen();
        assertEquals(3, table.queues().size());
        assertEquals(before, table.maxOffsets());
        assertEquals(Map.of(new QueueKey("Orders", 0), 1L, new QueueKey("Orders", 5), 10L,
                new QueueKey("BatchEvents", 1), 64L), table.maxOffsets());
        assertEquals(350, table.maxPhysicalEnd());
        assertEquals(9, table.find("Orders", 5).orElseThrow().minOffset());
    }

    @Test
    void filesInTheDirectoryOfTheOtherTypeAbortTheLoad() throws IOException {
        table.getOrCreate("Orders", 0).append(entry("Orders", 0, 0, 1, 0));
        table.close();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ConsumeQueueTable.open(settings, topic -> ConsumeQueueType.BATCH, StoreTimeLookup.NONE));
        assertTrue(e.getMessage().contains("Orders"), e.getMessage());
        table = ConsumeQueueTable.open(settings, TYPES, StoreTimeLookup.NONE);
    }

    @Test
    void entriesThatAreNotQueueDirectoriesAreSkipped() throws IOException {
        table.getOrCreate("Orders", 0).append(entry("Orders", 0, 0, 1, 0));
        table.close();
        Files.writeString(root.resolve("consumequeue/README"), "x");
        Files.createDirectories(root.resolve("consumequeue/Orders/notAnId"));
        Files.createDirectories(root.resolve("consumequeue/Orders/99"));
        Files.createDirectories(root.resolve("consumequeue/bad.name/0"));
        table = ConsumeQueueTable.open(settings, TYPES, StoreTimeLookup.NONE);
        assertEquals(1, table.queues().size());
    }

    @Test
    void deleteTopicDestroysItsQueuesAndDirectories() {
        ConsumeQueue queue = table.getOrCreate("Orders", 0);
        queue.append(entry("Orders", 0, 0, 1, 0));
        table.getOrCreate("Orders", 1).append(entry("Orders", 1, 0, 1, 100));
        table.getOrCreate("Other", 0).append(entry("Other", 0, 0, 1, 200));
        assertEquals(2, table.deleteTopic("Orders"));
        assertFalse(Files.exists(root.resolve("consumequeue/Orders")));
        assertEquals(Optional.empty(), table.find("Orders", 0));
        assertEquals(SlotAppendStatus.CLOSED, queue.append(entry("Orders", 0, 1, 1, 300)), "a racing dispatch");
        assertEquals(1, table.queues().size());
        assertEquals(0, table.deleteTopic("Unknown"));
    }

    @Test
    void storeWidePassesReachEveryQueue() {
        for (int q = 0; q < 3; q++) {
            ConsumeQueue queue = table.getOrCreate("Orders", q);
            for (int i = 0; i < 20; i++) {
                queue.append(entry("Orders", q, i, 1, 1_000L * i + q * 100));
            }
        }
        assertEquals(3, table.trimBelowPosition(10_000), "one whole file of 8 slots per queue");
        for (ConsumeQueue queue : table.queues()) {
            assertEquals(10, queue.minOffset());
        }
        assertEquals(3 * 5, table.truncateFromPosition(15_000));
        assertEquals(Map.of(new QueueKey("Orders", 0), 15L, new QueueKey("Orders", 1), 15L,
                new QueueKey("Orders", 2), 15L), table.maxOffsets());
        table.flushAll();
    }

    @Test
    void badTopicsAndQueueIdsAreRejectedNamingTheValue() {
        assertRejects(() -> table.getOrCreate("Orders", 16), "16");
        assertRejects(() -> table.getOrCreate("Orders", -1), "-1");
        assertRejects(() -> table.getOrCreate("a/b", 0), "a/b");
        assertRejects(() -> table.getOrCreate("..", 0), "..");
        assertRejects(() -> table.getOrCreate("", 0), "''");
        assertRejects(() -> table.getOrCreate(null, 0), "null");
        assertRejects(() -> table.getOrCreate("x".repeat(256), 0), "x".repeat(256));
        assertRejects(() -> table.find("Orders", -2), "-2");
        assertEquals("%RETRY%group|1", table.getOrCreate("%RETRY%group|1", 0).topic());
    }

    @Test
    void aClosedTableCreatesNothing() {
        table.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.getOrCreate("Orders", 0));
        assertTrue(e.getMessage().contains("closed"));
    }

    @Test
    void aTopicWithoutAKnownTypeIsRejected() throws IOException {
        table.close();
        table = ConsumeQueueTable.open(settings, topic -> null, StoreTimeLookup.NONE);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.getOrCreate("Orders", 0));
        assertTrue(e.getMessage().contains("Orders"));
    }
}
