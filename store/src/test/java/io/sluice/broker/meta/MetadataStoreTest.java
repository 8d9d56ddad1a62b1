package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

class MetadataStoreTest {

    @TempDir
    Path dir;

    private final CachedEpochClock clock = new CachedEpochClock();
    private MetadataStore store;

    @BeforeEach
    void open() {
        clock.update(1_000);
        store = MetadataStore.open(MetadataSettings.of(dir), clock);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void reopen() {
        store.close();
        store = MetadataStore.open(MetadataSettings.of(dir), clock);
    }

    @Test
    void shouldRoundTripTopics() {
        TopicConfig batch = TopicConfig.of("bcq", 4, ConsumeQueueType.BATCH);
        TopicConfig simple = TopicConfig.of("scq", 8, ConsumeQueueType.SIMPLE).withPerm(TopicPerm.READ);
        store.putTopic(batch);
        store.putTopic(simple);
        assertEquals(Optional.of(batch), store.getTopic("bcq"));
        assertEquals(Optional.empty(), store.getTopic("nope"));
        assertEquals(List.of(batch, simple), store.allTopics());
        assertTrue(store.deleteTopic("bcq"));
        assertFalse(store.deleteTopic("bcq"));
        assertEquals(List.of(simple), store.allTopics());
    }

    @Test
    void shouldBumpTheTopicVersionOnEveryChangeOnly() {
        assertEquals(0, store.topicDataVersion().counter());
        clock.update(2_000);
        TableVersion v1 = store.putTopic(TopicConfig.of("t", 4, ConsumeQueueType.SIMPLE));
        assertEquals(new TableVersion(0, 2_000, 1), v1);
        assertEquals(v1, store.putTopic(TopicConfig.of("t", 4, ConsumeQueueType.SIMPLE)), "identical put is a no-op");
        clock.update(3_000);
        TableVersion v2 = store.putTopics(List.of(TopicConfig.of("t", 8, ConsumeQueueType.SIMPLE),
                TopicConfig.of("u", 1, ConsumeQueueType.BATCH)));
        assertEquals(new TableVersion(0, 3_000, 2), v2, "one bump per batch");
        store.deleteTopic("u");
        assertEquals(3, store.topicDataVersion().counter());
        store.deleteTopic("missing");
        assertEquals(3, store.topicDataVersion().counter());

        TopicTable table = store.topicTable();
        assertEquals(store.topicDataVersion(), table.dataVersion());
        assertEquals(Map.of("t", TopicConfig.of("t", 8, ConsumeQueueType.SIMPLE)), table.topics());
    }

    @Test
    void shouldPersistEverythingAcrossCloseAndReopen() {
        TopicConfig topic = TopicConfig.of("orders", 10_000, ConsumeQueueType.BATCH);
        SubscriptionGroupConfig group = SubscriptionGroupConfig.builder("sub-x").retryMaxTimes(5).build();
        store.putTopic(topic);
        store.putGroup(group);
        store.commitOffset("sub-x", "orders", 9_999, 42);
        store.putLong("schedule.delayOffset.3", 77);
        TableVersion topicVersion = store.topicDataVersion();
        TableVersion groupVersion = store.groupDataVersion();

        reopen();

        assertEquals(Optional.of(topic), store.getTopic("orders"));
        assertEquals(Optional.of(group), store.getGroup("sub-x"));
        assertEquals(42, store.queryOffset("sub-x", "orders", 9_999));
        assertEquals(OptionalLong.of(77), store.getLong("schedule.delayOffset.3"));
        assertEquals(topicVersion, store.topicDataVersion());
        assertEquals(groupVersion, store.groupDataVersion());
        assertEquals(topicVersion.counter() + 1, store.putTopic(topic.withPerm(TopicPerm.READ)).counter(),
                "the counter continues after a restart");
    }

    @Test
    void shouldRoundTripGroups() {
        SubscriptionGroupConfig g = SubscriptionGroupConfig.defaults("g1");
        assertEquals(1, store.putGroup(g).counter());
        assertEquals(1, store.putGroup(g).counter());
        store.putGroup(SubscriptionGroupConfig.defaults("g0"));
        assertEquals(Optional.of(g), store.getGroup("g1"));
        assertEquals(List.of("g0", "g1"), store.allGroups().stream().map(SubscriptionGroupConfig::groupName).toList());
        assertTrue(store.deleteGroup("g1"));
        assertEquals(Optional.empty(), store.getGroup("g1"));
        assertEquals(3, store.groupDataVersion().counter());
    }

    @Test
    void shouldServeADeferredOffsetAtOnceAndWriteItOnFlush() {
        store.commitOffset("g", "t", 0, 5);
        store.commitOffsetDeferred("g", "t", 0, 9);
        store.commitOffsetDeferred("g", "t", 1, 3);
        store.commitOffsetDeferred("h", "t", 0, 4);
        assertEquals(9, store.queryOffset("g", "t", 0));
        assertEquals(List.of(new ConsumerOffset("g", "t", 0, 9), new ConsumerOffset("g", "t", 1, 3)),
                store.offsetsOf("g"));
        assertEquals(List.of(new ConsumerOffset("g", "t", 0, 9), new ConsumerOffset("g", "t", 1, 3),
                new ConsumerOffset("h", "t", 0, 4)), store.offsetsForTopic("t"));
        store.flush();
        store.commitOffsetDeferred("g", "t", 1, 7);
        reopen(); // close writes what came after the flush
        assertEquals(9, store.queryOffset("g", "t", 0));
        assertEquals(7, store.queryOffset("g", "t", 1));
        assertEquals(4, store.queryOffset("h", "t", 0));
    }

    @Test
    void shouldLetAnEagerCommitOrADeleteOverrideADeferredOne() {
        store.commitOffsetDeferred("g", "t", 0, 9);
        store.commitOffset("g", "t", 0, 2); // a reset below the deferred value
        store.commitOffsetDeferred("h", "t", 0, 4);
        assertEquals(1, store.deleteOffsetsOfGroup("h"));
        store.flush();
        reopen();
        assertEquals(2, store.queryOffset("g", "t", 0));
        assertEquals(MetadataStore.NO_OFFSET, store.queryOffset("h", "t", 0));
    }

    @Test
    void shouldRejectBadDeferredOffsetsNamingThem() {
        IllegalArgumentException offset = assertThrows(IllegalArgumentException.class,
                () -> store.commitOffsetDeferred("g", "t", 0, -1));
        assertTrue(offset.getMessage().contains("-1"), offset.getMessage());
        IllegalArgumentException queue = assertThrows(IllegalArgumentException.class,
                () -> store.commitOffsetDeferred("g", "t", -3, 1));
        assertTrue(queue.getMessage().contains("-3"), queue.getMessage());
        store.flush();
        assertEquals(MetadataStore.NO_OFFSET, store.queryOffset("g", "t", 0));
    }

    @Test
    void shouldReturnNoOffsetUntilCommittedAndAcceptResets() {
        assertEquals(MetadataStore.NO_OFFSET, store.queryOffset("g", "t", 0));
        store.commitOffset("g", "t", 0, 10);
        store.commitOffset("g", "t", 0, 3);
        assertEquals(3, store.queryOffset("g", "t", 0));
        assertEquals(MetadataStore.NO_OFFSET, store.queryOffset("g", "t", 1));
        assertEquals(MetadataStore.NO_OFFSET, store.queryOffset("g2", "t", 0));
    }

    @Test
    void shouldListOffsetsByGroupAndByTopicWithoutPrefixConfusion() {
        store.commitOffset("g", "t", 1, 11);
        store.commitOffset("g", "t", 0, 10);
        store.commitOffset("g", "t0", 0, 20);
        store.commitOffset("g0", "t", 0, 30);
        store.commitOffset("h", "t", 2, 40);

        assertEquals(List.of(new ConsumerOffset("g", "t", 0, 10), new ConsumerOffset("g", "t", 1, 11),
                new ConsumerOffset("g", "t0", 0, 20)), store.offsetsOf("g"));
        assertEquals(List.of(new ConsumerOffset("g", "t", 0, 10), new ConsumerOffset("g", "t", 1, 11),
                new ConsumerOffset("g0", "t", 0, 30), new ConsumerOffset("h", "t", 2, 40)), store.offsetsForTopic("t"));

        assertEquals(3, store.deleteOffsetsOfGroup("g"));
        assertEquals(List.of(), store.offsetsOf("g"));
        assertEquals(1, store.offsetsOf("g0").size());
        assertEquals(2, store.deleteOffsetsOfTopic("t"));
        assertEquals(List.of(), store.offsetsOf("g0"));
        assertEquals(List.of(), store.offsetsOf("h"));
        assertEquals(0, store.deleteOffsetsOfTopic("t"));
    }

    @Test
    void shouldRejectBadOffsetArgumentsNamingThem() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> store.commitOffset("g", "t", 0, -5));
        assertTrue(negative.getMessage().contains("-5"), negative.getMessage());
        IllegalArgumentException queue = assertThrows(IllegalArgumentException.class,
                () -> store.commitOffset("g", "t", -1, 5));
        assertTrue(queue.getMessage().contains("-1"), queue.getMessage());
        IllegalArgumentException topic = assertThrows(IllegalArgumentException.class,
                () -> store.queryOffset("g", "bad topic", 0));
        assertTrue(topic.getMessage().contains("bad topic"), topic.getMessage());
        assertThrows(IllegalArgumentException.class, () -> store.commitOffset("", "t", 0, 1));
    }

    @Test
    void shouldStoreNamedLongs() {
        assertEquals(OptionalLong.empty(), store.getLong("a"));
        store.putLong("delay.1", 5);
        store.putLong("delay.2", -7);
        store.putLong("other", 1);
        assertEquals(Map.of("delay.1", 5L, "delay.2", -7L), store.longsWithPrefix("delay."));
        assertEquals(3, store.longsWithPrefix("").size());
        store.deleteLong("delay.1");
        assertEquals(OptionalLong.empty(), store.getLong("delay.1"));
        store.flush();
    }

    @Test
    void shouldRefuseCallsAfterCloseAndCloseIdempotently() {
        store.close();
        store.close();
        assertThrows(IllegalStateException.class, () -> store.getTopic("t"));
        assertThrows(IllegalStateException.class, () -> store.commitOffset("g", "t", 0, 1));
        assertThrows(IllegalStateException.class, () -> store.putTopic(TopicConfig.of("t", 1, ConsumeQueueType.SIMPLE)));
        assertThrows(IllegalStateException.class, store::flush);
    }

    @Test
    void shouldRefuseASecondOpenOfTheSameDirectory() {
        MetadataStoreException e = assertThrows(MetadataStoreException.class,
                () -> MetadataStore.open(MetadataSettings.of(dir), clock));
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownFormatVersion() throws Exception {
        store.close();
        RocksDB.loadLibrary();
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (String name : MetadataKeyDescriptor.COLUMN_FAMILIES) {
            descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8)));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles)) {
            db.put(handles.get(0), MetadataKeyDescriptor.FORMAT_KEY, MetadataKeyDescriptor.encodeInt(2));
            handles.forEach(ColumnFamilyHandle::close);
        }
        MetadataStoreException e = assertThrows(MetadataStoreException.class,
                () -> MetadataStore.open(MetadataSettings.of(dir), clock));
        assertTrue(e.getMessage().contains("format version 2"), e.getMessage());
        store = MetadataStore.open(MetadataSettings.of(dir.resolve("fresh")), clock);
    }

    @Test
    void shouldCountEveryConcurrentTopicWriteInTheVersion() throws Exception {
        int threads = 4;
        int topicsPerThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < topicsPerThread; i++) {
                        store.putTopic(TopicConfig.of("t" + thread + "-" + i, 2, ConsumeQueueType.SIMPLE));
                        store.commitOffset("g", "t" + thread + "-" + i, 0, i);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        TopicTable table = store.topicTable();
        assertEquals(threads * topicsPerThread, table.topics().size());
        assertEquals(threads * topicsPerThread, table.dataVersion().counter());
        assertEquals(threads * topicsPerThread, store.offsetsOf("g").size());
    }
}
