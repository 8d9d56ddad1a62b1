package io.sluice.broker.handler;

import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.format.TopicFilterType;
import io.sluice.format.UniqKeyGenerator;
import io.sluice.store.TopicNames;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import org.agrona.concurrent.EpochClock;

/**
 * Send requests (docs/wire-protocol.md#send): SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320).
 *
 * <p>Runs on the connection's I/O thread (or its lane, with {@code sendOnIoThread=false}): validation and the store
 * append (which assigns positions and queue offsets) happen there, in arrival order; the response is built when
 * the append's future completes (after the flush the flush policy requires), without holding the thread.
 *
 * <p>How a request is stored:
 * <ul>
 *   <li>a single message: one record; a missing {@code UNIQ_KEY} is generated; {@code CLUSTER}, {@code MSG_REGION}
 *       and {@code TRACE_ON} are added (as Apache's broker adds them: a consumer with message trace enabled traces
 *       only messages that carry a region);</li>
 *   <li>a batch to a BatchCQ topic whose header properties carry {@code UNIQ_KEY}: one inner-batch record (the body
 *       verbatim, plus the same three properties); the response carries {@code batchUniqId};</li>
 *   <li>any other batch: one record per entry with the entry's own properties; the response's {@code msgId} lists
 *       every record's id, comma-joined.</li>
 * </ul>
 * Sends to a {@code %RETRY%} topic beyond the group's reconsume limit go to its {@code %DLQ%} topic.
 *
 * <p>Thread-safe; counters are the only state.
 */
public final class SendHandler {

    /** Region reported in send responses, as Apache brokers do. */
    static final String REGION = "DefaultRegion";
    /** Appended to a single message's or an inner batch's properties after {@code CLUSTER}. */
    private static final String TRACE_PROPERTIES = MessageProperties.MSG_REGION + MessageProperties.NAME_VALUE_SEPARATOR
            + REGION + MessageProperties.PROPERTY_SEPARATOR + MessageProperties.TRACE_ON
            + MessageProperties.NAME_VALUE_SEPARATOR + "true" + MessageProperties.PROPERTY_SEPARATOR;

    private final MessageStore store;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;
    private final SendSettings settings;
    private final UniqKeyGenerator uniqKeys;
    private final SendHooks hooks;
    private final LongAdder refused = new LongAdder();

    /**
     * @param store    where messages go
     * @param topics   topic lookups and auto-creation
     * @param groups   reconsume limits of retry sends
     * @param settings broker identity and limits
     * @param clock    the time source of generated message keys
     * @param hooks    the draft rewrite before the append and the report of stored appends
     */
    public SendHandler(MessageStore store, TopicRegistry topics, SubscriptionGroups groups, SendSettings settings,
                       EpochClock clock, SendHooks hooks) {
        this.hooks = hooks;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.settings = settings;
        // Keys for messages that arrive without one, in the client's format, with the broker's address.
        this.uniqKeys = new UniqKeyGenerator(settings.storeHost().getAddress().getAddress(),
                ProcessHandle.current().pid(), System.identityHashCode(this), clock::time, ZoneId.systemDefault());
    }

    /** Requests answered with an error code so far. */
    public long refusedCount() {
        return refused.sum();
    }

    /**
     * The group a send runs in when the sends of one read burst are grouped before they run (see
     * {@link io.sluice.remoting.transport.HandlerOptions}): its topic and queue id, so that the records of one queue
     * lie back to back in the CommitLog and share a BatchCQ slot, which a pull returns whole. Reads two header
     * fields, nothing else; a header without them gets group 0 and is refused when it runs.
     */
    public static int burstGroup(RemotingCommand request) {
        boolean v2 = request.code() != RequestCode.SEND_MESSAGE;
        return 31 * Objects.hashCode(request.extField(v2 ? "b" : "topic"))
                + Objects.hashCode(request.extField(v2 ? "e" : "queueId"));
    }

    /** SEND_MESSAGE (10), SEND_MESSAGE_V2 (310), SEND_BATCH_MESSAGE (320). */
    public CompletableFuture<RemotingCommand> onSend(ConnectionContext connection, RemotingCommand request) {
        SendRequest header;
        try {
            header = SendRequest.parse(request);
        } catch (MalformedHeaderException e) {
            return refuse(ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        if (!TopicPerm.isWriteable(settings.brokerPermission())) {
            return refuse(ResponseCode.NO_PERMISSION, "the broker[" + settings.brokerName()
                    + "] sending message is forbidden");
        }
        String topic = header.topic();
        try {
            TopicNames.validate(topic);
        } catch (IllegalArgumentException e) {
            return refuse(ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        if (TopicNames.isNotSendable(topic)) {
            return refuse(ResponseCode.NO_PERMISSION, "Sending message to topic[" + topic + "] is forbidden.");
        }
        // A view of the received bytes when the transport leaves them in the frame: this method and the append
        // it makes are done with it when they return (only a dead-letter send to a new topic copies it).
        ByteBuffer body = request.bodyView();
        if (body == null) {
            return refuse(ResponseCode.MESSAGE_ILLEGAL, "the message body of a send to topic[" + topic
                    + "] is empty");
        }
        if (body.remaining() > settings.maxMessageBytes()) {
            return refuse(ResponseCode.MESSAGE_ILLEGAL, "the message body size " + body.remaining()
                    + " is larger than the maximum " + settings.maxMessageBytes());
        }
        Optional<RemotingCommand> unhonoured = UnhonouredSends.refusal(header, body);
        if (unhonoured.isPresent()) {
            refused.increment();
            return CompletableFuture.completedFuture(unhonoured.get());
        }
        if (!header.batch()) {
            Optional<String> refusal = hooks.admission().refusal(topic, header.sysFlag(), header.properties());
            if (refusal.isPresent()) {
                return refuse(ResponseCode.MESSAGE_ILLEGAL, refusal.get());
            }
        }
        Optional<TopicConfig> found = topics.find(topic);
        if (found.isEmpty()) {
            found = topics.autoCreateForSend(topic, header.defaultTopic(), header.defaultTopicQueueNums());
        }
        if (found.isEmpty()) {
            return refuse(ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist, apply first please!");
        }
        TopicConfig config = found.get();
        if (!config.isWriteable()) {
            return refuse(ResponseCode.NO_PERMISSION, "the topic[" + topic + "] sending message is forbidden");
        }
        int queueId = header.queueId() < 0
                ? ThreadLocalRandom.current().nextInt(config.writeQueueNums()) : header.queueId();
        if (!config.isValidQueueId(queueId)) {
            return refuse(ResponseCode.INVALID_PARAMETER, "request queueId[" + queueId + "] is illegal, topic "
                    + topic + " has queue ids 0.." + (config.queueCount() - 1));
        }
        if (header.batch()) {
            if (topic.length() > TopicNames.MAX_TOPIC_LENGTH) {
                return refuse(ResponseCode.MESSAGE_ILLEGAL, "batch topic length " + topic.length()
                        + " is larger than " + TopicNames.MAX_TOPIC_LENGTH);
            }
            if (TopicNames.isRetryTopic(topic)) {
                return refuse(ResponseCode.MESSAGE_ILLEGAL, "batch request does not support retry group " + topic);
            }
        } else if (TopicNames.isRetryTopic(topic) && exceedsReconsumeLimit(header)) {
            return sendToDeadLetters(connection, header, body);
        }
        return append(connection, header, config, queueId, body);
    }

    private CompletableFuture<RemotingCommand> append(ConnectionContext connection, SendRequest header,
                                                      TopicConfig config, int queueId, ByteBuffer body) {
        String properties = header.properties();
        String uniqKey = MessageProperties.find(properties, MessageProperties.UNIQ_KEY);
        AppendKind kind;
        if (!header.batch()) {
            kind = AppendKind.SINGLE;
            if (uniqKey == null) {
                uniqKey = uniqKeys.next();
                properties = MessageProperties.append(properties, MessageProperties.UNIQ_KEY, uniqKey);
            }
            properties = MessageProperties.append(properties, MessageProperties.CLUSTER, settings.clusterName())
                    + TRACE_PROPERTIES;
        } else if (config.queueType() == ConsumeQueueType.BATCH && uniqKey != null) {
            kind = AppendKind.INNER_BATCH;
            properties = MessageProperties.append(properties, MessageProperties.CLUSTER, settings.clusterName())
                    + TRACE_PROPERTIES;
        } else {
            kind = AppendKind.UNPACKED_BATCH;
        }
        int sysFlag = header.sysFlag();
        if (config.topicFilterType() == TopicFilterType.MULTI_TAG) {
            sysFlag |= RecordDescriptor.MULTI_TAGS_FLAG;
        }
        MessageDraft draft = hooks.beforeAppend().apply(new MessageDraft(config.topicName(), queueId, header.flag(),
                sysFlag, header.bornTimestampMs(), bornHost(connection), header.reconsumeTimes(), 0,
                body, properties, kind));
        String transactionId = uniqKey;
        String storedTopic = draft.topic();
        return store.append(draft).thenApply(result -> {
            if (result.status().isStored()) {
                hooks.onStored().accept(storedTopic, result.messageCount());
            }
            return answer(result, kind, queueId, transactionId);
        });
    }

    private RemotingCommand answer(AppendResult result, AppendKind kind, int queueId, String uniqKey) {
        int code = switch (result.status()) {
            case PUT_OK -> ResponseCode.SUCCESS;
            case FLUSH_DISK_TIMEOUT -> ResponseCode.FLUSH_DISK_TIMEOUT;
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> ResponseCode.MESSAGE_ILLEGAL;
            case SERVICE_NOT_AVAILABLE, DISK_FULL -> ResponseCode.SERVICE_NOT_AVAILABLE;
            case CREATE_SEGMENT_FAILED, IO_ERROR -> ResponseCode.SYSTEM_ERROR;
        };
        if (!result.status().isStored()) {
            refused.increment();
            return RemotingCommand.response(code, remarkFor(result));
        }
        RemotingCommand response = RemotingCommand.response(code, null)
                .putExtField("msgId", result.msgIds())
                .putExtField("queueId", queueId)
                .putExtField("queueOffset", result.queueOffset());
        if (uniqKey != null) {
            response.putExtField("transactionId", uniqKey);
            if (kind == AppendKind.INNER_BATCH) {
                response.putExtField("batchUniqId", uniqKey);
            }
        }
        return response.putExtField(MessageProperties.MSG_REGION, REGION)
                .putExtField(MessageProperties.TRACE_ON, "true");
    }

    private static String remarkFor(AppendResult result) {
        return switch (result.status()) {
            case MESSAGE_ILLEGAL -> "the message is illegal: the body, the batch body, its flags or the topic is"
                    + " invalid (MESSAGE_ILLEGAL)";
            case PROPERTIES_SIZE_EXCEEDED -> "the message properties are longer than 32767 bytes"
                    + " (PROPERTIES_SIZE_EXCEEDED)";
            case DISK_FULL -> "service not available now: the disk is full (DISK_FULL)";
            case SERVICE_NOT_AVAILABLE -> "service not available now: the store is not writable"
                    + " (SERVICE_NOT_AVAILABLE)";
            default -> "storing the message failed: " + result.status();
        };
    }

    /** True when a retry send has been reconsumed more often than allowed. */
    private boolean exceedsReconsumeLimit(SendRequest header) {
        int max = header.maxReconsumeTimes();
        if (max < 0) {
            String group = header.topic().substring(TopicNames.RETRY_TOPIC_PREFIX.length());
            max = groups.find(group).map(SubscriptionGroupConfig::retryMaxTimes)
                    .orElse(SubscriptionGroupConfig.DEFAULT_RETRY_MAX_TIMES);
        }
        return header.reconsumeTimes() > max;
    }

    private CompletableFuture<RemotingCommand> sendToDeadLetters(ConnectionContext connection, SendRequest header,
                                                                 ByteBuffer body) {
        String group = header.topic().substring(TopicNames.RETRY_TOPIC_PREFIX.length());
        if (!TopicNames.isValidGroup(group)) {
            return refuse(ResponseCode.INVALID_PARAMETER, "retry topic " + header.topic() + " names no valid group");
        }
        Optional<TopicConfig> existing = topics.find(TopicNames.dlqTopic(group));
        if (existing.isPresent()) {
            return append(connection, header, existing.get(), 0, body);
        }
        ByteBuffer copy = ByteBuffer.allocate(body.remaining()).put(body.duplicate()).flip();
        return topics.ensureDlqTopic(group).thenCompose(dlq -> append(connection, header, dlq, 0, copy));
    }

    private CompletableFuture<RemotingCommand> refuse(int code, String remark) {
        refused.increment();
        return CompletableFuture.completedFuture(RemotingCommand.response(code, remark));
    }

    private static InetSocketAddress bornHost(ConnectionContext connection) {
        SocketAddress remote = connection.remoteAddress();
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet;
        }
        throw new IllegalStateException("connection " + connection.id() + " has no IP peer address: " + remote);
    }
}
