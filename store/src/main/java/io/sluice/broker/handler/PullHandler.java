package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.PendingResets;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.longpoll.PullParking;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.FileSlice;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.store.log.FileSpan;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;

/**
 * Pull requests (docs/wire-protocol.md#pull): PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361).
 *
 * <p>Processing, in Apache's order: broker readable; subscription group known (or auto-created) and allowed to
 * consume; topic known and readable; queue id below {@code readQueueNums}; the subscription, from the request's
 * expression (SUBSCRIPTION bit) or from the group's heartbeat (whose {@code subVersion} must not be older than the
 * request's); then the store read, filtered by tags code. The response carries {@code nextBeginOffset},
 * {@code minOffset}, {@code maxOffset} and {@code suggestWhichBrokerId} on every pull outcome, and the stored
 * records, unchanged and concatenated, as its body. With the COMMIT bit the request's {@code commitOffset} is
 * stored as the group's consume offset (first execution only). A queue an admin reset while the group was online
 * answers its next pull PULL_OFFSET_MOVED with the new offset instead (nothing read, nothing committed).
 *
 * <p>A pull that finds nothing new (PULL_NOT_FOUND) and may be suspended is parked in {@link PullParking} and
 * executed once more, without suspension, when its queue receives a message or its suspend time (capped by
 * {@code longPollingSuspendMaxMs}; {@code shortPollingTimeMs} without long polling) passes.
 *
 * <p>Runs on the broker's pull executor (pulls need no ordering; a parked pull holds no thread); re-executions run
 * on the parking's executor. Thread-safe; its only state is counters.
 */
public final class PullHandler {

    private final MessageStore store;
    private final MetadataStore offsets;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;
    private final ClientRegistry clients;
    private final PullParking parking;
    private final PullSettings settings;
    private final PullObserver observer;
    private final LongAdder transferredMessages = new LongAdder();
    private final LongAdder transferredBytes = new LongAdder();

    /**
     * @param store    where messages are read
     * @param offsets  where committed consume offsets go
     * @param topics   topic lookups
     * @param groups   subscription group configs
     * @param clients  subscriptions registered by heartbeats
     * @param parking  parked pulls
     * @param settings limits and long-polling settings
     * @param observer told of every answered pull that returned messages
     */
    public PullHandler(MessageStore store, MetadataStore offsets, TopicRegistry topics, SubscriptionGroups groups,
                       ClientRegistry clients, PullParking parking, PullSettings settings, PullObserver observer) {
        this.observer = observer;
        this.store = store;
        this.offsets = offsets;
        this.topics = topics;
        this.groups = groups;
        this.clients = clients;
        this.parking = parking;
        this.settings = settings;
    }

    /** Messages returned by pulls so far (an inner batch counts its messages). */
    public long transferredMessages() {
        return transferredMessages.sum();
    }

    /** Record bytes returned by pulls so far. */
    public long transferredBytes() {
        return transferredBytes.sum();
    }

    /** PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361). */
    public CompletableFuture<RemotingCommand> onPull(ConnectionContext connection, RemotingCommand request) {
        PullRequest pull;
        try {
            pull = PullRequest.parse(request);
        } catch (MalformedHeaderException e) {
            return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.INVALID_PARAMETER,
                    e.getMessage()));
        }
        CompletableFuture<RemotingCommand> parked = new CompletableFuture<>();
        RemotingCommand response = execute(connection, pull, true, parked);
        return response != null ? CompletableFuture.completedFuture(response) : parked;
    }

    /**
     * Executes a pull.
     *
     * @param first true for the request's first execution: it may commit and be parked
     * @param later completed by the re-execution when this call parks the pull
     * @return the response, or null when the pull was parked
     */
    private RemotingCommand execute(ConnectionContext connection, PullRequest pull, boolean first,
                                    CompletableFuture<RemotingCommand> later) {
        if (!TopicPerm.isReadable(settings.brokerPermission())) {
            return forbidden(ForbiddenType.BROKER, "the broker pulling message is forbidden");
        }
        Optional<SubscriptionGroupConfig> group = groups.findOrCreate(pull.consumerGroup());
        if (group.isEmpty()) {
            return RemotingCommand.response(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group ["
                    + pull.consumerGroup() + "] does not exist");
        }
        if (!group.get().consumeEnable()) {
            return forbidden(ForbiddenType.GROUP, "subscription group no permission, " + pull.consumerGroup());
        }
        Optional<TopicConfig> found = topics.find(pull.topic());
        if (found.isEmpty()) {
            return RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "topic[" + pull.topic()
                    + "] not exist, apply first please!");
        }
        TopicConfig topic = found.get();
        if (!topic.isReadable()) {
            return forbidden(ForbiddenType.TOPIC, "the topic[" + pull.topic() + "] pulling message is forbidden");
        }
        if (pull.queueId() < 0 || pull.queueId() >= topic.readQueueNums()) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "queueId[" + pull.queueId()
                    + "] is illegal, topic:[" + pull.topic() + "] topicConfig.readQueueNums:["
                    + topic.readQueueNums() + "]");
        }
        if (!pull.isTagExpression()) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                    "The broker does not support consumer to filter message by " + pull.expressionType());
        }
        LongPredicate filter;
        if (pull.hasFlag(PullRequest.SUBSCRIPTION)) {
            filter = TagFilter.ofExpression(pull.subscription());
        } else {
            Optional<SubscriptionData> registered = clients.subscription(pull.consumerGroup(), pull.topic());
            if (registered.isEmpty()) {
                return RemotingCommand.response(ResponseCode.SUBSCRIPTION_NOT_EXIST, "the consumer's subscription of "
                        + pull.topic() + " in group " + pull.consumerGroup() + " does not exist");
            }
            SubscriptionData subscription = registered.get();
            if (subscription.subVersion() < pull.subVersion()) {
                return RemotingCommand.response(ResponseCode.SUBSCRIPTION_NOT_LATEST, "the consumer's subscription"
                        + " is not latest: broker has subVersion " + subscription.subVersion() + ", pull has "
                        + pull.subVersion());
            }
            if (!SubscriptionData.EXPRESSION_TYPE_TAG.equals(subscription.expressionType())) {
                return RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                        "The broker does not support consumer to filter message by " + subscription.expressionType());
            }
            filter = TagFilter.ofSubscription(subscription);
        }
        long resetOffset = groups.resets().take(pull.consumerGroup(), pull.topic(), pull.queueId());
        if (resetOffset != PendingResets.NONE) {
            return offsetReset(resetOffset, pull, topic, group.get());
        }
        int maxCount = Math.max(1, Math.min(pull.maxMsgNums(), settings.maxTransferCount()));
        GetResult result = store.getMessages(pull.topic(), pull.queueId(), pull.queueOffset(), maxCount,
                settings.maxTransferBytes(), filter);
        if (first && pull.hasFlag(PullRequest.COMMIT_OFFSET) && pull.commitOffset() >= 0) {
            offsets.commitOffsetDeferred(pull.consumerGroup(), pull.topic(), pull.queueId(), pull.commitOffset());
        }
        int code = codeOf(result.status(), pull.queueOffset());
        if (code == ResponseCode.PULL_NOT_FOUND && first && pull.hasFlag(PullRequest.SUSPEND)) {
            long suspendMs = settings.longPollingEnable()
                    ? Math.min(pull.suspendTimeoutMillis(), settings.longPollingSuspendMaxMs())
                    : settings.shortPollingTimeMs();
            if (suspendMs > 0) {
                Executor rerunOn = settings.rerunOnIoThread() ? connection.ioExecutor() : parking.rerunExecutor();
                parking.park(pull.topic(), pull.queueId(), pull.queueOffset(), suspendMs,
                        settings.longPollingEnable(), () -> store.maxOffset(pull.topic(), pull.queueId()), rerunOn,
                        () -> reExecute(connection, pull, later));
                return null;
            }
        }
        if (code == ResponseCode.SUCCESS) {
            transferredMessages.add(result.messageCount());
            transferredBytes.add(result.totalBytes());
        }
        if (result.messageCount() > 0) {
            observer.onPull(pull.consumerGroup(), pull.topic(), pull.queueId(), result.messageCount(),
                    result.nextOffset());
        }
        return response(code, result, topic, group.get());
    }

    /** The re-execution of a parked pull; completes its response future whatever happens. */
    private void reExecute(ConnectionContext connection, PullRequest pull, CompletableFuture<RemotingCommand> later) {
        try {
            if (!connection.isActive()) {
                later.complete(RemotingCommand.response(ResponseCode.PULL_NOT_FOUND, "connection closed"));
                return;
            }
            later.complete(execute(connection, pull, false, later));
        } catch (RuntimeException e) {
            later.completeExceptionally(e);
        }
    }

    private RemotingCommand response(int code, GetResult result, TopicConfig topic, SubscriptionGroupConfig group) {
        RemotingCommand response = RemotingCommand.response(code, result.status().name())
                .putExtField("nextBeginOffset", result.nextOffset())
                .putExtField("minOffset", result.minOffset())
                .putExtField("maxOffset", result.maxOffset())
                .putExtField("suggestWhichBrokerId", suggestedBrokerId(result, group))
                .putExtField("topicSysFlag", topic.topicSysFlag())
                .putExtField("groupSysFlag", group.groupSysFlag());
        if (code == ResponseCode.SUCCESS) {
            ByteBuffer[] views = result.records().toArray(ByteBuffer[]::new);
            if (result.spans().isEmpty()) {
                response.setBody(views);
            } else {
                response.setBody(views, fileSlices(result.spans()));
            }
        }
        return response;
    }

    /** The records' file ranges, for a plain connection to send from the files (docs/storage.md#reading). */
    private static FileSlice[] fileSlices(List<FileSpan> spans) {
        FileSlice[] slices = new FileSlice[spans.size()];
        for (int i = 0; i < slices.length; i++) {
            FileSpan span = spans.get(i);
            slices[i] = new FileSlice(span.channel(), span.filePosition(), span.length(), span.owner());
        }
        return slices;
    }

    /** PULL_OFFSET_MOVED to an admin's reset offset: the consumer continues the queue there. */
    private RemotingCommand offsetReset(long offset, PullRequest pull, TopicConfig topic,
                                        SubscriptionGroupConfig group) {
        return RemotingCommand.response(ResponseCode.PULL_OFFSET_MOVED, "OFFSET_RESET")
                .putExtField("nextBeginOffset", offset)
                .putExtField("minOffset", Math.max(0, store.minOffset(pull.topic(), pull.queueId())))
                .putExtField("maxOffset", Math.max(0, store.maxOffset(pull.topic(), pull.queueId())))
                .putExtField("suggestWhichBrokerId", 0L)
                .putExtField("topicSysFlag", topic.topicSysFlag())
                .putExtField("groupSysFlag", group.groupSysFlag());
    }

    /**
     * Which broker of the group the consumer should pull from next (Apache's rule): with {@code slaveReadEnable}, the
     * group's {@code whichBrokerWhenConsumeSlowly} when the returned records lie further than {@code slowLagBytes}
     * behind the log's end (their pages are likely no longer cached here), else the group's {@code brokerId};
     * without it, the master.
     */
    private long suggestedBrokerId(GetResult result, SubscriptionGroupConfig group) {
        if (!settings.slaveReadEnable()) {
            return 0L;
        }
        if (!result.records().isEmpty()) {
            long firstPosition = result.records().get(0).getLong(RecordDescriptor.PHYSICAL_OFFSET_OFFSET);
            if (store.logEndPosition() - firstPosition > settings.slowLagBytes()) {
                return group.whichBrokerWhenConsumeSlowly();
            }
        }
        return group.brokerId();
    }

    /** The pull response code of a store outcome (docs/wire-protocol.md#pull-results). */
    static int codeOf(GetStatus status, long requestedOffset) {
        return switch (status) {
            case FOUND -> ResponseCode.SUCCESS;
            case NO_MATCHED_MESSAGE, MESSAGE_WAS_REMOVING -> ResponseCode.PULL_RETRY_IMMEDIATELY;
            case OFFSET_FOUND_NULL, OFFSET_OVERFLOW_ONE -> ResponseCode.PULL_NOT_FOUND;
            case NO_MESSAGE_IN_QUEUE, NO_MATCHED_LOGIC_QUEUE -> requestedOffset != 0
                    ? ResponseCode.PULL_OFFSET_MOVED : ResponseCode.PULL_NOT_FOUND;
            case OFFSET_OVERFLOW_BADLY, OFFSET_TOO_SMALL -> ResponseCode.PULL_OFFSET_MOVED;
        };
    }

    private static RemotingCommand forbidden(ForbiddenType type, String remark) {
        return RemotingCommand.response(ResponseCode.NO_PERMISSION, remark).putExtField("forbiddenType", type.code);
    }

    /** Values of the NO_PERMISSION response's {@code forbiddenType} header. */
    private enum ForbiddenType {
        BROKER(1), GROUP(2), TOPIC(3);

        final int code;

        ForbiddenType(int code) {
            this.code = code;
        }
    }
}
