package io.sluice.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.ArrivalListener;
import io.sluice.store.DispatchEntry;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatch rules of one record: transaction halves and rollbacks get no slot, a present slot is a success, a
 * record the queue refuses or cannot take is counted and skipped, a failed file creation is retried; and every
 * queue that grew in a pass is announced once, with its new end, to every listener.
 */
@Timeout(30)
class QueueIndexerTest {

    private static final int SIZE = 100;

    @TempDir
    Path dir;

    private ConsumeQueueTable queues;
    private final DispatchCounters counters = new DispatchCounters();
    private QueueIndexer indexer;

    @BeforeEach
    void open() throws IOException {
        queues = ConsumeQueueTable.open(IndexSettings.defaults(dir),
                topic -> topic.startsWith("unknown") ? null : topic.startsWith("B") ? ConsumeQueueType.BATCH
                        : ConsumeQueueType.SIMPLE, StoreTimeLookup.NONE);
        indexer = new QueueIndexer(queues, counters);
    }

    @AfterEach
    void close() {
        queues.close();
    }

    @Test
    void preparedAndRolledBackRecordsGetNoSlotButCommittedOnesDo() {
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 0, 0,
                RecordDescriptor.TRANSACTION_PREPARED_TYPE)));
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 0, SIZE,
                RecordDescriptor.TRANSACTION_ROLLBACK_TYPE)));
        assertEquals(2, counters.transactionSkipped());
        assertTrue(queues.find("T", 0).isEmpty(), "no queue is created for a skipped record");
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 0, 2 * SIZE,
                RecordDescriptor.TRANSACTION_COMMIT_TYPE)));
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 1, 3 * SIZE,
                RecordDescriptor.TRANSACTION_NOT_TYPE)));
        assertEquals(2, counters.indexed());
        assertEquals(2, queues.find("T", 0).orElseThrow().maxOffset());
    }

    @Test
    void reIndexingIsADuplicateAndChangesNothing() {
        for (int i = 0; i < 3; i++) {
            indexer.index(entry("T", 1, i, i * SIZE, 0));
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 1, i, i * SIZE, 0)));
        }
        assertEquals(3, counters.indexed());
        assertEquals(3, counters.duplicates());
        assertEquals(3, queues.find("T", 1).orElseThrow().maxOffset());
    }

    @Test
    void gapsAndConflictsAreCountedAndSkipped() {
        indexer.index(entry("T", 0, 0, 0, 0));
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 5, SIZE, 0)), "a gap");
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 0, 7 * SIZE, 0)),
                "offset 0 again, pointing at another record");
        assertEquals(2, counters.inconsistent());
        assertEquals(1, counters.indexed());
        assertEquals(1, queues.find("T", 0).orElseThrow().maxOffset(), "nothing of either was written");
    }

    @Test
    void recordsNoQueueCanTakeAreCountedAsUnindexableAndSkipped() {
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("unknownTopic", 0, 0, 0, 0)),
                "a topic of no known queue type");
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 5_000, 0, SIZE, 0)),
                "a queue id beyond the limit");
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(new DispatchEntry("T", 0, 0, 3, 2 * SIZE, SIZE, 0,
                1_000, 0)), "a batch in a SimpleCQ queue");
        assertEquals(3, counters.unindexable());
        assertEquals(0, counters.indexed());
    }

    @Test
    void aBatchQueueAdvancesByTheBatchCount() {
        indexer.index(new DispatchEntry("Batched", 0, 0, 10, 0, SIZE, 0, 1_000, 0));
        indexer.index(new DispatchEntry("Batched", 0, 10, 5, SIZE, SIZE, 0, 1_001, 0));
        assertEquals(2, counters.indexed());
        assertEquals(15, queues.find("Batched", 0).orElseThrow().maxOffset());
    }

    @Test
    void aRecordOfADeletedTopicIsSkippedWithoutACount() {
        indexer.index(entry("T", 0, 0, 0, 0));
        var deleted = queues.find("T", 0).orElseThrow();
        deleted.close();
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("T", 0, 1, SIZE, 0)));
        assertEquals(1, counters.indexed());
        assertEquals(0, counters.inconsistent() + counters.unindexable() + counters.ioErrors());
    }

    @Test
    void aQueueWhoseFilesCannotBeCreatedIsRetried() throws IOException {
        Path topicDir = IndexSettings.defaults(dir).simpleCqDir().resolve("Walled");
        Files.createDirectories(topicDir.getParent());
        Files.writeString(topicDir, "a file where the topic's directory must go");
        assertEquals(QueueIndexer.Outcome.RETRY, indexer.index(entry("Walled", 0, 0, 0, 0)));
        assertEquals(QueueIndexer.Outcome.RETRY, indexer.index(entry("Walled", 0, 0, 0, 0)));
        assertEquals(2, counters.ioErrors());
        Files.delete(topicDir);
        assertEquals(QueueIndexer.Outcome.NEXT, indexer.index(entry("Walled", 0, 0, 0, 0)),
                "indexed once the directory can be made");
        assertEquals(1, counters.indexed());
    }

    @Test
    void everyQueueThatGrewIsAnnouncedOnceWithItsNewEnd() {
        List<String> heard = new ArrayList<>();
        ArrivalListener listener = (topic, queueId, maxOffset) -> heard.add(topic + "-" + queueId + "@" + maxOffset);
        for (int i = 0; i < 4; i++) {
            indexer.index(entry("T", 0, i, i * SIZE, 0));
        }
        indexer.index(entry("T", 1, 0, 4 * SIZE, 0));
        indexer.index(entry("T", 0, 0, 0, 0)); // a duplicate announces nothing more
        indexer.notifyArrivals(List.of(listener));
        assertEquals(List.of("T-0@4", "T-1@1"), heard);

        heard.clear();
        indexer.notifyArrivals(List.of(listener));
        assertEquals(List.of(), heard, "nothing grew since");
        indexer.index(entry("T", 0, 0, 0, 0));
        indexer.notifyArrivals(List.of(listener));
        assertEquals(List.of(), heard, "a duplicate is no arrival");
    }

    @Test
    void moreQueuesThanTheRecentArrayAreAllAnnouncedOnce() {
        Map<String, Long> heard = new TreeMap<>();
        List<String> calls = new ArrayList<>();
        ArrivalListener listener = (topic, queueId, maxOffset) -> {
            calls.add(topic + "-" + queueId);
            heard.put(topic + "-" + queueId, maxOffset);
        };
        long position = 0;
        for (int round = 0; round < 2; round++) {
            for (int q = 0; q < 40; q++) {
                indexer.index(entry("T", q, round, position, 0));
                position += SIZE;
            }
        }
        indexer.notifyArrivals(List.of(listener));
        assertEquals(40, calls.size(), "each of 40 queues once");
        assertEquals(40, heard.size());
        assertTrue(heard.values().stream().allMatch(end -> end == 2), heard.toString());
    }

    @Test
    void aFailingListenerIsCountedAndTheOthersStillHear() {
        List<String> heard = new ArrayList<>();
        ArrivalListener failing = (topic, queueId, maxOffset) -> {
            throw new IllegalStateException("listener bug");
        };
        ArrivalListener good = (topic, queueId, maxOffset) -> heard.add(topic + "-" + queueId);
        indexer.index(entry("T", 0, 0, 0, 0));
        indexer.index(entry("T", 1, 0, SIZE, 0));
        indexer.notifyArrivals(List.of(failing, good));
        assertEquals(List.of("T-0", "T-1"), heard);
        assertEquals(2, counters.listenerErrors());
    }

    @Test
    void countersLogTheFirstOccurrencesThenEachPowerOfTwo() {
        for (long n : new long[] {1, 2, 4, 64, 1L << 40}) {
            assertTrue(DispatchCounters.shouldLog(n), "logs occurrence " + n);
        }
        for (long n : new long[] {3, 5, 6, 7, 65, (1L << 40) + 1}) {
            assertFalse(DispatchCounters.shouldLog(n), "stays quiet at occurrence " + n);
        }
        indexer.index(entry("unknownTopic", 0, 0, 0, 0));
        assertTrue(counters.toString().contains("unindexable=1"), counters.toString());
    }

    private static DispatchEntry entry(String topic, int queueId, long offset, long position, int sysFlag) {
        return new DispatchEntry(topic, queueId, offset, 1, position, SIZE, 0, 1_000 + offset, sysFlag);
    }
}
