package io.sluice.broker.client;

import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.store.TopicNames;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configs of consumer (subscription) groups, with Apache's auto-creation: when
 * {@code autoCreateSubscriptionGroup} is on, the first heartbeat or pull of an unknown group creates it with the
 * defaults of {@link SubscriptionGroupConfig#defaults}.
 *
 * <p>Thread-safe: lookups are served from the metadata store's memory; a creation is one synced write (about a
 * millisecond), so callers on latency-sensitive threads look up first. Owned by the broker's composition root.
 */
public final class SubscriptionGroups {

    private static final Logger LOG = LoggerFactory.getLogger(SubscriptionGroups.class);

    private final MetadataStore metadata;
    private final PendingResets resets = new PendingResets();
    private volatile boolean autoCreate;

    /**
     * @param metadata   where group configs live
     * @param autoCreate {@code autoCreateSubscriptionGroup}
     */
    public SubscriptionGroups(MetadataStore metadata, boolean autoCreate) {
        this.metadata = metadata;
        this.autoCreate = autoCreate;
    }

    /** The group's config, or empty. Never writes. */
    public Optional<SubscriptionGroupConfig> find(String group) {
        return metadata.getGroup(group);
    }

    /**
     * The group's config, creating it with the defaults when it is unknown and auto-creation is on.
     *
     * @return empty when the group is unknown and auto-creation is off, or the name is illegal
     */
    public Optional<SubscriptionGroupConfig> findOrCreate(String group) {
        Optional<SubscriptionGroupConfig> existing = metadata.getGroup(group);
        if (existing.isPresent() || !autoCreate || !TopicNames.isValidGroup(group)) {
            return existing;
        }
        SubscriptionGroupConfig created = SubscriptionGroupConfig.defaults(group);
        metadata.putGroup(created);
        LOG.info("subscription group {} auto-created", group);
        return Optional.of(created);
    }

    /** True when a lookup would have to create the group (unknown and auto-creation on). */
    public boolean wouldCreate(String group) {
        return autoCreate && metadata.getGroup(group).isEmpty();
    }

    /** Offsets reset while the group is online, handed to its next pulls. */
    public PendingResets resets() {
        return resets;
    }

    /** Every group config, sorted by name. */
    public List<SubscriptionGroupConfig> all() {
        return metadata.allGroups();
    }

    /** Creates or replaces a group config (one synced write). */
    public void put(SubscriptionGroupConfig config) {
        metadata.putGroup(config);
        LOG.info("subscription group {} created or updated", config.groupName());
    }

    /**
     * Deletes a group config, with its committed offsets when {@code withOffsets}; pending resets go either way.
     *
     * @return false when the group did not exist (its offsets are still deleted when asked)
     */
    public boolean delete(String group, boolean withOffsets) {
        boolean existed = metadata.deleteGroup(group);
        resets.dropGroup(group);
        if (withOffsets) {
            metadata.deleteOffsetsOfGroup(group);
        }
        LOG.info("subscription group {} deleted{}", group, withOffsets ? " with its offsets" : "");
        return existed;
    }

    /** Turns {@code autoCreateSubscriptionGroup} on or off at run time (UPDATE_BROKER_CONFIG). */
    public void setAutoCreate(boolean on) {
        autoCreate = on;
    }

    /** Whether the group wants NOTIFY_CONSUMER_IDS_CHANGED; true for an unknown group (Apache's default). */
    public boolean notifyEnabled(String group) {
        return metadata.getGroup(group).map(SubscriptionGroupConfig::notifyConsumerIdsChangedEnable).orElse(true);
    }
}
