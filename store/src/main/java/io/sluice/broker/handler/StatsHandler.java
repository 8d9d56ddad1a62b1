package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.ConsumerGroupView;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConsumeStats;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.OffsetWrapper;
import io.sluice.remoting.protocol.body.TopicOffset;
import io.sluice.remoting.protocol.body.TopicStatsTable;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.ConsumerOffset;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Queue and consumer progress for admin tools (docs/wire-protocol.md#admin-queries): GET_TOPIC_STATS_INFO (202),
 * GET_CONSUME_STATS (208), GET_BROKER_CONSUME_STATS (317) and VIEW_BROKER_STATS_DATA (315).
 *
 * <ul>
 *   <li>202 ({@code topic}): per queue its min and max offsets and last store time, plus the put rate.</li>
 *   <li>208 ({@code consumerGroup}, optional {@code topic} or {@code topicList}): the topics given, else those the
 *       group committed offsets for (only subscribed ones while it is online); per readable queue the broker, consumer
 *       and pull offsets and last consumed store time, plus the group's consume rate.</li>
 *   <li>317 ({@code isOrder}): ConsumeStatsList ({@link AdminBodyDescriptor}) of every configured group (orderly
 *       only with {@code isOrder=true}), as 208 reports them, with {@code totalDiff}.</li>
 *   <li>315 ({@code statsName}, {@code statsKey}): BrokerStatsData for {@code TOPIC_PUT_NUMS} and
 *       {@code GROUP_GET_NUMS}; the minute item is the last 60 s, the hour and day items the totals since start (no
 *       longer windows are kept). Anything else: SYSTEM_ERROR "The stats &lt;name&gt; &lt;key&gt; not exist".</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. Reads only memory and consume-queue slots, so it may run
 * on the connection's lane.
 */
public final class StatsHandler {

    /** Where committed consumer offsets come from. Implementations must be thread-safe. */
    public interface CommittedOffsets {

        /** The committed offset of the queue, or a negative value when none was committed. */
        long committedOffset(String group, String topic, int queueId);

        /** The topics {@code group} committed offsets for. */
        Set<String> topicsOf(String group);

        /** Reads the offsets persisted in {@code metadata}. */
        static CommittedOffsets of(MetadataStore metadata) {
            return new CommittedOffsets() {
                @Override
                public long committedOffset(String group, String topic, int queueId) {
                    return metadata.queryOffset(group, topic, queueId);
                }

                @Override
                public Set<String> topicsOf(String group) {
                    Set<String> topics = new LinkedHashSet<>();
                    for (ConsumerOffset offset : metadata.offsetsOf(group)) {
                        topics.add(offset.topic());
                    }
                    return topics;
                }
            };
        }
    }

    private final MessageStore store;
    private final TopicRegistry topics;
    private final CommittedOffsets offsets;
    private final ClientRegistry clients;
    private final BrokerStats stats;
    private final String brokerName;
    private final SubscriptionGroups groups;
    private final String brokerAddr;
    private final LongSupplier uptimeMs;

    /**
     * @param store      queue offsets and store times
     * @param topics     topic configs
     * @param offsets    committed consumer offsets
     * @param clients    the groups' subscriptions
     * @param stats      rates and pull offsets
     * @param brokerName the broker name of the reported queues
     * @param groups     the group configs (317)
     * @param brokerAddr the broker's address as registered (317)
     * @param uptimeMs   how long the broker has run (315)
     */
    public StatsHandler(MessageStore store, TopicRegistry topics, CommittedOffsets offsets, ClientRegistry clients,
                        BrokerStats stats, String brokerName, SubscriptionGroups groups, String brokerAddr,
                        LongSupplier uptimeMs) {
        this.groups = groups;
        this.brokerAddr = brokerAddr;
        this.uptimeMs = uptimeMs;
        this.store = store;
        this.topics = topics;
        this.offsets = offsets;
        this.clients = clients;
        this.stats = stats;
        this.brokerName = brokerName;
    }

    /** GET_TOPIC_STATS_INFO (202). */
    public RemotingCommand onGetTopicStats(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        Optional<TopicConfig> config = topics.find(topic);
        if (config.isEmpty()) {
            return RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        Map<MessageQueue, TopicOffset> table = new LinkedHashMap<>();
        int queues = Math.max(config.get().readQueueNums(), config.get().writeQueueNums());
        for (int queueId = 0; queueId < queues; queueId++) {
            long min = Math.max(0, store.minOffset(topic, queueId));
            long max = Math.max(0, store.maxOffset(topic, queueId));
            long last = max > 0 ? Math.max(0, store.storeTimeMsAt(topic, queueId, max - 1)) : 0;
            table.put(new MessageQueue(topic, brokerName, queueId), new TopicOffset(min, max, last));
        }
        TopicStatsTable body = new TopicStatsTable(table, stats.topicPutTps(topic));
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(body));
    }

    /** GET_CONSUME_STATS (208). */
    public RemotingCommand onGetConsumeStats(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        Map<String, ?> subscriptions = clients.consumerGroup(group).map(ConsumerGroupView::subscriptions)
                .orElse(Map.of());
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        double consumeTps = 0;
        for (String topic : topicsAsked(request, group)) {
            Optional<TopicConfig> config = topics.find(topic);
            if (config.isEmpty() || (!subscriptions.isEmpty() && !subscriptions.containsKey(topic))) {
                continue;
            }
            for (int queueId = 0; queueId < config.get().readQueueNums(); queueId++) {
                table.put(new MessageQueue(topic, brokerName, queueId), progress(group, topic, queueId));
            }
            consumeTps += stats.consumeTps(group, topic);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(new ConsumeStats(table, consumeTps)));
    }

    /** GET_BROKER_CONSUME_STATS (317). */
    public RemotingCommand onGetBrokerConsumeStats(ConnectionContext connection, RemotingCommand request) {
        boolean orderlyOnly = request.optionalBoolean("isOrder", false);
        Map<String, List<ConsumeStats>> table = new LinkedHashMap<>();
        long totalDiff = 0;
        for (SubscriptionGroupConfig group : groups.all()) {
            if (orderlyOnly && !group.consumeMessageOrderly()) {
                continue;
            }
            List<ConsumeStats> perTopic = new ArrayList<>();
            for (String topic : offsets.topicsOf(group.groupName())) {
                Optional<TopicConfig> config = topics.find(topic);
                if (config.isEmpty()) {
                    continue;
                }
                Map<MessageQueue, OffsetWrapper> queues = new LinkedHashMap<>();
                for (int queueId = 0; queueId < config.get().readQueueNums(); queueId++) {
                    OffsetWrapper progress = progress(group.groupName(), topic, queueId);
                    queues.put(new MessageQueue(topic, brokerName, queueId), progress);
                    totalDiff += Math.max(0, progress.brokerOffset() - progress.consumerOffset());
                }
                perTopic.add(new ConsumeStats(queues, stats.consumeTps(group.groupName(), topic)));
            }
            if (!perTopic.isEmpty()) {
                table.put(group.groupName(), perTopic);
            }
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(
                AdminBodyDescriptor.consumeStatsList(brokerAddr, table, totalDiff)));
    }

    /** VIEW_BROKER_STATS_DATA (315). */
    public RemotingCommand onViewBrokerStatsData(ConnectionContext connection, RemotingCommand request) {
        String name = request.requireString("statsName");
        String key = request.requireString("statsKey");
        long total;
        double minuteTps;
        if ("TOPIC_PUT_NUMS".equals(name) && topics.find(key).isPresent()) {
            total = stats.topicPutTotal(key);
            minuteTps = stats.topicPutTpsMinute(key);
        } else if ("GROUP_GET_NUMS".equals(name) && key.indexOf('@') > 0) {
            String topic = key.substring(0, key.indexOf('@'));
            String group = key.substring(key.indexOf('@') + 1);
            total = stats.consumeTotal(group, topic);
            minuteTps = stats.consumeTpsMinute(group, topic);
        } else {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "The stats <" + name + "> <" + key
                    + "> not exist");
        }
        double upSeconds = Math.max(1, uptimeMs.getAsLong()) / 1000.0;
        Map<String, Object> sinceStart = AdminBodyDescriptor.brokerStatsItem(total, total / upSeconds);
        Map<String, Object> minute = AdminBodyDescriptor.brokerStatsItem(Math.round(minuteTps * 60), minuteTps);
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(
                AdminBodyDescriptor.brokerStatsData(minute, sinceStart, sinceStart)));
    }

    private OffsetWrapper progress(String group, String topic, int queueId) {
        long brokerOffset = Math.max(0, store.maxOffset(topic, queueId));
        long consumerOffset = Math.max(0, offsets.committedOffset(group, topic, queueId));
        long pullOffset = Math.max(consumerOffset, stats.pullOffset(group, topic, queueId).orElse(0));
        long lastTimestamp = consumerOffset > 0
                ? Math.max(0, store.storeTimeMsAt(topic, queueId, consumerOffset - 1)) : 0;
        return new OffsetWrapper(brokerOffset, consumerOffset, pullOffset, lastTimestamp);
    }

    private Set<String> topicsAsked(RemotingCommand request, String group) {
        Set<String> asked = new LinkedHashSet<>();
        String list = request.extField("topicList");
        if (list != null && !list.isBlank()) {
            for (String topic : list.split(";")) {
                if (!topic.isBlank()) {
                    asked.add(topic.trim());
                }
            }
            return asked;
        }
        String topic = request.extField("topic");
        if (topic != null && !topic.isBlank()) {
            asked.add(topic);
            return asked;
        }
        return offsets.topicsOf(group);
    }
}
