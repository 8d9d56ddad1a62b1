package io.sluice.broker.handler;

import io.sluice.broker.topic.TopicOutcome;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicUpdate;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.broker.meta.TopicTable;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Topic administration requests (docs/wire-protocol.md#topic-administration): UPDATE_AND_CREATE_TOPIC (17),
 * DELETE_TOPIC_IN_BROKER (215), GET_ALL_TOPIC_CONFIG (21) and GET_TOPIC_CONFIG (351).
 *
 * <p>Creation and deletion write synced metadata, so the composition root runs them on its admin executor, not
 * on a connection's lane. A creation is answered only after the name servers have the new route.
 *
 * <p>Thread-safe; stateless apart from its collaborators.
 */
public final class TopicHandler {

    private final TopicRegistry topics;
    private final Consumer<String> dropQueues;

    /**
     * @param topics     the topic table
     * @param dropQueues drops a deleted topic's consume queues from the store
     */
    public TopicHandler(TopicRegistry topics, Consumer<String> dropQueues) {
        this.topics = topics;
        this.dropQueues = dropQueues;
    }

    /**
     * UPDATE_AND_CREATE_TOPIC (17). Illegal names and queue counts or permissions are INVALID_PARAMETER;
     * attribute errors are SYSTEM_ERROR (as in Apache); the remark names the bad value.
     */
    public CompletableFuture<RemotingCommand> onUpdateAndCreateTopic(ConnectionContext connection,
                                                                     RemotingCommand request) {
        TopicUpdate update = new TopicUpdate(
                request.requireString("topic"),
                request.requireInt("readQueueNums"),
                request.requireInt("writeQueueNums"),
                request.requireInt("perm"),
                request.optionalString("topicFilterType", null),
                request.optionalInt("topicSysFlag", 0),
                request.optionalBoolean("order", false),
                request.optionalString("attributes", null));
        return topics.createOrUpdate(update).thenApply(TopicHandler::answer);
    }

    /** DELETE_TOPIC_IN_BROKER (215): drops the topic's config, offsets and consume queues. */
    public RemotingCommand onDeleteTopic(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        TopicOutcome outcome = topics.delete(topic);
        if (outcome.status().isRefusal()) {
            return answer(outcome);
        }
        dropQueues.accept(topic);
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }

    /**
     * GET_ALL_TOPIC_CONFIG (21): header {@code totalTopicNum}; body the TopicConfigSerializeWrapper JSON of every
     * topic.
     */
    public RemotingCommand onGetAllTopicConfig(ConnectionContext connection, RemotingCommand request) {
        TopicTable table = topics.table();
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .putExtField("totalTopicNum", table.topics().size())
                .setBody(MetadataJson.topicConfigWrapperJson(table).getBytes(StandardCharsets.UTF_8));
    }

    /** GET_TOPIC_CONFIG (351): body the TopicConfig JSON, or TOPIC_NOT_EXIST. */
    public RemotingCommand onGetTopicConfig(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        Optional<TopicConfig> config = topics.find(topic);
        if (config.isEmpty()) {
            return RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "No topic in this broker. topic: " + topic);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(MetadataJson.topicToJson(config.get()).getBytes(StandardCharsets.UTF_8));
    }

    private static RemotingCommand answer(TopicOutcome outcome) {
        return switch (outcome.status()) {
            case CREATED, UPDATED, UNCHANGED, DELETED, NOT_FOUND -> RemotingCommand.response(ResponseCode.SUCCESS,
                    null);
            case INVALID_NAME, INVALID_CONFIG -> RemotingCommand.response(ResponseCode.INVALID_PARAMETER,
                    outcome.detail());
            case INVALID_ATTRIBUTES -> RemotingCommand.response(ResponseCode.SYSTEM_ERROR, outcome.detail());
        };
    }
}
