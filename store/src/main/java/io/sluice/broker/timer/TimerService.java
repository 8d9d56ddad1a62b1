package io.sluice.broker.timer;

import io.sluice.broker.schedule.RealTopicRestore;
import io.sluice.broker.schedule.TopicPassThread;
import io.sluice.broker.schedule.StoredMessage;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Timer messages: holds sends carrying {@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_SEC} or {@code TIMER_DELAY_MS}
 * until their delivery time, then stores them in their real topic and queue (docs/storage.md#timer-messages).
 * {@link #refusal} says why a send's timer cannot be served; {@link #redirectIfTimed} turns a send due in the future
 * into a record of {@value TopicNames#TIMER_TOPIC}. The timer thread indexes those records by delivery time in the
 * {@link TimerIndex}, moving its ingested offset in the same batch (a lost index is rebuilt from the topic), and
 * delivers due ones through {@link RealTopicRestore}, removing their keys only after every copy is stored: a crash
 * in between delivers twice, never zero times.
 *
 * <p>Threads: {@link #start} runs the passes on its own thread ({@value #THREAD_NAME}), every
 * {@code timerPrecisionMs}, sooner for an earlier delivery time or a new timer record; the index is that thread's.
 * {@link #refusal}, {@link #redirectIfTimed}, the counters and {@link #runtimeFigures} are thread-safe. Tests may
 * drive {@link #doWork} instead of {@link #start}. Owned by the composition root; {@link #close} before the stores.
 */
public final class TimerService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimerService.class);

    /** Where timer messages wait. */
    public static final String TIMER_TOPIC = TopicNames.TIMER_TOPIC;
    /** The delivery time (epoch ms) a timer record carries, Apache's property. */
    public static final String TIMER_OUT_MS = "TIMER_OUT_MS";
    /** Metadata key: the timer-topic offset below which every record due by the checkpoint time is delivered. */
    public static final String CHECKPOINT_OFFSET_KEY = "timer.checkpoint.offset";
    /** Metadata key: the checkpoint time, epoch ms. */
    public static final String CHECKPOINT_DELIVERED_MS_KEY = "timer.checkpoint.deliveredMs";
    static final String THREAD_NAME = "sluice-timer-wheel";
    /** Store time may trail the receipt time a delay is counted from, and clocks step: kept that much longer. */
    private static final long RETENTION_MARGIN_MS = 60_000;

    private static final int MAX_READ_COUNT = 256;
    private static final int MAX_READ_BYTES = 4 * 1024 * 1024;
    /** Records indexed, and timers delivered, per pass before the other step gets its turn. */
    private static final int MAX_PER_PASS = 4096;
    private static final long STOP_TIMEOUT_MS = 10_000;
    private static final long RATE_WINDOW_MS = 1_000;
    private static final CompletableFuture<RealTopicRestore.Outcome> SKIPPED =
            CompletableFuture.completedFuture(RealTopicRestore.Outcome.SKIPPED);

    private final MessageStore store;
    private final MetadataStore metadata;
    private final TimerSettings settings;
    private final EpochClock clock;
    private final TimerIndex index;
    private final RealTopicRestore restore;
    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong skippedRecords = new AtomicLong();
    private final AtomicLong missingRecords = new AtomicLong();
    /** The checkpoint last written; pass thread only. */
    private long checkpointOffset;
    private long checkpointDeliveredMs;
    /** Set once the timer topic is known to exist. */
    private volatile boolean timerTopicReady;
    /** Earliest pending delivery time after the last pass, Long.MAX_VALUE when none; written by the pass thread. */
    private volatile long earliestPendingMs = Long.MAX_VALUE;
    /** Set by the pass thread after its first pass: until then {@link #earliestPendingMs} says nothing. */
    private volatile boolean passed;
    /** Due timers left undelivered by the last pass (more than a pass takes, or a refused append). */
    private volatile long dueLeft;
    /** The last pass left due timers whose append was refused: the next waits the retry pause. Pass thread only. */
    private boolean retryDue;
    private volatile double enqueuePerSecond;
    private volatile double dequeuePerSecond;
    private long rateWindowStartMs;
    private long rateWindowEnqueued;
    private long rateWindowDequeued;
    private final TopicPassThread passes;

    /**
     * Opens the timer index in {@code indexDir} and loads the checkpoint.
     *
     * @param store    where timer records wait and where due ones go
     * @param metadata creates the timer topic; keeps the checkpoint
     * @param settings enabled, precision, longest delay
     * @param clock    decides what is due
     * @param indexDir the timer index's RocksDB directory
     */
    public TimerService(MessageStore store, MetadataStore metadata, TimerSettings settings, EpochClock clock,
                        Path indexDir) {
        this.store = store;
        this.metadata = metadata;
        this.settings = settings;
        this.clock = clock;
        this.restore = new RealTopicRestore(store, "timer message", List.of(MessageProperties.REAL_TOPIC,
                MessageProperties.REAL_QID, MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_SEC,
                MessageProperties.TIMER_DELAY_MS));
        this.checkpointOffset = metadata.getLong(CHECKPOINT_OFFSET_KEY).orElse(0L);
        this.checkpointDeliveredMs = metadata.getLong(CHECKPOINT_DELIVERED_MS_KEY).orElse(-1L);
        this.index = TimerIndex.open(indexDir);
        this.rateWindowStartMs = clock.time();
        this.passes = new TopicPassThread(store, TIMER_TOPIC, THREAD_NAME, this::pass,
                TimeUnit.MILLISECONDS.toNanos(settings.precisionMs()), STOP_TIMEOUT_MS);
    }

    /** The settings this service runs with. */
    public TimerSettings settings() {
        return settings;
    }

    // ------------------------------------------------------------------------------------------------ send side

    /**
     * Why a single send's timer cannot be served, or empty when it carries none or can be served. Called before
     * {@link #redirectIfTimed}, on the same request.
     *
     * @param topic          the send's topic, for the remark
     * @param sysFlag        the send's SYSFLAG
     * @param propertiesText the send's properties
     */
    public Optional<String> refusal(String topic, int sysFlag, String propertiesText) {
        TimerRequests.Admission admission = TimerRequests.admit(propertiesText, clock.time(),
                settings.maxDelayMs());
        if (admission instanceof TimerRequests.NotTimer) {
            return Optional.empty();
        }
        if (!settings.enabled()) {
            String property = admission instanceof TimerRequests.At at ? at.property() : firstTimerName(propertiesText);
            return Optional.of("timer messages are not supported by this broker (timerWheelEnable=false): the"
                    + " message to topic[" + topic + "] carries " + property + " and was not stored; delay levels"
                    + " (DELAY) are supported");
        }
        if (admission instanceof TimerRequests.Refused refused) {
            return Optional.of(refused.remark() + ": the message to topic[" + topic + "] was not stored");
        }
        if (RecordDescriptor.transactionType(sysFlag) == RecordDescriptor.TRANSACTION_PREPARED_TYPE
                || "true".equalsIgnoreCase(MessageProperties.find(propertiesText, MessageProperties.TRAN_MSG))) {
            return Optional.of("a transactional message cannot carry a timer: the message to topic[" + topic
                    + "] was not stored");
        }
        return Optional.empty();
    }

    private static String firstTimerName(String propertiesText) {
        for (String name : new String[] {MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_SEC,
            MessageProperties.TIMER_DELAY_MS}) {
            if (MessageProperties.find(propertiesText, name) != null) {
                return name;
            }
        }
        return "a timer property";
    }

    /**
     * The draft to store for {@code draft}: a copy for the timer topic when it is a single message due after now;
     * otherwise {@code draft} itself (no timer, or due already). The first redirect creates the timer topic.
     *
     * @throws IllegalStateException when the timer is one {@link #refusal} refuses (the send path asks first)
     */
    public MessageDraft redirectIfTimed(MessageDraft draft) {
        if (draft.kind() != AppendKind.SINGLE || TIMER_TOPIC.equals(draft.topic())) {
            return draft;
        }
        long nowMs = clock.time();
        TimerRequests.Admission admission = TimerRequests.admit(draft.propertiesText(), nowMs,
                settings.maxDelayMs());
        if (admission instanceof TimerRequests.Refused refused) {
            throw new IllegalStateException("a refused timer reached the append: " + refused.remark());
        }
        if (!(admission instanceof TimerRequests.At at) || at.deliverMs() <= nowMs) {
            return draft;
        }
        if (!settings.enabled()) {
            throw new IllegalStateException("a timer reached the append with timerWheelEnable=false");
        }
        if (!timerTopicReady) {
            installTimerTopic();
        }
        Map<String, String> properties = MessageProperties.parse(draft.propertiesText());
        properties.put(MessageProperties.REAL_TOPIC, draft.topic());
        properties.put(MessageProperties.REAL_QID, Integer.toString(draft.queueId()));
        properties.put(TIMER_OUT_MS, Long.toString(at.deliverMs()));
        return new MessageDraft(TIMER_TOPIC, 0, draft.flag(), draft.sysFlag(), draft.bornTimestampMs(),
                draft.bornHost(), draft.reconsumeTimes(), draft.preparedTransactionOffset(), draft.body(),
                MessageProperties.encode(properties), AppendKind.SINGLE);
    }

    /**
     * Makes sure {@value TopicNames#TIMER_TOPIC} exists (one queue, SimpleCQ) so that the store indexes its records.
     * Idempotent; the first redirect calls it (one synced metadata write). Created on demand, like the schedule
     * topic, so that a fresh broker does not register a one-topic table.
     */
    synchronized void installTimerTopic() {
        if (timerTopicReady) {
            return;
        }
        if (metadata.getTopic(TIMER_TOPIC).isEmpty()) {
            metadata.putTopic(TopicConfig.of(TIMER_TOPIC, 1, ConsumeQueueType.SIMPLE));
            LOG.info("timer topic {} installed", TIMER_TOPIC);
        }
        timerTopicReady = true;
    }

    // ------------------------------------------------------------------------------------------------ passes

    /**
     * One pass: indexes new timer records, delivers the timers due by now, records the checkpoint. Runs on the
     * timer thread once started; tests may call it directly instead of {@link #start}.
     *
     * @return the number of timers delivered
     */
    public int doWork() {
        boolean indexedAll = ingest();
        long nowMs = clock.time();
        long ingestedOffset = index.ingestedOffset();
        DuePass pass = deliverDue(nowMs);
        if (indexedAll && pass.allDue()) {
            writeCheckpoint(ingestedOffset, nowMs);
        }
        earliestPendingMs = index.first().map(TimerKey::deliverMs).orElse(Long.MAX_VALUE);
        passed = true;
        updateRates(clock.time());
        return pass.delivered();
    }

    /** Indexes timer records from the ingested offset; true when caught up with the timer topic. */
    private boolean ingest() {
        long offset = index.ingestedOffset();
        long minOffset = store.minOffset(TIMER_TOPIC, 0);
        long maxOffset = store.maxOffset(TIMER_TOPIC, 0);
        if (offset > maxOffset) {
            // The timer topic lost its tail (e.g. a power loss before a flush): index what is written there next.
            LOG.warn("the timer index is ahead of {} (offset {} > max {}); indexing from {}", TIMER_TOPIC, offset,
                    maxOffset, maxOffset);
            index.ingest(List.of(), maxOffset);
            return true;
        }
        if (offset < minOffset) {
            LOG.warn("timer records below offset {} were removed by retention; the index resumes there (was {})",
                    minOffset, offset);
            offset = minOffset;
        }
        int indexed = 0;
        while (offset < maxOffset && indexed < MAX_PER_PASS) {
            GetResult read = store.getMessages(TIMER_TOPIC, 0, offset, MAX_READ_COUNT, MAX_READ_BYTES, null);
            List<TimerKey> keys = new ArrayList<>();
            long next;
            switch (read.status()) {
                case FOUND -> {
                    next = offset;
                    for (ByteBuffer record : read.records()) {
                        keyOf(record).ifPresent(keys::add);
                        next++;
                    }
                }
                case OFFSET_FOUND_NULL -> {
                    return false;
                }
                default -> next = read.nextOffset();
            }
            if (next <= offset) {
                return false;
            }
            index.ingest(keys, next);
            enqueued.addAndGet(keys.size());
            indexed += (int) (next - offset);
            offset = next;
        }
        return offset >= maxOffset;
    }

    /** The key of a timer record; empty (counted) when it is not one, or the checkpoint says it was delivered. */
    private Optional<TimerKey> keyOf(ByteBuffer record) {
        StoredMessage message;
        try {
            message = StoredMessage.decode(record);
        } catch (IllegalArgumentException e) {
            skippedRecords.incrementAndGet();
            LOG.error("a {} record cannot be decoded, skipped: {}", TIMER_TOPIC, e.getMessage());
            return Optional.empty();
        }
        long deliverMs = deliverMsOf(message);
        if (deliverMs < 0) {
            skippedRecords.incrementAndGet();
            LOG.error("the {} record at position {} carries no valid {}, skipped", TIMER_TOPIC, message.position(),
                    TIMER_OUT_MS);
            return Optional.empty();
        }
        if (message.queueOffset() < checkpointOffset && deliverMs <= checkpointDeliveredMs) {
            return Optional.empty();
        }
        return Optional.of(new TimerKey(deliverMs, message.position()));
    }

    /** The {@value #TIMER_OUT_MS} of a timer record; -1 when absent or not a non-negative number. */
    private static long deliverMsOf(StoredMessage message) {
        String value = message.property(TIMER_OUT_MS);
        if (value == null) {
            return -1;
        }
        try {
            return Math.max(-1, Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** What one delivery pass did; {@code allDue}: nothing due by its time is left. */
    private record DuePass(int delivered, boolean allDue) {
    }

    /**
     * Delivers up to {@value #MAX_PER_PASS} due timers, earliest first: their copies are appended one after the
     * other without waiting (so they are stored in due order and a synchronous flush covers them together), then
     * awaited, then their keys removed in one batch. A crash before the removal re-delivers at most this pass's
     * timers (at-least-once). A copy refused for a reason that may pass keeps its key; issuing stops at the first
     * refusal already known, and the next pass, after the retry pause, tries again.
     */
    private DuePass deliverDue(long nowMs) {
        List<TimerKey> due = index.due(nowMs, MAX_PER_PASS);
        List<CompletableFuture<RealTopicRestore.Outcome>> outcomes = new ArrayList<>(due.size());
        RuntimeException failure = null;
        for (TimerKey key : due) {
            CompletableFuture<RealTopicRestore.Outcome> outcome;
            try {
                outcome = deliver(key);
            } catch (RuntimeException e) {
                // The copies already appended still have their keys removed below, so the next pass does not
                // store them again; the failure then ends the pass.
                failure = e;
                break;
            }
            outcomes.add(outcome);
            if (outcome.isDone() && outcome.join() == RealTopicRestore.Outcome.RETRY) {
                break;
            }
        }
        List<TimerKey> done = new ArrayList<>(outcomes.size());
        int delivered = 0;
        int retries = 0;
        for (int i = 0; i < outcomes.size(); i++) {
            RealTopicRestore.Outcome outcome = outcomes.get(i).join();
            if (outcome == RealTopicRestore.Outcome.RETRY) {
                retries++;
                continue;
            }
            if (outcome == RealTopicRestore.Outcome.DELIVERED) {
                delivered++;
            }
            done.add(due.get(i));
        }
        index.remove(done);
        if (failure != null) {
            throw failure;
        }
        int left = due.size() - done.size();
        retryDue = retries > 0;
        boolean allDue = left == 0 && due.size() < MAX_PER_PASS;
        dueLeft = allDue ? 0 : left > 0 ? left : MAX_PER_PASS;
        return new DuePass(delivered, allDue);
    }

    private CompletableFuture<RealTopicRestore.Outcome> deliver(TimerKey key) {
        Optional<ByteBuffer> record = store.recordAt(key.position());
        if (record.isEmpty()) {
            missingRecords.incrementAndGet();
            LOG.error("the timer record at position {} (due {}) is no longer in the CommitLog; it cannot be"
                    + " delivered", key.position(), key.deliverMs());
            return SKIPPED;
        }
        StoredMessage message;
        try {
            message = StoredMessage.decode(record.get());
        } catch (IllegalArgumentException e) {
            restore.countUndecodable(e.getMessage());
            return SKIPPED;
        }
        // A key whose position now holds another record (the log lost its tail and was rewritten) is stale.
        if (!TIMER_TOPIC.equals(message.topic()) || deliverMsOf(message) != key.deliverMs()) {
            missingRecords.incrementAndGet();
            LOG.error("the timer key (due {}, position {}) no longer matches its record ({}), skipped",
                    key.deliverMs(), key.position(), message.topic());
            return SKIPPED;
        }
        return restore.restoreAsync(message);
    }

    private void writeCheckpoint(long offset, long deliveredMs) {
        if (offset > checkpointOffset) {
            metadata.putLong(CHECKPOINT_OFFSET_KEY, offset);
            checkpointOffset = offset;
        }
        if (deliveredMs > checkpointDeliveredMs) {
            metadata.putLong(CHECKPOINT_DELIVERED_MS_KEY, deliveredMs);
            checkpointDeliveredMs = deliveredMs;
        }
    }

    private void updateRates(long nowMs) {
        long elapsedMs = nowMs - rateWindowStartMs;
        if (elapsedMs < RATE_WINDOW_MS) {
            return;
        }
        long in = enqueued.get();
        long out = restore.deliveredCount();
        enqueuePerSecond = (in - rateWindowEnqueued) * 1000.0 / elapsedMs;
        dequeuePerSecond = (out - rateWindowDequeued) * 1000.0 / elapsedMs;
        rateWindowEnqueued = in;
        rateWindowDequeued = out;
        rateWindowStartMs = nowMs;
    }

    // ------------------------------------------------------------------------------------------------ thread

    /**
     * Listens for new timer records and starts the timer thread.
     *
     * @throws IllegalStateException when already started
     */
    public void start() {
        passes.start();
    }

    /**
     * One pass for the timer thread: the time to the next due timer, at most the precision; 0 while due ones wait,
     * unless an append was refused (then the precision, as a retry pause).
     */
    private long pass() {
        doWork();
        if (dueLeft > 0 && !retryDue) {
            return 0;
        }
        long waitMs = settings.precisionMs();
        long earliest = earliestPendingMs;
        if (earliest != Long.MAX_VALUE && !retryDue) {
            waitMs = Math.max(1, Math.min(waitMs, earliest - clock.time()));
        }
        return TimeUnit.MILLISECONDS.toNanos(waitMs);
    }

    /** Stops the thread (waiting for a running pass to finish) and closes the index. Idempotent. */
    @Override
    public void close() {
        TopicPassThread.Stopped stopped = passes.stop();
        if (stopped == TopicPassThread.Stopped.ENDED || stopped == TopicPassThread.Stopped.NEVER_STARTED) {
            index.close();
        } else if (stopped == TopicPassThread.Stopped.STILL_RUNNING) {
            LOG.error("the timer index stays open: a pass still runs");
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    /**
     * For retention: the lowest CommitLog position a pending (or not yet indexed) timer record may be at;
     * {@link Long#MAX_VALUE} when none. Records below the checkpoint offset were indexed, and one still pending
     * is due no earlier than the earliest pending delivery time, so it was stored no earlier than that time minus
     * {@code timerMaxDelaySec} (and a margin for clocks); records from the checkpoint offset on may not be
     * indexed yet. Before the first pass, every timer record is kept. Any thread; cheap (two lookups).
     */
    public long neededFromPosition() {
        long min = store.minOffset(TIMER_TOPIC, 0);
        if (!passed) {
            return store.positionOf(TIMER_TOPIC, 0, min);
        }
        long offset = metadata.getLong(CHECKPOINT_OFFSET_KEY).orElse(min);
        long earliest = earliestPendingMs;
        if (earliest != Long.MAX_VALUE) {
            long storedFromMs = earliest - settings.maxDelayMs() - settings.precisionMs() - RETENTION_MARGIN_MS;
            offset = Math.min(offset, store.offsetByTimestamp(TIMER_TOPIC, 0, storedFromMs));
        }
        return store.positionOf(TIMER_TOPIC, 0, offset);
    }

    /** Timers indexed and not yet delivered. */
    public long pendingCount() {
        return index.pendingCount();
    }

    /** Timer records indexed so far (this run). */
    public long enqueuedCount() {
        return enqueued.get();
    }

    /** Timers stored in their real topic so far (this run). */
    public long deliveredCount() {
        return restore.deliveredCount();
    }

    /** Timer records skipped: not decodable, no valid TIMER_OUT_MS or real topic, or refused as illegal. */
    public long skippedCount() {
        return skippedRecords.get() + restore.skippedCount();
    }

    /** Timers whose record was gone from the CommitLog when due (retention), never delivered. */
    public long missingCount() {
        return missingRecords.get();
    }

    /** Passes that failed with an unexpected exception. */
    public long passErrorCount() {
        return passes.passErrorCount();
    }

    /**
     * Apache's GET_BROKER_RUNTIME_INFO timer figures: {@code timerOffsetBehind} (timer records not yet indexed),
     * {@code timerReadBehind} (ms the earliest pending timer is overdue, 0 when none is),
     * {@code timerCongestNum} (due timers the last pass left for the next), {@code timerEnqueueTps} and
     * {@code timerDequeueTps} (per second over the last window of about a second); and Sluice's
     * {@code timerPendingCount}.
     */
    public Map<String, String> runtimeFigures(long nowMs) {
        Map<String, String> figures = new LinkedHashMap<>();
        long behind = Math.max(0, store.maxOffset(TIMER_TOPIC, 0) - index.ingestedOffset());
        figures.put("timerReadBehind", Long.toString(earliestPendingMs == Long.MAX_VALUE ? 0
                : Math.max(0, nowMs - earliestPendingMs)));
        figures.put("timerOffsetBehind", Long.toString(behind));
        figures.put("timerCongestNum", Long.toString(dueLeft));
        figures.put("timerEnqueueTps", String.format(Locale.ROOT, "%.2f", enqueuePerSecond));
        figures.put("timerDequeueTps", String.format(Locale.ROOT, "%.2f", dequeuePerSecond));
        figures.put("timerPendingCount", Long.toString(index.pendingCount()));
        return figures;
    }
}
