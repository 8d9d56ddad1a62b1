package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.ConsumerGroupView;
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
import io.sluice.store.meta.ConsumerOffset;
import io.sluice.store.meta.MetadataStore;
import io.sluice.store.meta.TopicConfig;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Queue and consumer progress for admin tools (wire-protocol §4.18, §4.20): GET_TOPIC_STATS_INFO (202) and
 * GET_CONSUME_STATS (208).
 *
 * <ul>
 *   <li>202, header {@code topic}: per queue {@code 0 .. max(read, write) - 1} its min and max offsets and the store
 *       time of the message at {@code max - 1} (0 if none), plus the topic's put rate; TOPIC_NOT_EXIST for an
 *       unknown topic.</li>
 *   <li>208, header {@code consumerGroup}, optional {@code topic} or {@code topicList} ({@code ;}-separated): the
 *       topics given, else every topic the group committed offsets for; a topic the group does not subscribe to is
 *       left out when the group has subscriptions (it is online). Per queue {@code 0 .. readQueueNums - 1}: broker
 *       offset (max), consumer offset (committed, 0 if none), pull offset (max of the committed offset and the last
 *       pull's next offset), the store time of the message at {@code consumerOffset - 1} (0 if none); plus the
 *       group's consume rate over those topics.</li>
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

    /**
     * @param store      queue offsets and store times
     * @param topics     topic configs
     * @param offsets    committed consumer offsets
     * @param clients    the groups' subscriptions
     * @param stats      rates and pull offsets
     * @param brokerName the broker name of the reported queues
     */
    public StatsHandler(MessageStore store, TopicRegistry topics, CommittedOffsets offsets, ClientRegistry clients,
                        BrokerStats stats, String brokerName) {
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
