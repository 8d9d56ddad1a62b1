package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.ResetOffsetBody;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * INVOKE_BROKER_TO_RESET_OFFSET (222), behind {@code mqadmin resetOffsetByTime} and the dashboard's offset reset:
 * moves a group's consume offsets on a topic, whether its consumers are online or not (RocketMQ 5's server-side
 * reset, the only mode Sluice has).
 *
 * <p>Headers: {@code topic}, {@code group}, {@code timestamp}, optional {@code queueId} (default -1: every readable
 * queue), {@code offset} (with a queue id: the target offset, which must lie in {@code [min, max]} of the queue) and
 * {@code isForce} (default true; false leaves a queue alone when the target is not below its committed offset).
 * A timestamp below 0 means the queue's max offset; otherwise the first message stored at or after it.
 *
 * <p>Each moved queue's offset is committed, so an offline group starts there; when the group is online, the next
 * pull of each moved queue is answered PULL_OFFSET_MOVED with the new offset ({@link
 * io.sluice.broker.client.PendingResets}), and offset commits of the queue are ignored until then. The response
 * body is ResetOffsetBody, the moved queues and their new offsets. TOPIC_NOT_EXIST, SUBSCRIPTION_GROUP_NOT_EXIST
 * and INVALID_PARAMETER (queue or offset out of range) name what is wrong.
 *
 * <p>Thread-safe; stateless apart from its collaborators.
 */
public final class OffsetResetHandler {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetResetHandler.class);

    private final MessageStore store;
    private final MetadataStore metadata;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;
    private final ClientRegistry clients;
    private final String brokerName;

    /**
     * @param store      queue offsets and the time index
     * @param metadata   committed offsets
     * @param topics     topic configs
     * @param groups     group configs and pending resets
     * @param clients    whether the group is online
     * @param brokerName the broker name of the reported queues
     */
    public OffsetResetHandler(MessageStore store, MetadataStore metadata, TopicRegistry topics,
                              SubscriptionGroups groups, ClientRegistry clients, String brokerName) {
        this.store = store;
        this.metadata = metadata;
        this.topics = topics;
        this.groups = groups;
        this.clients = clients;
        this.brokerName = brokerName;
    }

    /** INVOKE_BROKER_TO_RESET_OFFSET (222). */
    public RemotingCommand onResetOffset(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        String group = request.requireString("group");
        long timestampMs = request.optionalLong("timestamp", 0);
        int queueId = request.optionalInt("queueId", -1);
        long offset = optionalOffset(request);
        boolean force = request.optionalBoolean("isForce", true);
        Optional<TopicConfig> config = topics.find(topic);
        if (config.isEmpty()) {
            return RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        if (groups.find(group).isEmpty()) {
            return RemotingCommand.response(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group ["
                    + group + "] does not exist");
        }
        Map<Integer, Long> targets = new LinkedHashMap<>();
        if (queueId >= 0) {
            if (queueId >= config.get().readQueueNums()) {
                return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "queueId " + queueId + " of topic "
                        + topic + " is not below readQueueNums " + config.get().readQueueNums());
            }
            if (offset >= 0) {
                long min = Math.max(0, store.minOffset(topic, queueId));
                long max = Math.max(0, store.maxOffset(topic, queueId));
                if (offset < min || offset > max) {
                    return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "offset " + offset + " of "
                            + topic + "/" + queueId + " is outside the queue's range [" + min + ", " + max + "]");
                }
                targets.put(queueId, offset);
            } else {
                targets.put(queueId, offsetAt(topic, queueId, timestampMs));
            }
        } else {
            for (int q = 0; q < config.get().readQueueNums(); q++) {
                targets.put(q, offsetAt(topic, q, timestampMs));
            }
        }
        boolean online = clients.isConsumerGroupOnline(group);
        Map<MessageQueue, Long> moved = new LinkedHashMap<>();
        targets.forEach((q, target) -> {
            long committed = metadata.queryOffset(group, topic, q);
            if (!force && committed >= 0 && target >= committed) {
                return;
            }
            // The pending reset first: a commit arriving between the two is then ignored, not kept.
            if (online) {
                groups.resets().put(group, topic, q, target);
            }
            metadata.commitOffset(group, topic, q, target);
            moved.put(new MessageQueue(topic, brokerName, q), target);
        });
        LOG.info("offsets of group {} on topic {} reset by {} ({}): {}", group, topic,
                connection.remoteAddressText(), online ? "online, moved at the next pulls" : "offline", moved);
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(new ResetOffsetBody(moved)));
    }

    private long offsetAt(String topic, int queueId, long timestampMs) {
        return timestampMs < 0 ? Math.max(0, store.maxOffset(topic, queueId))
                : store.offsetByTimestamp(topic, queueId, timestampMs);
    }

    /** The {@code offset} header, or -1 when absent, empty or -1 (Apache's "none"). */
    private static long optionalOffset(RemotingCommand request) {
        String text = request.extField("offset");
        return text == null || text.isBlank() || "null".equals(text) ? -1 : request.requireLong("offset");
    }
}
