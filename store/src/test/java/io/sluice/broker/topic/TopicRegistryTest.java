package io.sluice.broker.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TableVersion;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.ConsumeQueueType;
import io.sluice.format.TopicFilterType;
import io.sluice.store.TopicNames;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicRegistryTest {

    @TempDir
    Path dir;

    private MetadataStore metadata;
    private final List<List<TopicConfig>> announced = new CopyOnWriteArrayList<>();
    private CompletableFuture<Void> announceGate = CompletableFuture.completedFuture(null);
    private final TopicAnnouncer recorder = (topics, version) -> {
        announced.add(topics);
        return announceGate;
    };

    @BeforeEach
    void open() {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    private TopicRegistry registry(boolean autoCreate) {
        return new TopicRegistry(metadata, new TopicSettings(autoCreate, 8), recorder);
    }

    private static TopicUpdate update(String topic, int queues, String attributes) {
        return new TopicUpdate(topic, queues, queues, 6, "SINGLE_TAG", 0, false, attributes);
    }

    @Test
    void shouldCreateBatchTopicAndAnnounceBeforeCompleting() {
        TopicRegistry registry = registry(false);
        announceGate = new CompletableFuture<>();
        CompletableFuture<TopicOutcome> pending = registry.createOrUpdate(update("bcq", 16, "+queue.type=BatchCQ"));
        assertFalse(pending.isDone(), "must wait for the announcement");
        assertEquals(1, announced.size());
        assertEquals("bcq", announced.get(0).get(0).topicName());
        announceGate.complete(null);
        TopicOutcome outcome = pending.join();
        assertEquals(TopicOutcome.Status.CREATED, outcome.status());
        assertEquals(ConsumeQueueType.BATCH, outcome.config().queueType());
        assertEquals(Map.of("queue.type", "BatchCQ"), outcome.config().attributes());
        assertEquals(16, outcome.config().readQueueNums());
        assertEquals(ConsumeQueueType.BATCH, registry.queueTypeOf("bcq"));
        assertEquals(null, registry.queueTypeOf("unknown"));
    }

    @Test
    void shouldTreatRepeatedCreationAsUnchanged() {
        TopicRegistry registry = registry(false);
        registry.createOrUpdate(update("bcq", 4, "+queue.type=BatchCQ")).join();
        TopicOutcome again = registry.createOrUpdate(update("bcq", 4, "+queue.type=BatchCQ")).join();
        assertEquals(TopicOutcome.Status.UNCHANGED, again.status());
        assertEquals(1, announced.size());
    }

    @Test
    void shouldUpdateQueueCountsButNotQueueType() {
        TopicRegistry registry = registry(false);
        registry.createOrUpdate(update("t", 4, "")).join();
        TopicOutcome grown = registry.createOrUpdate(update("t", 8, "")).join();
        assertEquals(TopicOutcome.Status.UPDATED, grown.status());
        assertEquals(8, metadata.getTopic("t").orElseThrow().writeQueueNums());
        TopicOutcome refused = registry.createOrUpdate(update("t", 8, "+queue.type=BatchCQ")).join();
        assertEquals(TopicOutcome.Status.INVALID_ATTRIBUTES, refused.status());
        assertTrue(refused.detail().contains("queue.type"), refused.detail());
        assertEquals(ConsumeQueueType.SIMPLE, registry.queueTypeOf("t"));
    }

    @Test
    void shouldRefuseBadRequestsNamingTheValue() {
        TopicRegistry registry = registry(false);
        TopicOutcome badName = registry.createOrUpdate(update("bad topic", 4, "")).join();
        assertEquals(TopicOutcome.Status.INVALID_NAME, badName.status());
        assertTrue(badName.detail().contains("bad topic"), badName.detail());

        TopicOutcome system = registry.createOrUpdate(update(TopicNames.AUTO_CREATE_TOPIC_KEY_TOPIC, 4, "")).join();
        assertEquals(TopicOutcome.Status.INVALID_NAME, system.status());

        TopicOutcome zeroQueues = registry.createOrUpdate(update("t", 0, "")).join();
        assertEquals(TopicOutcome.Status.INVALID_CONFIG, zeroQueues.status());
        assertTrue(zeroQueues.detail().contains("0"), zeroQueues.detail());

        TopicOutcome badType = registry.createOrUpdate(update("t", 4, "+queue.type=FancyCQ")).join();
        assertEquals(TopicOutcome.Status.INVALID_ATTRIBUTES, badType.status());
        assertTrue(badType.detail().contains("FancyCQ"), badType.detail());

        TopicOutcome badFilter = registry.createOrUpdate(
                new TopicUpdate("t", 4, 4, 6, "NO_TAG", 0, false, "")).join();
        assertEquals(TopicOutcome.Status.INVALID_CONFIG, badFilter.status());
        assertTrue(badFilter.detail().contains("NO_TAG"), badFilter.detail());

        TopicOutcome badPerm = registry.createOrUpdate(
                new TopicUpdate("t", 4, 4, 99, "SINGLE_TAG", 0, false, "")).join();
        assertEquals(TopicOutcome.Status.INVALID_CONFIG, badPerm.status());
        assertTrue(badPerm.detail().contains("99"), badPerm.detail());

        assertTrue(announced.isEmpty());
        assertEquals(Optional.empty(), metadata.getTopic("t"));
    }

    @Test
    void shouldDeleteTopicWithOffsets() {
        TopicRegistry registry = registry(false);
        registry.createOrUpdate(update("t", 2, "")).join();
        metadata.commitOffset("g", "t", 1, 42);
        assertEquals(TopicOutcome.Status.DELETED, registry.delete("t").status());
        assertEquals(MetadataStore.NO_OFFSET, metadata.queryOffset("g", "t", 1));
        assertEquals(TopicOutcome.Status.NOT_FOUND, registry.delete("t").status());
        assertEquals(TopicOutcome.Status.INVALID_NAME, registry.delete("TBW102").status());
    }

    @Test
    void shouldInstallTemplateOnlyWhenAutoCreateIsEnabled() {
        registry(false).installSystemTopics("DefaultCluster", "broker-t");
        assertEquals(Optional.empty(), metadata.getTopic(TopicNames.AUTO_CREATE_TOPIC_KEY_TOPIC));
        registry(true).installSystemTopics("DefaultCluster", "broker-t");
        TopicConfig template = metadata.getTopic(TopicNames.AUTO_CREATE_TOPIC_KEY_TOPIC).orElseThrow();
        assertEquals(7, template.perm());
        assertEquals(8, template.writeQueueNums());
    }

    @Test
    void shouldInstallSeveralSystemTopicsSoTheFirstRegistrationIsNeverTakenForAnIncrementalOne() {
        registry(false).installSystemTopics("DefaultCluster", "broker-t");
        for (String topic : List.of(TopicNames.SELF_TEST_TOPIC, TopicNames.OFFSET_MOVED_EVENT,
                TopicNames.TRACE_TOPIC, "DefaultCluster", "broker-t")) {
            TopicConfig config = metadata.getTopic(topic).orElseThrow(() -> new AssertionError(topic));
            assertEquals(1, config.writeQueueNums(), topic);
        }
        assertTrue(metadata.allTopics().size() > 1, "a one-topic first registration is rejected by name servers");
        long version = metadata.topicDataVersion().counter();
        registry(false).installSystemTopics("DefaultCluster", "broker-t");
        assertEquals(version, metadata.topicDataVersion().counter(), "a restart installs nothing twice");
    }

    @Test
    void shouldAutoCreateOnSendOnlyWhenEnabled() {
        TopicRegistry disabled = registry(false);
        disabled.installSystemTopics("DefaultCluster", "broker-t");
        assertEquals(Optional.empty(), disabled.autoCreateForSend("fresh", "TBW102", 4));

        TopicRegistry enabled = registry(true);
        enabled.installSystemTopics("DefaultCluster", "broker-t");
        TopicConfig created = enabled.autoCreateForSend("fresh", "TBW102", 4).orElseThrow();
        assertEquals(4, created.writeQueueNums());
        assertEquals(TopicPerm.READ_WRITE, created.perm());
        assertEquals(TopicFilterType.SINGLE_TAG, created.topicFilterType());
        assertEquals(1, announced.size());
        assertEquals(created, enabled.autoCreateForSend("fresh", "TBW102", 4).orElseThrow());
        assertEquals(8, enabled.autoCreateForSend("many", "TBW102", 100).orElseThrow().writeQueueNums(),
                "capped at the template's 8 queues");
        assertEquals(Optional.empty(), enabled.autoCreateForSend("other", "missing", 4));
        assertEquals(Optional.empty(), enabled.autoCreateForSend("bad name", "TBW102", 4));
    }

    @Test
    void shouldCreateRetryTopicOnSendEvenWithoutAutoCreate() {
        TopicConfig retry = registry(false).autoCreateForSend("%RETRY%g", "TBW102", 4).orElseThrow();
        assertEquals(1, retry.writeQueueNums());
    }

    @Test
    void shouldEnsureRetryAndDlqTopicsOnce() {
        TopicRegistry registry = registry(false);
        TopicConfig retry = registry.ensureRetryTopic("g", 1).join();
        assertEquals("%RETRY%g", retry.topicName());
        assertEquals(6, retry.perm());
        assertEquals(retry, registry.ensureRetryTopic("g", 1).join());
        TopicConfig dlq = registry.ensureDlqTopic("g").join();
        assertEquals("%DLQ%g", dlq.topicName());
        assertEquals(1, dlq.writeQueueNums());
        assertEquals(2, announced.size());
    }

    @Test
    void shouldBumpVersionOnEveryChange() {
        TopicRegistry registry = registry(false);
        TableVersion before = registry.table().dataVersion();
        registry.createOrUpdate(update("a", 1, "")).join();
        registry.ensureRetryTopic("g", 1).join();
        assertEquals(before.counter() + 2, registry.table().dataVersion().counter());
        assertEquals(2, registry.table().topics().size());
    }
}
