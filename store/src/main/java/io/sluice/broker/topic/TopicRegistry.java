package io.sluice.broker.topic;

import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TableVersion;
import io.sluice.broker.meta.TopicAttributes;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.broker.meta.TopicTable;
import io.sluice.format.ConsumeQueueType;
import io.sluice.format.TopicFilterType;
import io.sluice.store.TopicNames;
import java.util.List;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's topics: every read and change of the topic table goes through here.
 *
 * <ul>
 *   <li>Reads ({@link #find}, {@link #queueTypeOf}) are served from the metadata store's memory and are cheap
 *       enough for the send and pull paths.</li>
 *   <li>Admin changes ({@link #createOrUpdate}, {@link #delete}) validate the request (Apache's rules,
 *       docs/wire-protocol.md#topic-administration), persist it (synced) and, for creations and updates, announce it to
 *       the name servers; the returned future completes only after the announcement, so the route exists when the
 *       client hears SUCCESS.</li>
 *   <li>Broker-made topics: {@code TBW102} when auto-creation is enabled ({@link #installSystemTopics}), a topic
 *       created by a send when auto-creation is enabled ({@link #autoCreateForSend}), and the {@code %RETRY%} and
 *       {@code %DLQ%} topics of consumer groups ({@link #ensureRetryTopic}, {@link #ensureDlqTopic}).</li>
 * </ul>
 *
 * <p>Thread-safe. Changes are serialised on this object's monitor, held by the calling thread while it validates
 * and persists (a synced RocksDB write, about a millisecond); announcements run outside it. Owned by the broker's
 * composition root.
 */
public final class TopicRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(TopicRegistry.class);

    /** Queues of a group's dead-letter topic, as in Apache. */
    public static final int DLQ_QUEUE_NUMS = 1;

    private final MetadataStore metadata;
    private final TopicSettings settings;
    private final TopicAnnouncer announcer;

    /**
     * @param metadata  where topics live
     * @param settings  auto-creation settings
     * @param announcer tells the name servers about new and changed topics
     */
    public TopicRegistry(MetadataStore metadata, TopicSettings settings, TopicAnnouncer announcer) {
        this.metadata = metadata;
        this.settings = settings;
        this.announcer = announcer;
    }

    /**
     * Stores the topics the broker itself provides, as an Apache broker does: {@code SELF_TEST_TOPIC},
     * {@code OFFSET_MOVED_EVENT}, {@code RMQ_SYS_TRACE_TOPIC} (where clients with message trace enabled send their
     * traces: Apache's broker has it with {@code traceTopicEnable}, or through auto-creation, which Sluice leaves
     * off), one topic named after the cluster and one after the broker (each one queue), and
     * {@code TBW102} (perm 7, {@code defaultTopicQueueNums} queues) when auto-creation is enabled. Called once at
     * start, before the first full registration, which announces them.
     *
     * <p>The fixed set matters beyond compatibility: a name server takes a broker's first registration that holds
     * exactly one topic for an early incremental one and rejects it, so a broker must never start with a single
     * topic.
     *
     * @param clusterName the broker's cluster
     * @param brokerName  the broker's name
     */
    public synchronized void installSystemTopics(String clusterName, String brokerName) {
        List<TopicConfig> system = new ArrayList<>();
        system.add(oneQueueTopic(TopicNames.SELF_TEST_TOPIC, TopicPerm.READ_WRITE));
        system.add(oneQueueTopic(TopicNames.OFFSET_MOVED_EVENT, TopicPerm.READ_WRITE));
        system.add(oneQueueTopic(TopicNames.TRACE_TOPIC, TopicPerm.READ_WRITE));
        system.add(oneQueueTopic(clusterName, TopicPerm.READ_WRITE | TopicPerm.INHERIT));
        system.add(oneQueueTopic(brokerName, TopicPerm.READ_WRITE | TopicPerm.INHERIT));
        if (settings.autoCreateTopicEnable()) {
            int queues = settings.defaultTopicQueueNums();
            system.add(new TopicConfig(TopicNames.AUTO_CREATE_TOPIC_KEY_TOPIC, queues, queues,
                    TopicPerm.READ_WRITE | TopicPerm.INHERIT, TopicFilterType.SINGLE_TAG, 0, false,
                    ConsumeQueueType.SIMPLE,
                    Map.of()));
        }
        List<TopicConfig> missing = new ArrayList<>();
        for (TopicConfig topic : system) {
            if (metadata.getTopic(topic.topicName()).isEmpty()) {
                missing.add(topic);
            }
        }
        if (!missing.isEmpty()) {
            metadata.putTopics(missing);
        }
    }

    private static TopicConfig oneQueueTopic(String name, int perm) {
        return new TopicConfig(name, 1, 1, perm, TopicFilterType.SINGLE_TAG, 0, false, ConsumeQueueType.SIMPLE,
                Map.of());
    }

    /** The topic's config, or empty. */
    public Optional<TopicConfig> find(String topic) {
        return metadata.getTopic(topic);
    }

    /**
     * The topic's queue type, or {@code null} for an unknown topic: the store's lookup when it indexes a record
     * (records of a deleted topic are then skipped instead of recreating its queues).
     */
    public ConsumeQueueType queueTypeOf(String topic) {
        return metadata.getTopic(topic).map(TopicConfig::queueType).orElse(null);
    }

    /** Every topic with the version describing exactly this set. */
    public TopicTable table() {
        return metadata.topicTable();
    }

    // ------------------------------------------------------------------------------------------------ admin

    /**
     * Creates a topic or changes an existing one (UPDATE_AND_CREATE_TOPIC).
     *
     * <p>Rules: the name must be legal and not a system topic; queue counts, permission and filter type must be
     * valid; attributes follow {@link TopicAttributes} (creation: only {@code +} entries; update: only changeable
     * keys). Re-sending an unchangeable attribute with the value the topic already has is not a change, so
     * repeating OMB's {@code +queue.type=BatchCQ} creation succeeds (Apache refuses it). A request equal to the
     * stored config changes nothing and completes at once.
     *
     * @return completes after the change is persisted and announced; a refusal completes at once with a status
     *     naming the problem
     */
    public CompletableFuture<TopicOutcome> createOrUpdate(TopicUpdate update) {
        TopicOutcome outcome;
        TableVersion version;
        synchronized (this) {
            try {
                TopicNames.validateUserTopic(update.topic());
            } catch (IllegalArgumentException e) {
                return CompletableFuture.completedFuture(TopicOutcome.refused(TopicOutcome.Status.INVALID_NAME,
                        e.getMessage()));
            }
            Optional<TopicConfig> existing = metadata.getTopic(update.topic());
            Map<String, String> attributes;
            try {
                attributes = existing.isPresent()
                        ? attributesForUpdate(existing.get().attributes(), update.attributes())
                        : TopicAttributes.forCreate(update.attributes());
            } catch (IllegalArgumentException e) {
                return CompletableFuture.completedFuture(TopicOutcome.refused(
                        TopicOutcome.Status.INVALID_ATTRIBUTES, e.getMessage()));
            }
            TopicConfig config;
            try {
                TopicFilterType filterType = update.topicFilterType() == null
                        ? TopicFilterType.SINGLE_TAG : TopicFilterType.fromWire(update.topicFilterType());
                config = new TopicConfig(update.topic(), update.readQueueNums(), update.writeQueueNums(),
                        update.perm(), filterType, update.topicSysFlag(), update.order(), null, attributes);
            } catch (IllegalArgumentException e) {
                return CompletableFuture.completedFuture(TopicOutcome.refused(TopicOutcome.Status.INVALID_CONFIG,
                        e.getMessage()));
            }
            if (existing.isPresent() && existing.get().equals(config)) {
                return CompletableFuture.completedFuture(TopicOutcome.of(TopicOutcome.Status.UNCHANGED, config));
            }
            version = metadata.putTopic(config);
            outcome = TopicOutcome.of(existing.isPresent() ? TopicOutcome.Status.UPDATED
                    : TopicOutcome.Status.CREATED, config);
        }
        LOG.info("topic {}: {}", outcome.status(), outcome.config());
        return announcer.announce(List.of(outcome.config()), version).thenApply(ignored -> outcome);
    }

    /**
     * Deletes a topic config and every consumer offset committed for it (DELETE_TOPIC_IN_BROKER). The caller
     * drops the topic's consume queues. The name servers are not told (Apache's admin tool tells them itself).
     *
     * @return DELETED, NOT_FOUND, or INVALID_NAME for an illegal or system topic
     */
    public synchronized TopicOutcome delete(String topic) {
        try {
            TopicNames.validateUserTopic(topic);
        } catch (IllegalArgumentException e) {
            return TopicOutcome.refused(TopicOutcome.Status.INVALID_NAME, e.getMessage());
        }
        boolean existed = metadata.deleteTopic(topic);
        int offsets = metadata.deleteOffsetsOfTopic(topic);
        LOG.info("topic {} deleted (existed: {}, {} consumer offsets dropped)", topic, existed, offsets);
        return TopicOutcome.of(existed ? TopicOutcome.Status.DELETED : TopicOutcome.Status.NOT_FOUND, null);
    }

    // ------------------------------------------------------------------------------------------------ broker-made

    /**
     * The retry topic {@code %RETRY%<group>}, created (perm 6, {@code retryQueueNums} queues, SimpleCQ) and
     * announced if absent.
     *
     * @param retryQueueNums queues to create, at least 1
     * @return completes with the topic once it exists and, if it was created, was announced
     * @throws IllegalArgumentException naming the group or the queue count when invalid
     */
    public CompletableFuture<TopicConfig> ensureRetryTopic(String group, int retryQueueNums) {
        return ensure(TopicNames.retryTopic(group), retryQueueNums);
    }

    /**
     * The dead-letter topic {@code %DLQ%<group>}, created (perm 6, 1 queue, SimpleCQ) and announced if absent.
     *
     * @return completes with the topic once it exists and, if it was created, was announced
     * @throws IllegalArgumentException naming the group when invalid
     */
    public CompletableFuture<TopicConfig> ensureDlqTopic(String group) {
        return ensure(TopicNames.dlqTopic(group), DLQ_QUEUE_NUMS);
    }

    /**
     * The topic a send targets when it does not exist yet (docs/wire-protocol.md#send). Creates:
     * <ul>
     *   <li>a {@code %RETRY%} topic with 1 queue, perm 6 (always);</li>
     *   <li>otherwise, only when auto-creation is enabled and {@code defaultTopic} exists with the INHERIT bit:
     *       {@code min(requestedQueueNums, template.writeQueueNums)} read and write queues, the template's
     *       permission without INHERIT and its filter type, SimpleCQ.</li>
     * </ul>
     * The creation is persisted before this returns and announced in the background (the send does not wait).
     *
     * @return the existing or created topic; empty when the topic may not be created, or the name is illegal
     */
    public Optional<TopicConfig> autoCreateForSend(String topic, String defaultTopic, int requestedQueueNums) {
        Optional<TopicConfig> existing = metadata.getTopic(topic);
        if (existing.isPresent() || !TopicNames.isValid(topic)) {
            return existing;
        }
        TopicConfig created;
        TableVersion version;
        synchronized (this) {
            existing = metadata.getTopic(topic);
            if (existing.isPresent()) {
                return existing;
            }
            if (TopicNames.isRetryTopic(topic)) {
                created = TopicConfig.of(topic, 1, ConsumeQueueType.SIMPLE);
            } else {
                Optional<TopicConfig> template = defaultTopic == null || !settings.autoCreateTopicEnable()
                        ? Optional.empty() : metadata.getTopic(defaultTopic);
                if (template.isEmpty() || !TopicPerm.isInherited(template.get().perm())
                        || TopicNames.isSystemTopic(topic)) {
                    return Optional.empty();
                }
                TopicConfig t = template.get();
                int queues = Math.max(1, Math.min(requestedQueueNums, t.writeQueueNums()));
                created = new TopicConfig(topic, queues, queues, t.perm() & ~TopicPerm.INHERIT, t.topicFilterType(),
                        0, false, ConsumeQueueType.SIMPLE, Map.of());
            }
            version = metadata.putTopic(created);
        }
        LOG.info("topic auto-created by a send: {}", created);
        announcer.announce(List.of(created), version);
        return Optional.of(created);
    }

    private CompletableFuture<TopicConfig> ensure(String topic, int queueNums) {
        Optional<TopicConfig> existing = metadata.getTopic(topic);
        if (existing.isPresent()) {
            return CompletableFuture.completedFuture(existing.get());
        }
        TopicConfig created;
        TableVersion version;
        synchronized (this) {
            existing = metadata.getTopic(topic);
            if (existing.isPresent()) {
                return CompletableFuture.completedFuture(existing.get());
            }
            created = TopicConfig.of(topic, queueNums, ConsumeQueueType.SIMPLE);
            version = metadata.putTopic(created);
        }
        LOG.info("topic created for a consumer group: {}", created);
        return announcer.announce(List.of(created), version).thenApply(ignored -> created);
    }

    /**
     * The attributes after an update. An attribute string that only repeats values the topic already has is no
     * change, even for unchangeable keys; anything else follows {@link TopicAttributes#forUpdate}.
     */
    private static Map<String, String> attributesForUpdate(Map<String, String> current, String spec) {
        Map<String, String> requested;
        try {
            requested = TopicAttributes.forCreate(spec);
        } catch (IllegalArgumentException notOnlyAdditions) {
            requested = null;
        }
        if (requested != null && current.entrySet().containsAll(requested.entrySet())) {
            return current;
        }
        return TopicAttributes.forUpdate(current, spec);
    }
}
