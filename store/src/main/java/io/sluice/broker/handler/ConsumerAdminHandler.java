package io.sluice.broker.handler;

import io.sluice.broker.client.ClientConnection;
import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.RemotingTimeoutException;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.ConsumerOffset;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Who consumes and produces what, for admin tools: QUERY_TOPIC_CONSUME_BY_WHO (300), GET_ALL_PRODUCER_INFO (328),
 * and the two requests the broker forwards to a live consumer, GET_CONSUMER_RUNNING_INFO (307) and
 * CONSUME_MESSAGE_DIRECTLY (309).
 *
 * <ul>
 *   <li>300, header {@code topic}: GroupList of the online groups subscribing to the topic and the groups that
 *       committed offsets for it.</li>
 *   <li>328: ProducerTableInfo of every online producer group.</li>
 *   <li>307, header {@code consumerGroup}, {@code clientId}: the request, headers and body unchanged, goes to that
 *       consumer's connection; its answer is the response. 309 likewise, with header {@code msgId} (an offset
 *       message id, whose last 16 hex digits are the CommitLog position): the stored record is the forwarded body
 *       and {@code brokerName}, {@code topicSysFlag} and {@code groupSysFlag} are added to the headers. A consumer
 *       that is not connected: SYSTEM_ERROR "not online"; no answer within {@value #FORWARD_TIMEOUT_MS} ms:
 *       CONSUME_MSG_TIMEOUT; a message id that names no stored record: SYSTEM_ERROR.</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. Forwarding holds no thread while the consumer answers.
 */
public final class ConsumerAdminHandler {

    /** How long a forwarded request waits for the consumer (Apache's broker-to-client timeout). */
    static final long FORWARD_TIMEOUT_MS = 10_000;
    /** Hex digits of the CommitLog position at the end of an offset message id. */
    private static final int POSITION_HEX_DIGITS = 16;

    private final ClientRegistry clients;
    private final MetadataStore metadata;
    private final MessageStore store;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;
    private final String brokerName;

    /**
     * @param clients    online groups and their connections
     * @param metadata   committed offsets
     * @param store      stored records (309)
     * @param topics     topic sysflags (309)
     * @param groups     group sysflags (309)
     * @param brokerName added to forwarded 309 requests
     */
    public ConsumerAdminHandler(ClientRegistry clients, MetadataStore metadata, MessageStore store,
                                TopicRegistry topics, SubscriptionGroups groups, String brokerName) {
        this.clients = clients;
        this.metadata = metadata;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.brokerName = brokerName;
    }

    /** QUERY_TOPIC_CONSUME_BY_WHO (300). */
    public RemotingCommand onQueryTopicConsumeByWho(ConnectionContext connection, RemotingCommand request) {
        String topic = request.requireString("topic");
        Set<String> names = new TreeSet<>(clients.consumerGroupsSubscribing(topic));
        for (ConsumerOffset offset : metadata.offsetsForTopic(topic)) {
            names.add(offset.group());
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(AdminBodyDescriptor.groupList(names)));
    }

    /** GET_ALL_PRODUCER_INFO (328). */
    public RemotingCommand onGetAllProducerInfo(ConnectionContext connection, RemotingCommand request) {
        Map<String, List<ClientConnection>> table = new LinkedHashMap<>();
        for (String group : clients.producerGroups()) {
            List<ClientConnection> members = clients.producerConnections(group);
            if (!members.isEmpty()) {
                table.put(group, members);
            }
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(AdminBodyDescriptor.producerTable(table)));
    }

    /** GET_CONSUMER_RUNNING_INFO (307). */
    public CompletableFuture<RemotingCommand> onGetConsumerRunningInfo(ConnectionContext connection,
                                                                       RemotingCommand request) {
        RemotingCommand forward = RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO)
                .setExtFields(request.extFields()).setBody(request.body());
        return forward(request.requireString("consumerGroup"), request.requireString("clientId"), forward);
    }

    /** CONSUME_MESSAGE_DIRECTLY (309). */
    public CompletableFuture<RemotingCommand> onConsumeMessageDirectly(ConnectionContext connection,
                                                                       RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        String msgId = request.requireString("msgId");
        Optional<ByteBuffer> record = recordOf(msgId);
        if (record.isEmpty()) {
            return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                    "no stored message has the id " + msgId));
        }
        RemotingCommand forward = RemotingCommand.request(RequestCode.CONSUME_MESSAGE_DIRECTLY)
                .setExtFields(request.extFields()).putExtField("brokerName", brokerName).setBody(record.get());
        String topic = request.extField("topic");
        if (topic != null) {
            topics.find(topic).map(TopicConfig::topicSysFlag).ifPresent(f -> forward.putExtField("topicSysFlag", f));
        }
        groups.find(group).map(SubscriptionGroupConfig::groupSysFlag)
                .ifPresent(f -> forward.putExtField("groupSysFlag", f));
        return forward(group, request.requireString("clientId"), forward);
    }

    private Optional<ByteBuffer> recordOf(String msgId) {
        if (msgId.length() < POSITION_HEX_DIGITS) {
            return Optional.empty();
        }
        long position;
        try {
            position = Long.parseUnsignedLong(msgId.substring(msgId.length() - POSITION_HEX_DIGITS), 16);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return position < 0 ? Optional.empty() : store.recordAt(position);
    }

    private CompletableFuture<RemotingCommand> forward(String group, String clientId, RemotingCommand forward) {
        Optional<ConnectionContext> target = clients.consumerConnection(group, clientId);
        if (target.isEmpty()) {
            return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                    "The Consumer <" + group + "> <" + clientId + "> not online"));
        }
        return target.get().sendRequest(forward, FORWARD_TIMEOUT_MS).handle((answer, error) -> {
            if (error == null) {
                return RemotingCommand.response(answer.code(), answer.remark()).setExtFields(answer.extFields())
                        .setBody(answer.body());
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            int code = cause instanceof RemotingTimeoutException ? ResponseCode.CONSUME_MSG_TIMEOUT
                    : ResponseCode.SYSTEM_ERROR;
            return RemotingCommand.response(code, "consumer <" + group + "> <" + clientId + "> did not answer: "
                    + cause);
        });
    }
}
