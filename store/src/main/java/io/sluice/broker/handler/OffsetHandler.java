package io.sluice.broker.handler;

import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import java.util.Optional;

/**
 * Offset requests (docs/wire-protocol.md#consumer-offsets): QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15),
 * SEARCH_OFFSET_BY_TIMESTAMP (29), GET_MAX_OFFSET (30), GET_MIN_OFFSET (31) and GET_EARLIEST_MSG_STORETIME (32).
 *
 * <p>Consumer offsets are written to the metadata store's log without fsync (a crash of the process keeps them;
 * the broker makes them durable periodically). All requests are cheap; the broker runs them on its control
 * executor.
 *
 * <p>Thread-safe; stateless apart from its collaborators.
 */
public final class OffsetHandler {

    private final MessageStore store;
    private final MetadataStore offsets;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;

    /**
     * @param store   queue offsets and store times
     * @param offsets committed consumer offsets
     * @param topics  topic lookups
     * @param groups  subscription group configs
     */
    public OffsetHandler(MessageStore store, MetadataStore offsets, TopicRegistry topics, SubscriptionGroups groups) {
        this.store = store;
        this.offsets = offsets;
        this.topics = topics;
        this.groups = groups;
    }

    /**
     * QUERY_CONSUMER_OFFSET (14). The committed offset; without one, 0 when a queue of an existing topic starts at
     * offset 0, empty or not (Apache's "hot data" rule, approximated), unless {@code setZeroIfNotFound} is
     * {@code false}; else QUERY_NOT_FOUND. An empty queue answers 0 rather than leaving the client to ask for the
     * max offset next: a first message stored between the two questions would be skipped by a new group consuming
     * from the last offset (OMB's readiness probe waits for exactly that message).
     */
    public RemotingCommand onQueryConsumerOffset(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        String topic = request.requireString("topic");
        int queueId = request.requireInt("queueId");
        if (queueId < 0) {
            return invalidQueue(queueId, topic);
        }
        long committed = offsets.queryOffset(group, topic, queueId);
        if (committed >= 0) {
            return offset(committed);
        }
        boolean zeroIfNotFound = request.optionalBoolean("setZeroIfNotFound", true);
        if (zeroIfNotFound && store.minOffset(topic, queueId) <= 0 && topics.find(topic).isPresent()) {
            return offset(0);
        }
        return RemotingCommand.response(ResponseCode.QUERY_NOT_FOUND,
                "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first");
    }

    /**
     * UPDATE_CONSUMER_OFFSET (15), usually oneway. Ignored (answered SUCCESS) while the queue has a reset its
     * consumer has not yet pulled ({@link io.sluice.broker.client.PendingResets}).
     */
    public RemotingCommand onUpdateConsumerOffset(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        String topic = request.requireString("topic");
        int queueId = request.requireInt("queueId");
        long commitOffset = request.requireLong("commitOffset");
        if (groups.findOrCreate(group).isEmpty()) {
            return RemotingCommand.response(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group ["
                    + group + "] does not exist");
        }
        Optional<TopicConfig> config = topics.find(topic);
        if (config.isEmpty()) {
            return RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        if (!config.get().isValidQueueId(queueId)) {
            return invalidQueue(queueId, topic);
        }
        if (commitOffset < 0) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "commitOffset " + commitOffset
                    + " of " + group + "/" + topic + "/" + queueId + " must be >= 0");
        }
        if (groups.resets().isPending(group, topic, queueId)) {
            // The commit carries the position from before an admin reset the consumer has not yet been told of.
            return RemotingCommand.response(ResponseCode.SUCCESS, "Offset has been previously reset");
        }
        offsets.commitOffset(group, topic, queueId, commitOffset);
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }

    /** GET_MAX_OFFSET (30): the next offset to be written; 0 for an unknown queue. */
    public RemotingCommand onGetMaxOffset(ConnectionContext connection, RemotingCommand request) {
        return offset(store.maxOffset(request.requireString("topic"), request.requireInt("queueId")));
    }

    /** GET_MIN_OFFSET (31): the first retained offset; 0 for an unknown queue. */
    public RemotingCommand onGetMinOffset(ConnectionContext connection, RemotingCommand request) {
        return offset(store.minOffset(request.requireString("topic"), request.requireInt("queueId")));
    }

    /**
     * SEARCH_OFFSET_BY_TIMESTAMP (29). {@code boundaryType} {@code lower} (default): the first message stored at or
     * after {@code timestamp}; {@code upper}: the last message stored at or before it.
     */
    public RemotingCommand onSearchOffsetByTimestamp(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        int queueId = request.requireInt("queueId");
        long timestampMs = request.requireLong("timestamp");
        String boundary = request.optionalString("boundaryType", "lower");
        if ("upper".equalsIgnoreCase(boundary)) {
            long min = store.minOffset(topic, queueId);
            long after = store.offsetByTimestamp(topic, queueId, timestampMs == Long.MAX_VALUE
                    ? timestampMs : timestampMs + 1);
            return offset(Math.max(min, after - 1));
        }
        if (!"lower".equalsIgnoreCase(boundary)) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "boundaryType '" + boundary
                    + "' is neither lower nor upper");
        }
        return offset(store.offsetByTimestamp(topic, queueId, timestampMs));
    }

    /** GET_EARLIEST_MSG_STORETIME (32): store time of the first retained message; -1 when the queue is empty. */
    public RemotingCommand onGetEarliestMsgStoreTime(ConnectionContext connection, RemotingCommand request) {
        long timestampMs = store.earliestStoreTimeMs(request.requireString("topic"), request.requireInt("queueId"));
        return RemotingCommand.response(ResponseCode.SUCCESS, null).putExtField("timestamp", timestampMs);
    }

    private static RemotingCommand offset(long offset) {
        return RemotingCommand.response(ResponseCode.SUCCESS, null).putExtField("offset", offset);
    }

    private static RemotingCommand invalidQueue(int queueId, String topic) {
        return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "queueId[" + queueId + "] of topic "
                + topic + " is illegal");
    }
}
