package io.sluice.broker.retention;

import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.timer.TimerService;
import io.sluice.broker.transaction.TransactionService;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.ConsumerOffset;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.store.retention.RetentionGuard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's answer to retention ({@link RetentionGuard}).
 *
 * <p><b>Unconsumed.</b> For every user topic queue holding messages (system topics and dead-letter topics are
 * not consumed by groups, and are covered below or by time alone): the lowest offset any consumer group with a
 * committed offset on the topic has not consumed, or the queue's first offset when no group has committed one
 * (nobody has read it). The lowest CommitLog position of those is where unread data starts.
 *
 * <p><b>Needed.</b> The lowest of: pending or unindexed timer records ({@link TimerService#neededFromPosition}),
 * unresolved half messages and unconfirmed op records ({@link TransactionService#neededFromPosition}), and delayed
 * messages each delay level has not delivered yet ({@link DelayScheduler#offset}).
 *
 * <p>Thread-safe: reads the metadata store, the message store and the services' published state; called on the
 * store's housekeeping thread. Cost: one consume-queue lookup per queue with data, per retention check under disk
 * pressure.
 */
public final class BrokerRetentionGuard implements RetentionGuard {

    /** Entries named in one WARN line; the rest are counted. */
    static final int MAX_DESCRIBED = 20;

    private final MessageStore store;
    private final MetadataStore metadata;
    private final TimerService timers;
    private final TransactionService transactions;
    private final DelayScheduler delays;

    public BrokerRetentionGuard(MessageStore store, MetadataStore metadata, TimerService timers,
                                TransactionService transactions, DelayScheduler delays) {
        this.store = store;
        this.metadata = metadata;
        this.timers = timers;
        this.transactions = transactions;
        this.delays = delays;
    }

    @Override
    public long unconsumedFromPosition() {
        long from = Long.MAX_VALUE;
        for (TopicConfig topic : metadata.allTopics()) {
            String name = topic.topicName();
            if (!consumedByGroups(name)) {
                continue;
            }
            Map<Integer, Long> lowestByQueue = new HashMap<>();
            for (ConsumerOffset o : metadata.offsetsForTopic(name)) {
                lowestByQueue.merge(o.queueId(), o.offset(), Math::min);
            }
            int queues = Math.max(topic.readQueueNums(), topic.writeQueueNums());
            for (int q = 0; q < queues; q++) {
                long min = store.minOffset(name, q);
                long max = store.maxOffset(name, q);
                long unread = Math.max(min, lowestByQueue.getOrDefault(q, min));
                if (unread < max) {
                    from = Math.min(from, store.positionOf(name, q, unread));
                }
            }
        }
        return from;
    }

    /** Topics whose messages consumer groups read: not the broker's own, not dead letters. */
    private static boolean consumedByGroups(String topic) {
        return !TopicNames.isSystemTopic(topic) && !topic.startsWith(TopicNames.DLQ_TOPIC_PREFIX);
    }

    @Override
    public long neededFromPosition() {
        long needed = Math.min(timers.neededFromPosition(), transactions.neededFromPosition());
        int levels = delays.settings().maxLevel();
        for (int level = 1; level <= levels; level++) {
            needed = Math.min(needed, store.positionOf(DelayScheduler.SCHEDULE_TOPIC, level - 1,
                    delays.offset(level)));
        }
        return needed;
    }

    @Override
    public String describeUnreadBelow(long minPosition) {
        List<String> lost = new ArrayList<>();
        int more = 0;
        for (TopicConfig topic : metadata.allTopics()) {
            String name = topic.topicName();
            if (!consumedByGroups(name)) {
                continue;
            }
            for (ConsumerOffset o : metadata.offsetsForTopic(name)) {
                long first = store.minOffset(name, o.queueId());
                if (o.offset() < first) {
                    if (lost.size() < MAX_DESCRIBED) {
                        lost.add("group " + o.group() + " " + name + "-" + o.queueId() + " offsets [" + o.offset()
                                + ", " + first + ")");
                    } else {
                        more++;
                    }
                }
            }
        }
        if (lost.isEmpty()) {
            return "messages of queues no consumer group had committed an offset on";
        }
        return String.join("; ", lost) + (more > 0 ? "; and " + more + " more" : "");
    }
}
