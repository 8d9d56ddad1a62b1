package io.sluice.broker.schedule;

import io.sluice.store.GetResult;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.store.TopicNames;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.TopicNames;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delay levels: {@link #redirectIfDelayed} (send and send-back paths) turns a message with {@code DELAY=n > 0} into
 * one for {@value TopicNames#SCHEDULE_TOPIC} queue {@code n - 1} with {@code REAL_TOPIC} and {@code REAL_QID}; each
 * pass ({@link #doWork}) re-stores the due messages of every level in their real topic, stopping at the first not
 * yet due (a level queue is in due order), and persists the level's offset with {@link MetadataStore#putLong}. An
 * undeliverable message is skipped ({@link #droppedCount}); any other refused append stops the level until the next
 * pass ({@link #appendFailureCount}). See docs/storage.md#delay-levels.
 *
 * <p>Threads: {@link #start} runs the passes on its own thread ({@code sluice-delay-scheduler}), woken by new
 * schedule-topic messages, else at the earliest due time or every {@code pollIntervalMs}; the per-level read state
 * is that thread's. Tests drive {@link #doWork} with a manual clock instead. {@link #redirectIfDelayed},
 * {@link #offset} and the counters are thread-safe. Owned by the composition root; {@link #close} before the stores.
 */
public final class DelayScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DelayScheduler.class);

    /** Where delayed messages wait: queue {@code level - 1} holds level {@code level}. */
    public static final String SCHEDULE_TOPIC = TopicNames.SCHEDULE_TOPIC;
    /** Metadata key prefix of the per-level consumed offsets; the level number follows. */
    public static final String OFFSET_KEY_PREFIX = "schedule.offset.";

    /** Bytes read from one level per read; a delayed message is a normal message, well below this. */
    private static final int MAX_READ_BYTES = 4 * 1024 * 1024;
    /** Messages one level may deliver in one pass before the next level gets its turn. */
    private static final int MAX_DELIVERIES_PER_LEVEL_PASS = 1024;
    private static final long STOP_TIMEOUT_MS = 10_000;

    private final MessageStore store;
    private final MetadataStore metadata;
    private final ScheduleSettings settings;
    private final EpochClock clock;
    /** Next offset to read per level (index = level - 1); written only by the pass thread. */
    private final AtomicLongArray offsets;
    /** Offsets last written to the metadata store; pass thread only. */
    private final long[] persisted;
    /** Re-stores due messages; REAL_TOPIC and REAL_QID stay, as Apache's schedule service leaves them. */
    private final RealTopicRestore restore;
    /** Set once the schedule topic is known to exist. */
    private volatile boolean scheduleTopicReady;
    /** Earliest due time seen in the last pass; pass thread only. */
    private long nextDueMs = Long.MAX_VALUE;
    private final TopicPassThread passes;

    /**
     * Loads each level's consumed offset from {@code metadata} (0 when none was stored).
     *
     * @param store    where delayed messages wait and where due ones go
     * @param metadata keeps the per-level offsets
     * @param settings the levels and the pass rhythm
     * @param clock    decides what is due
     */
    public DelayScheduler(MessageStore store, MetadataStore metadata, ScheduleSettings settings, EpochClock clock) {
        this.store = store;
        this.metadata = metadata;
        this.settings = settings;
        this.clock = clock;
        this.restore = new RealTopicRestore(store, "delayed message", List.of(MessageProperties.DELAY));
        this.passes = new TopicPassThread(store, SCHEDULE_TOPIC, "sluice-delay-scheduler", this::pass,
                TimeUnit.MILLISECONDS.toNanos(settings.pollIntervalMs()), STOP_TIMEOUT_MS);
        int levels = settings.maxLevel();
        this.offsets = new AtomicLongArray(levels);
        this.persisted = new long[levels];
        for (int level = 1; level <= levels; level++) {
            long stored = metadata.getLong(offsetKey(level)).orElse(0L);
            offsets.set(level - 1, stored);
            persisted[level - 1] = stored;
        }
    }

    /** The metadata key of a level's consumed offset. */
    public static String offsetKey(int level) {
        return OFFSET_KEY_PREFIX + level;
    }

    /** The levels this scheduler runs with. */
    public ScheduleSettings settings() {
        return settings;
    }

    // ------------------------------------------------------------------------------------------------ send side

    /**
     * The draft to store for {@code draft}: itself unless it is a single, non-transactional (or committed) message
     * with a numeric {@code DELAY > 0} for a topic other than the schedule topic; then a copy for
     * {@value TopicNames#SCHEDULE_TOPIC} queue {@code level - 1}, with {@code REAL_TOPIC}, {@code REAL_QID} and the
     * level clamped to the configured maximum in {@code DELAY}. The first redirect creates the schedule topic (see
     * {@link #installScheduleTopic}).
     */
    public MessageDraft redirectIfDelayed(MessageDraft draft) {
        if (draft.kind() != AppendKind.SINGLE || SCHEDULE_TOPIC.equals(draft.topic())) {
            return draft;
        }
        int tx = RecordDescriptor.transactionType(draft.sysFlag());
        if (tx != RecordDescriptor.TRANSACTION_NOT_TYPE && tx != RecordDescriptor.TRANSACTION_COMMIT_TYPE) {
            return draft;
        }
        int level = delayLevelOf(draft.propertiesText());
        if (level <= 0) {
            return draft;
        }
        level = settings.clampLevel(level);
        if (!scheduleTopicReady) {
            installScheduleTopic();
        }
        Map<String, String> properties = MessageProperties.parse(draft.propertiesText());
        properties.put(MessageProperties.DELAY, Integer.toString(level));
        properties.put(MessageProperties.REAL_TOPIC, draft.topic());
        properties.put(MessageProperties.REAL_QID, Integer.toString(draft.queueId()));
        return new MessageDraft(SCHEDULE_TOPIC, level - 1, draft.flag(), draft.sysFlag(), draft.bornTimestampMs(),
                draft.bornHost(), draft.reconsumeTimes(), draft.preparedTransactionOffset(), draft.body(),
                MessageProperties.encode(properties), AppendKind.SINGLE);
    }

    /** The {@code DELAY} level of a properties string; 0 when absent or not a number. */
    static int delayLevelOf(String propertiesText) {
        String value = MessageProperties.find(propertiesText, MessageProperties.DELAY);
        if (value == null) {
            return 0;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Makes sure {@value TopicNames#SCHEDULE_TOPIC} exists with one queue per level (perm 6, SimpleCQ), so that the
     * store indexes its records. Idempotent; the first {@link #redirectIfDelayed} that redirects calls it (one synced
     * metadata write). The topic is created on demand rather than at start so that a fresh broker does not register
     * a one-topic table, which name servers take for an incremental registration and refuse. The periodic full
     * registration announces it; nobody routes to it.
     */
    public synchronized void installScheduleTopic() {
        if (scheduleTopicReady) {
            return;
        }
        int levels = settings.maxLevel();
        Optional<TopicConfig> existing = metadata.getTopic(SCHEDULE_TOPIC);
        if (existing.isEmpty() || existing.get().readQueueNums() < levels
                || existing.get().writeQueueNums() < levels) {
            metadata.putTopic(TopicConfig.of(SCHEDULE_TOPIC, levels, ConsumeQueueType.SIMPLE));
            LOG.info("schedule topic {} installed with {} queues", SCHEDULE_TOPIC, levels);
        }
        scheduleTopicReady = true;
    }

    // ------------------------------------------------------------------------------------------------ delivery

    /**
     * One pass over every level: delivers the messages that are due. Runs on the scheduler thread once started;
     * tests call it directly instead of {@link #start}.
     *
     * @return the number of messages delivered
     */
    public int doWork() {
        long nowMs = clock.time();
        long earliestDue = Long.MAX_VALUE;
        int total = 0;
        for (int level = 1; level <= settings.maxLevel(); level++) {
            LevelPass pass = deliverLevel(level, nowMs);
            total += pass.delivered;
            earliestDue = Math.min(earliestDue, pass.nextDueMs);
            persist(level);
        }
        nextDueMs = earliestDue;
        return total;
    }

    /** What one level's pass did. */
    private record LevelPass(int delivered, long nextDueMs) {
    }

    private LevelPass deliverLevel(int level, long nowMs) {
        int queueId = level - 1;
        long delayMs = settings.delayMs(level);
        int count = 0;
        while (count < MAX_DELIVERIES_PER_LEVEL_PASS) {
            long offset = offsets.get(queueId);
            GetResult read = store.getMessages(SCHEDULE_TOPIC, queueId, offset, settings.maxBatch(),
                    MAX_READ_BYTES, null);
            switch (read.status()) {
                case FOUND -> {
                    for (ByteBuffer record : read.records()) {
                        Outcome outcome = deliver(record, delayMs, nowMs);
                        switch (outcome.kind()) {
                            case NOT_DUE -> {
                                return new LevelPass(count, outcome.dueMs());
                            }
                            case RETRY -> {
                                return new LevelPass(count, nowMs + settings.pollIntervalMs());
                            }
                            case DELIVERED -> count++;
                            case SKIPPED -> {
                                // advance past it like a delivered one
                            }
                        }
                        offsets.set(queueId, offsets.get(queueId) + 1);
                    }
                }
                case NO_MATCHED_MESSAGE, MESSAGE_WAS_REMOVING, OFFSET_TOO_SMALL, OFFSET_OVERFLOW_BADLY -> {
                    if (read.nextOffset() == offset) {
                        return new LevelPass(count, nowMs + settings.pollIntervalMs());
                    }
                    LOG.warn("schedule level {}: offset {} moved to {} ({})", level, offset, read.nextOffset(),
                            read.status());
                    offsets.set(queueId, read.nextOffset());
                }
                case OFFSET_FOUND_NULL -> {
                    return new LevelPass(count, nowMs + settings.pollIntervalMs());
                }
                default -> {
                    return new LevelPass(count, Long.MAX_VALUE); // caught up: OVERFLOW_ONE or no queue/messages
                }
            }
        }
        return new LevelPass(count, nowMs); // more to do: come back at once
    }

    /** What happened to one record. */
    private enum Kind {
        DELIVERED, SKIPPED, RETRY, NOT_DUE
    }

    /** What happened to one record; {@code dueMs} is meaningful only for NOT_DUE. */
    private record Outcome(Kind kind, long dueMs) {
        static final Outcome DELIVERED = new Outcome(Kind.DELIVERED, 0);
        static final Outcome SKIPPED = new Outcome(Kind.SKIPPED, 0);
        static final Outcome RETRY = new Outcome(Kind.RETRY, 0);

        static Outcome notDue(long dueMs) {
            return new Outcome(Kind.NOT_DUE, dueMs);
        }
    }

    private Outcome deliver(ByteBuffer record, long delayMs, long nowMs) {
        StoredMessage message;
        try {
            message = StoredMessage.decode(record);
        } catch (IllegalArgumentException e) {
            restore.countUndecodable(e.getMessage());
            return Outcome.SKIPPED;
        }
        long dueMs = message.storeTimestampMs() + delayMs;
        if (dueMs > nowMs) {
            return Outcome.notDue(dueMs);
        }
        return switch (restore.restore(message)) {
            case DELIVERED -> Outcome.DELIVERED;
            case SKIPPED -> Outcome.SKIPPED;
            case RETRY -> Outcome.RETRY;
        };
    }

    private void persist(int level) {
        long offset = offsets.get(level - 1);
        if (offset != persisted[level - 1]) {
            metadata.putLong(offsetKey(level), offset);
            persisted[level - 1] = offset;
        }
    }

    // ------------------------------------------------------------------------------------------------ thread

    /**
     * Listens for new schedule messages and starts the scheduler thread.
     *
     * @throws IllegalStateException when already started
     */
    public void start() {
        passes.start();
    }

    /** One pass for the scheduler thread: the time to the next due message, at most the poll interval. */
    private long pass() {
        if (doWork() > 0 && nextDueMs <= clock.time()) {
            return 0;
        }
        long pollNs = TimeUnit.MILLISECONDS.toNanos(settings.pollIntervalMs());
        if (nextDueMs == Long.MAX_VALUE) {
            return pollNs;
        }
        long untilDueMs = Math.max(1, nextDueMs - clock.time());
        return Math.min(pollNs, TimeUnit.MILLISECONDS.toNanos(untilDueMs));
    }

    /** Stops the thread (waiting for a running pass to finish) and persists the offsets. Idempotent. */
    @Override
    public void close() {
        if (passes.stop() != TopicPassThread.Stopped.ENDED) {
            return;
        }
        for (int level = 1; level <= settings.maxLevel(); level++) {
            persist(level);
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    /** The next offset the scheduler reads from level {@code level}'s queue. */
    public long offset(int level) {
        return offsets.get(settings.clampLevel(level) - 1);
    }

    /** Messages re-stored into their real topic so far. */
    public long deliveredCount() {
        return restore.deliveredCount();
    }

    /** Schedule records skipped because they can never be delivered. */
    public long droppedCount() {
        return restore.skippedCount();
    }

    /** Deliveries refused for a reason that may pass (retried on a later pass). */
    public long appendFailureCount() {
        return restore.appendFailureCount();
    }

    /** Passes that failed with an unexpected exception. */
    public long passErrorCount() {
        return passes.passErrorCount();
    }
}
