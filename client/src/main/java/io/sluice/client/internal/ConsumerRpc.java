package io.sluice.client.internal;

import io.sluice.format.MessageProperties;
import io.sluice.client.BrokerErrorException;
import io.sluice.client.ClientException;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.GetConsumerListByGroupResponseBody;
import io.sluice.remoting.protocol.body.LockBatchRequestBody;
import io.sluice.remoting.protocol.body.LockBatchResponseBody;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The consumer-side broker calls (docs/wire-protocol.md#broker-requests) for one consumer group: pull, consumer
 * offsets, queue offsets, group members, send-back and queue locks. Stateless apart from its collaborators;
 * thread-safe.
 */
public final class ConsumerRpc {
    /** Pull flag: commit {@code commitOffset}. */
    public static final int FLAG_COMMIT_OFFSET = 0x1;
    /** Pull flag: the broker may park the pull (long polling). */
    public static final int FLAG_SUSPEND = 0x2;
    /** Pull flag: the request carries its subscription expression. */
    public static final int FLAG_SUBSCRIPTION = 0x4;
    /** Pull flag: a lite pull. */
    public static final int FLAG_LITE_PULL = 0x10;

    private final ClientRuntime runtime;
    private final String group;

    public ConsumerRpc(ClientRuntime runtime, String group) {
        this.runtime = runtime;
        this.group = group;
    }

    /** The consumer group. */
    public String group() {
        return group;
    }

    /** The address to use for {@code queue}: its broker's master, else any of its addresses. */
    public CompletableFuture<String> addressOf(MessageQueue queue) {
        return runtime.routes().publishRoute(queue.topic()).thenApply(route -> {
            String address = route.anyAddress(queue.brokerName());
            if (address == null) {
                throw new ClientException("broker " + queue.brokerName() + " of " + queue + " is not in the route");
            }
            return address;
        });
    }

    /**
     * Pulls {@code queue} from {@code offset}. Messages before {@code offset} (the start of an inner batch the
     * offset points into) and messages the filter rejects are dropped; a retried message gets its original topic
     * back.
     *
     * @param sysFlag pull flags ({@code FLAG_*})
     * @param commitOffset offset to commit with {@link #FLAG_COMMIT_OFFSET}
     * @param suspendMs how long the broker may park the pull
     * @param lite use LITE_PULL_MESSAGE instead of PULL_MESSAGE
     */
    public CompletableFuture<PullResult> pull(MessageQueue queue, long offset, int maxMessages, TagExpression filter,
                                              int sysFlag, long commitOffset, long suspendMs, boolean lite) {
        RemotingCommand request = RemotingCommand
                .request(lite ? RequestCode.LITE_PULL_MESSAGE : RequestCode.PULL_MESSAGE)
                .putExtField("consumerGroup", group)
                .putExtField("topic", queue.topic())
                .putExtField("queueId", queue.queueId())
                .putExtField("queueOffset", offset)
                .putExtField("maxMsgNums", maxMessages)
                .putExtField("sysFlag", sysFlag)
                .putExtField("commitOffset", commitOffset)
                .putExtField("suspendTimeoutMillis", suspendMs)
                .putExtField("subVersion", 0)
                .putExtField("expressionType", "TAG")
                .putExtField("maxMsgBytes", Integer.MAX_VALUE)
                .putExtField("bname", queue.brokerName());
        if ((sysFlag & FLAG_SUBSCRIPTION) != 0) {
            request.putExtField("subscription", filter.expression());
        }
        long timeoutMs = suspendMs + runtime.settings().rpcTimeoutMs() + 5000;
        return addressOf(queue).thenCompose(address -> Rpc.call(runtime, address, request, timeoutMs)
                .thenApply(response -> toResult(response, address, queue, offset, filter)));
    }

    private static PullResult toResult(RemotingCommand response, String address, MessageQueue queue, long offset,
                                       TagExpression filter) {
        PullResult.Status status = switch (response.code()) {
            case ResponseCode.SUCCESS -> PullResult.Status.FOUND;
            case ResponseCode.PULL_NOT_FOUND -> PullResult.Status.NO_NEW_MSG;
            case ResponseCode.PULL_RETRY_IMMEDIATELY -> PullResult.Status.NO_MATCHED_MSG;
            case ResponseCode.PULL_OFFSET_MOVED -> PullResult.Status.OFFSET_ILLEGAL;
            default -> throw new BrokerErrorException(response.code(), response.remark(), address);
        };
        long next = response.requireLong("nextBeginOffset");
        long min = response.requireLong("minOffset");
        long max = response.requireLong("maxOffset");
        if (status != PullResult.Status.FOUND || response.body() == null) {
            return new PullResult(status == PullResult.Status.FOUND ? PullResult.Status.NO_MATCHED_MSG : status, next,
                    min, max, List.of());
        }
        List<ReceivedMessage> decoded = RecordDecoder.decode(response.body(), queue);
        List<ReceivedMessage> kept = new ArrayList<>(decoded.size());
        for (ReceivedMessage message : decoded) {
            if (message.queueOffset() >= offset && filter.matches(message)) {
                kept.add(restoreRetryTopic(message));
            }
        }
        return new PullResult(PullResult.Status.FOUND, next, min, max, kept);
    }

    /** The topic test comes first: reading a property parses all of the message's properties. */
    private static ReceivedMessage restoreRetryTopic(ReceivedMessage message) {
        if (!message.topic().startsWith("%RETRY%")) {
            return message;
        }
        String original = message.property(MessageProperties.RETRY_TOPIC);
        if (original == null) {
            return message;
        }
        return new ReceivedMessage(original, message.queueId(), message.brokerName(), message.queueOffset(),
                message.body(), message.flag(), message.sysFlag(), message.properties(), message.bornTimestampMs(),
                message.bornHost(), message.storeTimestampMs(), message.storeHost(), message.reconsumeTimes(),
                message.commitLogOffset(), message.offsetMsgId());
    }

    /** The group's committed offset of {@code queue}, or -1 when it has none. */
    public CompletableFuture<Long> committedOffset(MessageQueue queue) {
        RemotingCommand request = RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", group).putExtField("topic", queue.topic())
                .putExtField("queueId", queue.queueId()).putExtField("bname", queue.brokerName());
        return addressOf(queue).thenCompose(address -> runtime.call(address, request).thenApply(response -> {
            if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
                return -1L;
            }
            return Rpc.requireOk(response, address).requireLong("offset");
        }));
    }

    /** Commits {@code offset} for {@code queue}; oneway when {@code oneway}. */
    public CompletableFuture<Void> commitOffset(MessageQueue queue, long offset, boolean oneway) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", group).putExtField("topic", queue.topic())
                .putExtField("queueId", queue.queueId()).putExtField("commitOffset", offset)
                .putExtField("bname", queue.brokerName());
        return addressOf(queue).thenCompose(address -> oneway
                ? runtime.invokeOneway(address, request.markOneway())
                : runtime.callOk(address, request).thenApply(response -> null));
    }

    /**
     * Where the group starts on {@code queue}: its committed offset, else by {@code from}: the max offset (a retry
     * queue starts at 0), the min offset, or the offset at {@code timestampMs}.
     */
    public CompletableFuture<Long> startOffset(MessageQueue queue, ConsumeFrom from, long timestampMs) {
        return committedOffset(queue).thenCompose(committed -> {
            if (committed >= 0) {
                return CompletableFuture.completedFuture(committed);
            }
            if (queue.topic().startsWith("%RETRY%")) {
                return CompletableFuture.completedFuture(0L);
            }
            return switch (from) {
                case LAST_OFFSET -> maxOffset(queue);
                case FIRST_OFFSET -> minOffset(queue);
                case TIMESTAMP -> offsetAt(queue, timestampMs);
            };
        });
    }

    /** The queue's max offset (next offset to be written). */
    public CompletableFuture<Long> maxOffset(MessageQueue queue) {
        return queueOffset(queue, RemotingCommand.request(RequestCode.GET_MAX_OFFSET).putExtField("committed", true));
    }

    /** The queue's min offset (first offset still stored). */
    public CompletableFuture<Long> minOffset(MessageQueue queue) {
        return queueOffset(queue, RemotingCommand.request(RequestCode.GET_MIN_OFFSET));
    }

    /** The offset of the first message stored at or after {@code timestampMs}. */
    public CompletableFuture<Long> offsetAt(MessageQueue queue, long timestampMs) {
        return queueOffset(queue, RemotingCommand.request(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP)
                .putExtField("timestamp", timestampMs));
    }

    private CompletableFuture<Long> queueOffset(MessageQueue queue, RemotingCommand request) {
        request.putExtField("topic", queue.topic()).putExtField("queueId", queue.queueId())
                .putExtField("bname", queue.brokerName());
        return addressOf(queue).thenCompose(address -> runtime.callOk(address, request))
                .thenApply(response -> response.requireLong("offset"));
    }

    /** The client ids of the group's members as {@code address} knows them, sorted. */
    public CompletableFuture<List<String>> members(String address) {
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP)
                .putExtField("consumerGroup", group);
        return runtime.callOk(address, request).thenApply(response -> {
            List<String> ids = new ArrayList<>(BodyCodec.decode(response.body(),
                    GetConsumerListByGroupResponseBody.class).consumerIdList());
            ids.sort(null);
            return ids;
        });
    }

    /**
     * Hands a message the listener failed back to the broker for redelivery through the group's retry topic
     * (CONSUMER_SEND_MSG_BACK), through the broker of the queue it was pulled from.
     *
     * @param delayLevel 0 lets the broker choose ({@code 3 + reconsumeTimes}); negative sends to the dead-letter
     *                   topic
     */
    public CompletableFuture<Void> sendBack(MessageQueue pulledFrom, ReceivedMessage message, int delayLevel,
                                            int maxReconsumeTimes) {
        String originMsgId = message.property(MessageProperties.ORIGIN_MESSAGE_ID);
        RemotingCommand request = RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", message.commitLogOffset())
                .putExtField("group", group)
                .putExtField("delayLevel", delayLevel)
                .putExtField("originMsgId", originMsgId != null ? originMsgId : message.msgId())
                .putExtField("originTopic", message.topic())
                .putExtField("unitMode", false)
                .putExtField("maxReconsumeTimes", maxReconsumeTimes)
                .putExtField("bname", message.brokerName());
        return addressOf(pulledFrom).thenCompose(address -> runtime.callOk(address, request))
                .thenApply(response -> null);
    }

    /** Locks {@code queues} of one broker for this client; returns the ones now held. */
    public CompletableFuture<Set<MessageQueue>> lock(String address, Set<MessageQueue> queues) {
        RemotingCommand request = RemotingCommand.request(RequestCode.LOCK_BATCH_MQ).setBody(BodyCodec.encode(
                new LockBatchRequestBody(group, runtime.clientId(), false, queues)));
        return runtime.callOk(address, request).thenApply(response -> response.body() == null ? Set.of()
                : BodyCodec.decode(response.body(), LockBatchResponseBody.class).lockOKMQSet());
    }

    /** Releases locks on {@code queues} of one broker (oneway). */
    public CompletableFuture<Void> unlock(String address, Set<MessageQueue> queues) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ).setBody(BodyCodec.encode(
                new LockBatchRequestBody(group, runtime.clientId(), false, queues)));
        return runtime.invokeOneway(address, request.markOneway());
    }
}
