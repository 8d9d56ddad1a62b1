package io.sluice.broker.handler;

import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.MessageStore;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.TopicNames;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;

/**
 * CONSUMER_SEND_MSG_BACK (36): a consumer gives back a message it failed to consume
 * (docs/wire-protocol.md#send-back). Header: {@code offset} (the CommitLog position), {@code group},
 * {@code delayLevel} (0: {@code 3 + reconsumeTimes}; negative: dead letter), optional {@code maxReconsumeTimes}. The
 * stored message is copied to {@code %RETRY%<group>} through the {@link DelayScheduler}, or, at the reconsume limit,
 * to {@code %DLQ%<group>}, with {@code reconsumeTimes + 1} and {@code RETRY_TOPIC}, {@code ORIGIN_MESSAGE_ID},
 * {@code WAIT=false} and {@code DELAY} added; an inner batch message by message.
 *
 * <p>Answers SUCCESS, or NO_PERMISSION, SUBSCRIPTION_GROUP_NOT_EXIST, SYSTEM_ERROR (no record at the offset, a refused
 * append). A group with {@code retryQueueNums == 0} gets SUCCESS and nothing is stored.
 *
 * <p>Thread-safe; stateless apart from its collaborators. Runs on the connection's lane; creating a group or a topic
 * (synced metadata writes, a name-server announcement) runs on the admin executor.
 */
public final class SendBackHandler {

    /** Delay level base of a retry: level = 3 + reconsumeTimes when the consumer leaves it to the broker. */
    static final int RETRY_BASE_LEVEL = 3;

    private final MessageStore store;
    private final TopicRegistry topics;
    private final SubscriptionGroups groups;
    private final DelayScheduler scheduler;
    private final BrokerStats stats;
    private final int brokerPermission;
    private final Executor adminExecutor;

    /**
     * @param store            where the original is read and the copy stored
     * @param topics           the retry and dead-letter topics
     * @param groups           group configs (retry queue count, reconsume limit)
     * @param scheduler        delays retries
     * @param stats            counts the stored copies
     * @param brokerPermission broker-wide permission bits; without WRITE every send-back is NO_PERMISSION
     * @param adminExecutor    runs group and topic creation
     */
    public SendBackHandler(MessageStore store, TopicRegistry topics, SubscriptionGroups groups,
                           DelayScheduler scheduler, BrokerStats stats, int brokerPermission, Executor adminExecutor) {
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.scheduler = scheduler;
        this.stats = stats;
        this.brokerPermission = brokerPermission;
        this.adminExecutor = adminExecutor;
    }

    /** The parsed request header. */
    private record Request(long position, String group, int delayLevel, int maxReconsumeTimes) {
        static Request parse(RemotingCommand request) {
            return new Request(request.requireLong("offset"), request.requireString("group"),
                    request.optionalInt("delayLevel", 0), request.optionalInt("maxReconsumeTimes", -1));
        }
    }

    /** CONSUMER_SEND_MSG_BACK (36). */
    public CompletableFuture<RemotingCommand> onSendBack(ConnectionContext connection, RemotingCommand request) {
        Request header = Request.parse(request);
        if (!TopicPerm.isWriteable(brokerPermission)) {
            return done(ResponseCode.NO_PERMISSION, "the broker sending message is forbidden");
        }
        String group = header.group();
        if (!TopicNames.isValidGroup(group)) {
            return done(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group name '" + group
                    + "' is illegal");
        }
        if (groups.wouldCreate(group)) {
            return CompletableFuture.supplyAsync(() -> groups.findOrCreate(group), adminExecutor)
                    .thenCompose(config -> withGroup(header, config));
        }
        return withGroup(header, groups.find(group));
    }

    private CompletableFuture<RemotingCommand> withGroup(Request header, Optional<SubscriptionGroupConfig> config) {
        if (config.isEmpty()) {
            return done(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group not exist, "
                    + header.group());
        }
        SubscriptionGroupConfig group = config.get();
        if (group.retryQueueNums() <= 0) {
            return done(ResponseCode.SUCCESS, "retryQueueNums is 0: the message is dropped");
        }
        Optional<TopicConfig> retry = topics.find(TopicNames.retryTopic(group.groupName()));
        if (retry.isPresent()) {
            return withRetryTopic(header, group, retry.get());
        }
        return CompletableFuture.supplyAsync(() -> topics.ensureRetryTopic(group.groupName(), group.retryQueueNums()),
                        adminExecutor)
                .thenCompose(created -> created)
                .thenCompose(topic -> withRetryTopic(header, group, topic));
    }

    private CompletableFuture<RemotingCommand> withRetryTopic(Request header, SubscriptionGroupConfig group,
                                                              TopicConfig retryTopic) {
        if (!retryTopic.isWriteable()) {
            return done(ResponseCode.NO_PERMISSION, "the topic[" + retryTopic.topicName()
                    + "] sending message is forbidden");
        }
        Optional<ByteBuffer> record = store.recordAt(header.position());
        if (record.isEmpty()) {
            return done(ResponseCode.SYSTEM_ERROR, "look message by offset failed, " + header.position());
        }
        StoredMessage original;
        try {
            original = StoredMessage.decode(record.get());
        } catch (IllegalArgumentException e) {
            return done(ResponseCode.SYSTEM_ERROR, "the record at offset " + header.position()
                    + " cannot be decoded: " + e.getMessage());
        }
        int maxReconsumeTimes = header.maxReconsumeTimes() >= 0 ? header.maxReconsumeTimes() : group.retryMaxTimes();
        if (original.reconsumeTimes() >= maxReconsumeTimes || header.delayLevel() < 0) {
            String dlq = TopicNames.dlqTopic(group.groupName());
            Optional<TopicConfig> existing = topics.find(dlq);
            if (existing.isPresent()) {
                return store(original, existing.get(), 0);
            }
            return CompletableFuture.supplyAsync(() -> topics.ensureDlqTopic(group.groupName()), adminExecutor)
                    .thenCompose(created -> created)
                    .thenCompose(topic -> store(original, topic, 0));
        }
        int level = header.delayLevel() > 0 ? header.delayLevel() : RETRY_BASE_LEVEL + original.reconsumeTimes();
        return store(original, retryTopic, level);
    }

    /** Stores the copies of {@code original} in {@code target}, delayed by {@code delayLevel} (0: not delayed). */
    private CompletableFuture<RemotingCommand> store(StoredMessage original, TopicConfig target, int delayLevel) {
        List<MessageDraft> drafts;
        try {
            drafts = copies(original, target, delayLevel);
        } catch (IllegalArgumentException e) { // MalformedBatchException included
            return done(ResponseCode.SYSTEM_ERROR, "the message at offset " + original.position()
                    + " cannot be copied: " + e.getMessage());
        }
        List<CompletableFuture<AppendResult>> appends = new ArrayList<>(drafts.size());
        for (MessageDraft draft : drafts) {
            appends.add(store.append(draft));
        }
        String topic = target.topicName();
        return CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            AppendStatus failed = null;
            int stored = 0;
            for (CompletableFuture<AppendResult> append : appends) {
                AppendStatus status = append.join().status();
                if (status.isStored()) {
                    stored++;
                } else if (failed == null) {
                    failed = status;
                }
            }
            if (stored > 0) {
                stats.onPut(topic, stored);
            }
            return failed == null ? RemotingCommand.response(ResponseCode.SUCCESS, null)
                    : RemotingCommand.response(ResponseCode.SYSTEM_ERROR, failed.name());
        });
    }

    /** The drafts that copy {@code original} into {@code target}: one, or one per inner message of a batch. */
    private List<MessageDraft> copies(StoredMessage original, TopicConfig target, int delayLevel) {
        int queueId = ThreadLocalRandom.current().nextInt(Math.max(1, target.writeQueueNums()));
        Map<String, String> common = MessageProperties.parse(original.propertiesText());
        String retryTopic = common.getOrDefault(MessageProperties.RETRY_TOPIC, original.topic());
        String originId = common.getOrDefault(MessageProperties.ORIGIN_MESSAGE_ID, original.offsetMsgId());
        List<MessageDraft> drafts = new ArrayList<>();
        if (!original.isInnerBatch()) {
            drafts.add(draft(original, target, queueId, original.flag(), original.sysFlag(), original.body(),
                    properties(common, retryTopic, originId, delayLevel)));
            return drafts;
        }
        int sysFlag = original.sysFlag() & ~(RecordDescriptor.INNER_BATCH_FLAG | RecordDescriptor.NEED_UNWRAP_FLAG);
        ByteBuffer body = original.body();
        String batchTags = common.get(MessageProperties.TAGS);
        for (Iterator<BatchBodyDescriptor.Entry> it = BatchBodyDescriptor.entries(body); it.hasNext(); ) {
            BatchBodyDescriptor.Entry entry = it.next();
            Map<String, String> own = MessageProperties.parse(entry.properties(body));
            if (batchTags != null) {
                own.putIfAbsent(MessageProperties.TAGS, batchTags);
            }
            drafts.add(draft(original, target, queueId, entry.flag(), sysFlag, ByteBuffer.wrap(entry.body(body)),
                    properties(own, retryTopic, originId, delayLevel)));
        }
        if (drafts.isEmpty()) {
            throw new IllegalArgumentException("the inner batch holds no message");
        }
        return drafts;
    }

    private static String properties(Map<String, String> base, String retryTopic, String originId, int delayLevel) {
        base.put(MessageProperties.RETRY_TOPIC, retryTopic);
        base.put(MessageProperties.ORIGIN_MESSAGE_ID, originId);
        base.put(MessageProperties.WAIT, "false");
        base.remove(MessageProperties.INNER_NUM);
        base.remove(MessageProperties.INNER_BASE);
        if (delayLevel > 0) {
            base.put(MessageProperties.DELAY, Integer.toString(delayLevel));
        } else {
            base.remove(MessageProperties.DELAY);
        }
        return MessageProperties.encode(base);
    }

    private MessageDraft draft(StoredMessage original, TopicConfig target, int queueId, int flag, int sysFlag,
                               ByteBuffer body, String properties) {
        MessageDraft draft = new MessageDraft(target.topicName(), queueId, flag, sysFlag, original.bornTimestampMs(),
                original.bornHost(), original.reconsumeTimes() + 1, original.preparedTransactionOffset(), body,
                properties, AppendKind.SINGLE);
        return scheduler.redirectIfDelayed(draft);
    }

    private static CompletableFuture<RemotingCommand> done(int code, String remark) {
        return CompletableFuture.completedFuture(RemotingCommand.response(code, remark));
    }
}
