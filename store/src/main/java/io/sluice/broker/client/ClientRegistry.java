package io.sluice.broker.client;

import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.ConnectionListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Producer and consumer groups and their member connections, as heartbeats describe them
 * (docs/wire-protocol.md#client-membership). {@link #registerConsumer} adds or refreshes a member and replaces the
 * group's subscriptions with the heartbeat's; the caller then notifies the group ({@link #notifyConsumerIdsChanged},
 * oneway, to CLUSTERING members whose config allows it) when a member joined or the topics changed. A member leaves
 * on UNREGISTER_CLIENT ({@link #unregisterConsumer}), on close ({@link #onClosed}) or after
 * {@code channelExpiredTimeoutMs} without a heartbeat ({@link #scanExpired}, which closes the connection).
 *
 * <p>Thread-safe. Heartbeats arrive on the connections' lanes, closes on I/O threads, expiry scans on the broker's
 * scheduler. Each group's members and settings are guarded by the group object's monitor, held by the thread that
 * changes them; the subscription table is an immutable map published through a volatile field, so the pull path
 * reads it without locking. Notifications are sent after the monitor is released. Owned by the composition root.
 */
public final class ClientRegistry implements ConnectionListener {

    private static final Logger LOG = LoggerFactory.getLogger(ClientRegistry.class);

    private volatile long channelExpiredTimeoutMs;
    private final EpochClock clock;
    private final Predicate<String> notifyEnabled;
    private final ConcurrentHashMap<String, ConsumerGroup> consumers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ProducerGroup> producers = new ConcurrentHashMap<>();
    private final AtomicLong notificationsSent = new AtomicLong();

    /**
     * @param channelExpiredTimeoutMs a member without heartbeat for this long is dropped (Apache: 120 s)
     * @param clock                   the time source of heartbeat stamps
     * @param notifyEnabled           whether a consumer group wants NOTIFY_CONSUMER_IDS_CHANGED (its config's
     *                                {@code notifyConsumerIdsChangedEnable})
     */
    public ClientRegistry(long channelExpiredTimeoutMs, EpochClock clock, Predicate<String> notifyEnabled) {
        if (channelExpiredTimeoutMs <= 0) {
            throw new IllegalArgumentException("channelExpiredTimeoutMs must be positive: " + channelExpiredTimeoutMs);
        }
        this.channelExpiredTimeoutMs = channelExpiredTimeoutMs;
        this.clock = clock;
        this.notifyEnabled = notifyEnabled;
    }

    /** Changes {@code clientChannelExpiredTimeoutMs} at run time (UPDATE_BROKER_CONFIG); the next scan uses it. */
    public void setChannelExpiredTimeoutMs(long timeoutMs) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("channelExpiredTimeoutMs must be positive: " + timeoutMs);
        }
        channelExpiredTimeoutMs = timeoutMs;
    }

    /**
     * What a consumer heartbeat changed.
     *
     * @param newMember            the connection was not yet a member of the group
     * @param subscriptionsChanged a topic was added to or removed from the group's subscriptions
     */
    public record ConsumerRegistration(boolean newMember, boolean subscriptionsChanged) {

        /** True when the group's members should rebalance. */
        public boolean changed() {
            return newMember || subscriptionsChanged;
        }
    }

    // ------------------------------------------------------------------------------------------------ changes

    /** Adds or refreshes {@code connection} as a member of the consumer group in {@code data}. */
    public ConsumerRegistration registerConsumer(ConnectionContext connection, String clientId, LanguageCode language,
                                                 int version, ConsumerData data) {
        long nowMs = clock.time();
        Member member = new Member(clientId, connection, language, version, nowMs);
        while (true) {
            ConsumerGroup group = consumers.computeIfAbsent(data.groupName(), ConsumerGroup::new);
            synchronized (group) {
                if (group.removed) {
                    continue; // emptied and dropped concurrently: start over with a fresh group
                }
                boolean newMember = group.members.put(connection, member) == null;
                group.consumeType = data.consumeType();
                group.messageModel = data.messageModel();
                group.consumeFromWhere = data.consumeFromWhere();
                boolean changed = group.replaceSubscriptions(data.subscriptionDataSet());
                if (newMember) {
                    LOG.info("consumer {} ({}) joined group {}", clientId, connection.remoteAddressText(),
                            data.groupName());
                }
                return new ConsumerRegistration(newMember, changed);
            }
        }
    }

    /** Adds or refreshes {@code connection} as a member of producer group {@code groupName}. */
    public void registerProducer(ConnectionContext connection, String clientId, LanguageCode language, int version,
                                 String groupName) {
        Member member = new Member(clientId, connection, language, version, clock.time());
        while (true) {
            ProducerGroup group = producers.computeIfAbsent(groupName, ProducerGroup::new);
            synchronized (group) {
                if (!group.removed) {
                    group.members.put(connection, member);
                    return;
                }
            }
        }
    }

    /**
     * Removes {@code connection} from consumer group {@code groupName} (UNREGISTER_CLIENT) and notifies the
     * remaining members.
     *
     * @return false when it was not a member
     */
    public boolean unregisterConsumer(String groupName, ConnectionContext connection) {
        ConsumerGroup group = consumers.get(groupName);
        if (group == null) {
            return false;
        }
        List<ConnectionContext> remaining;
        synchronized (group) {
            if (group.members.remove(connection) == null) {
                return false;
            }
            remaining = afterRemoval(group);
        }
        notifyMembers(groupName, remaining);
        return true;
    }

    /**
     * Removes {@code connection} from producer group {@code groupName} (UNREGISTER_CLIENT).
     *
     * @return false when it was not a member
     */
    public boolean unregisterProducer(String groupName, ConnectionContext connection) {
        ProducerGroup group = producers.get(groupName);
        if (group == null) {
            return false;
        }
        synchronized (group) {
            boolean removed = group.members.remove(connection) != null;
            if (group.members.isEmpty()) {
                group.removed = true;
                producers.remove(groupName, group);
            }
            return removed;
        }
    }

    /**
     * Sends NOTIFY_CONSUMER_IDS_CHANGED (oneway) to every member of the group, when the group is CLUSTERING and
     * its config allows notifications.
     */
    public void notifyConsumerIdsChanged(String groupName) {
        ConsumerGroup group = consumers.get(groupName);
        if (group == null) {
            return;
        }
        List<ConnectionContext> targets;
        synchronized (group) {
            targets = List.copyOf(group.members.keySet());
        }
        notifyMembers(groupName, targets);
    }

    /** Drops the closed connection from every group it was a member of. */
    @Override
    public void onClosed(ConnectionContext connection) {
        for (ConsumerGroup group : consumers.values()) {
            List<ConnectionContext> remaining;
            synchronized (group) {
                Member gone = group.members.remove(connection);
                if (gone == null) {
                    continue;
                }
                LOG.info("consumer {} ({}) left group {}: connection closed", gone.clientId,
                        connection.remoteAddressText(), group.name);
                remaining = afterRemoval(group);
            }
            notifyMembers(group.name, remaining);
        }
        for (ProducerGroup group : producers.values()) {
            unregisterProducer(group.name, connection);
        }
    }

    /**
     * Drops and closes every member connection whose last heartbeat is older than {@code channelExpiredTimeoutMs}.
     * The broker runs this periodically.
     *
     * @return the number of memberships dropped
     */
    public int scanExpired() {
        long deadlineMs = clock.time() - channelExpiredTimeoutMs;
        int dropped = 0;
        List<ConnectionContext> toClose = new ArrayList<>();
        for (ConsumerGroup group : consumers.values()) {
            List<ConnectionContext> remaining = List.of();
            synchronized (group) {
                boolean anyExpired = false;
                for (var it = group.members.values().iterator(); it.hasNext(); ) {
                    Member member = it.next();
                    if (member.lastUpdateMs < deadlineMs) {
                        it.remove();
                        anyExpired = true;
                        dropped++;
                        toClose.add(member.connection);
                        LOG.warn("consumer {} ({}) expired from group {}: no heartbeat for {} ms", member.clientId,
                                member.connection.remoteAddressText(), group.name, channelExpiredTimeoutMs);
                    }
                }
                if (anyExpired) {
                    remaining = afterRemoval(group);
                }
            }
            notifyMembers(group.name, remaining);
        }
        for (ProducerGroup group : producers.values()) {
            synchronized (group) {
                for (var it = group.members.values().iterator(); it.hasNext(); ) {
                    Member member = it.next();
                    if (member.lastUpdateMs < deadlineMs) {
                        it.remove();
                        dropped++;
                        toClose.add(member.connection);
                    }
                }
                if (group.members.isEmpty()) {
                    group.removed = true;
                    producers.remove(group.name, group);
                }
            }
        }
        toClose.forEach(ConnectionContext::close);
        return dropped;
    }

    // ------------------------------------------------------------------------------------------------ reads

    /** The group's subscription of {@code topic}, or empty. Lock-free; for the pull path. */
    public Optional<SubscriptionData> subscription(String groupName, String topic) {
        ConsumerGroup group = consumers.get(groupName);
        return group == null ? Optional.empty() : Optional.ofNullable(group.subscriptions.get(topic));
    }

    /** True when the consumer group has at least one member. */
    public boolean isConsumerGroupOnline(String groupName) {
        return consumers.containsKey(groupName);
    }

    /** Client ids of the group's members in registration order; empty when the group is offline. */
    public List<String> consumerIds(String groupName) {
        ConsumerGroup group = consumers.get(groupName);
        if (group == null) {
            return List.of();
        }
        synchronized (group) {
            List<String> ids = new ArrayList<>(group.members.size());
            group.members.values().forEach(m -> ids.add(m.clientId));
            return ids;
        }
    }

    /** Names of the online consumer groups, sorted. */
    public Set<String> consumerGroups() {
        return Collections.unmodifiableSet(new TreeSet<>(consumers.keySet()));
    }

    /** A snapshot of the consumer group, or empty when it is offline. */
    public Optional<ConsumerGroupView> consumerGroup(String groupName) {
        ConsumerGroup group = consumers.get(groupName);
        if (group == null) {
            return Optional.empty();
        }
        synchronized (group) {
            if (group.removed) {
                return Optional.empty();
            }
            return Optional.of(new ConsumerGroupView(group.name, group.consumeType, group.messageModel,
                    group.consumeFromWhere, connections(group.members), group.subscriptions));
        }
    }

    /** Names of the online consumer groups that subscribe to {@code topic}, sorted. */
    public Set<String> consumerGroupsSubscribing(String topic) {
        Set<String> names = new TreeSet<>();
        consumers.forEach((name, group) -> {
            if (group.subscriptions.containsKey(topic)) {
                names.add(name);
            }
        });
        return Collections.unmodifiableSet(names);
    }

    /**
     * The live connection of the consumer {@code clientId} in group {@code groupName}, for requests the broker
     * forwards to a consumer (GET_CONSUMER_RUNNING_INFO, CONSUME_MESSAGE_DIRECTLY). Empty when it is not a member.
     */
    public Optional<ConnectionContext> consumerConnection(String groupName, String clientId) {
        ConsumerGroup group = groupName == null ? null : consumers.get(groupName);
        if (group == null) {
            return Optional.empty();
        }
        synchronized (group) {
            for (Member m : group.members.values()) {
                if (m.clientId.equals(clientId) && m.connection.isActive()) {
                    return Optional.of(m.connection);
                }
            }
            return Optional.empty();
        }
    }

    /** Names of the online producer groups, sorted. */
    public Set<String> producerGroups() {
        return Collections.unmodifiableSet(new TreeSet<>(producers.keySet()));
    }

    /** The producer group's member connections; empty when it is offline. */
    public List<ClientConnection> producerConnections(String groupName) {
        ProducerGroup group = producers.get(groupName);
        if (group == null) {
            return List.of();
        }
        synchronized (group) {
            return connections(group.members);
        }
    }

    /**
     * A live connection of producer group {@code groupName}: the active member with the latest heartbeat, for
     * requests the broker sends to a producer (CHECK_TRANSACTION_STATE). Empty when no member is connected.
     */
    public Optional<ConnectionContext> producerConnection(String groupName) {
        ProducerGroup group = groupName == null ? null : producers.get(groupName);
        if (group == null) {
            return Optional.empty();
        }
        synchronized (group) {
            Member latest = null;
            for (Member m : group.members.values()) {
                if (m.connection.isActive() && (latest == null || m.lastUpdateMs > latest.lastUpdateMs)) {
                    latest = m;
                }
            }
            return latest == null ? Optional.empty() : Optional.of(latest.connection);
        }
    }

    /** NOTIFY_CONSUMER_IDS_CHANGED requests sent so far. */
    public long notificationsSent() {
        return notificationsSent.get();
    }

    // ------------------------------------------------------------------------------------------------ internals

    /** After a member left: drops an empty group, else returns the members to notify. Caller holds the monitor. */
    private List<ConnectionContext> afterRemoval(ConsumerGroup group) {
        if (group.members.isEmpty()) {
            group.removed = true;
            consumers.remove(group.name, group);
            LOG.info("consumer group {} is offline", group.name);
            return List.of();
        }
        return List.copyOf(group.members.keySet());
    }

    private void notifyMembers(String groupName, List<ConnectionContext> targets) {
        if (targets.isEmpty() || !notifyEnabled.test(groupName)) {
            return;
        }
        ConsumerGroup group = consumers.get(groupName);
        if (group == null || group.messageModel != MessageModel.CLUSTERING) {
            return;
        }
        for (ConnectionContext target : targets) {
            if (!target.isActive()) {
                continue;
            }
            RemotingCommand notify = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED)
                    .putExtField("consumerGroup", groupName);
            notificationsSent.incrementAndGet();
            target.sendOneway(notify).whenComplete((ignored, error) -> {
                if (error != null) {
                    LOG.debug("notifying {} of group {} failed: {}", target.remoteAddressText(), groupName,
                            error.toString());
                }
            });
        }
    }

    private static List<ClientConnection> connections(Map<ConnectionContext, Member> members) {
        List<ClientConnection> list = new ArrayList<>(members.size());
        for (Member m : members.values()) {
            list.add(new ClientConnection(m.clientId, m.connection.remoteAddressText(), m.language, m.version,
                    m.lastUpdateMs));
        }
        return list;
    }

    /** One connection's membership in one group; replaced on every heartbeat. Immutable. */
    private static final class Member {
        final String clientId;
        final ConnectionContext connection;
        final LanguageCode language;
        final int version;
        final long lastUpdateMs;

        Member(String clientId, ConnectionContext connection, LanguageCode language, int version, long lastUpdateMs) {
            this.clientId = clientId;
            this.connection = connection;
            this.language = language;
            this.version = version;
            this.lastUpdateMs = lastUpdateMs;
        }
    }

    /** A consumer group. Fields other than {@code subscriptions} are guarded by this object's monitor. */
    private static final class ConsumerGroup {
        final String name;
        final Map<ConnectionContext, Member> members = new LinkedHashMap<>();
        ConsumeType consumeType = ConsumeType.CONSUME_PASSIVELY;
        MessageModel messageModel = MessageModel.CLUSTERING;
        ConsumeFromWhere consumeFromWhere = ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET;
        /** Written under the monitor, read without it (the pull path). */
        volatile Map<String, SubscriptionData> subscriptions = Map.of();
        boolean removed;

        ConsumerGroup(String name) {
            this.name = name;
        }

        /**
         * Makes the table equal the heartbeat's set, keeping an entry whose subVersion is not newer.
         *
         * @return true when a topic was added or removed
         */
        boolean replaceSubscriptions(Set<SubscriptionData> incoming) {
            Map<String, SubscriptionData> current = subscriptions;
            Map<String, SubscriptionData> next = new HashMap<>(incoming.size() * 2);
            boolean changed = false;
            for (SubscriptionData sub : incoming) {
                SubscriptionData old = current.get(sub.topic());
                if (old == null) {
                    changed = true;
                    next.put(sub.topic(), sub);
                } else {
                    next.put(sub.topic(), sub.subVersion() > old.subVersion() ? sub : old);
                }
            }
            if (!changed && next.size() != current.size()) {
                changed = true; // a topic disappeared
            }
            if (changed || !next.equals(current)) {
                subscriptions = Map.copyOf(next);
            }
            return changed;
        }
    }

    /** A producer group. Guarded by this object's monitor. */
    private static final class ProducerGroup {
        final String name;
        final Map<ConnectionContext, Member> members = new LinkedHashMap<>();
        boolean removed;

        ProducerGroup(String name) {
            this.name = name;
        }
    }
}
