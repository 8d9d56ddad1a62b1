package io.sluice.store;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.DispatchTotals;
import io.sluice.store.dispatch.Dispatcher;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.dispatch.pipeline.PipelinedDispatcher;
import io.sluice.store.log.FlushStats;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.LastStop;
import io.sluice.store.index.QueueSlot;
import io.sluice.store.index.SlotLookup;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.keyindex.KeyIndex;
import io.sluice.store.keyindex.KeyIndexStats;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.RawAppendStatus;
import io.sluice.store.log.ReadResult;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.log.ScanResult;
import io.sluice.store.log.ScanStatus;
import io.sluice.store.retention.RetentionAgent;
import io.sluice.store.retention.RetentionGuard;
import io.sluice.store.retention.RetentionOutcome;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage engine façade the broker codes against: one shared CommitLog, a consume queue per (topic, queue),
 * dispatch between them, checkpoints, crash recovery and retention.
 *
 * <p><b>Lifecycle.</b> {@link #open} takes the directory lock, recovers (see {@link StoreRecovery}), writes the
 * abort marker and starts the dispatch thread and a housekeeping thread (checkpoints, retention). {@link #close}
 * stops cleanly: appends are refused, the log flushes, dispatch drains, the consume queues flush, a final
 * checkpoint is written, the abort marker is removed (only if dispatch fully drained) and the lock released.
 *
 * <p><b>Threads.</b> Thread-safe: appends and reads from any number of threads. Appends serialize inside the
 * CommitLog; the dispatch thread is the only consume-queue writer; reads are lock-free. Arrival listeners run on
 * the dispatch thread.
 */
public final class MessageStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MessageStore.class);
    private static final long HOUSEKEEPING_STOP_TIMEOUT_MS = 10_000;
    /**
     * Period of the disk check that renews the CommitLog's write budget: short, so that the budget (half of what
     * is left below the refuse ratio) is measured again long before appends could use it up.
     */
    static final long DISK_CHECK_INTERVAL_MS = 1_000;

    private final StoreSettings settings;
    private final StoreEnvironment env;
    private final Function<String, ConsumeQueueType> queueTypeOf;
    private final StoreLock lock;
    private final AbortMarker abortMarker;
    private final CommitLog log;
    private final ConsumeQueueTable queues;
    /** The running dispatcher, chosen by {@code dispatch.mode}. */
    private final Dispatcher dispatcher;
    /** Recovery's re-dispatch (and the running dispatcher in SERIAL mode). */
    private final SerialDispatcher serialDispatcher;
    private final CopyOnWriteArrayList<ArrivalListener> listeners;
    private final StoreCheckpoint checkpointFile;
    private final CheckpointAgent checkpointAgent;
    private final RetentionAgent retentionAgent;
    private final KeyIndex keyIndex;
    private final MessageReader reader;
    private final RecoveryReport recoveryReport;
    private final ScheduledExecutorService housekeeping;
    private final LongAdder appendedMessages = new LongAdder();
    private final LongAdder refusedAppends = new LongAdder();
    private volatile boolean closed;
    /** A replica's log only receives copied bytes: local appends are refused. */
    private volatile boolean replica;

    private MessageStore(Components c, RecoveryReport recoveryReport) {
        this.settings = c.settings;
        this.env = c.env;
        this.queueTypeOf = c.queueTypeOf;
        this.lock = c.lock;
        this.abortMarker = c.abortMarker;
        this.log = c.log;
        this.queues = c.queues;
        this.dispatcher = c.running;
        this.serialDispatcher = c.dispatcher;
        this.listeners = c.listeners;
        this.checkpointFile = c.checkpointFile;
        this.keyIndex = c.keyIndex;
        this.recoveryReport = recoveryReport;
        this.reader = new MessageReader(log, queues);
        this.checkpointAgent = new CheckpointAgent(log, queues, dispatcher, checkpointFile, env.log().epochClock());
        this.retentionAgent = new RetentionAgent(settings.retention(), log, queues, dispatcher,
                env.log().failureHandler(), env.diskUsage(), env.log().epochClock(), env.zone());
        this.housekeeping = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "sluice-store-housekeeping");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens with {@link StoreEnvironment#system()}. See {@link #open(StoreSettings, Function, StoreEnvironment)}. */
    public static MessageStore open(StoreSettings settings, Function<String, ConsumeQueueType> queueTypeOf)
            throws IOException {
        return open(settings, queueTypeOf, StoreEnvironment.system());
    }

    /**
     * Opens (creating if needed) the store in {@code settings.rootDir()}, recovers it and starts its threads.
     *
     * @param queueTypeOf topic → SIMPLE or BATCH (the topic's {@code queue.type}); must answer for every topic
     *                    with data in the store; {@code null} (or an exception) for an unknown topic makes dispatch
     *                    skip its records
     * @throws IOException when another store holds the directory (the message names the lock file), or the files
     *                     cannot be read or repaired
     */
    public static MessageStore open(StoreSettings settings, Function<String, ConsumeQueueType> queueTypeOf,
                                    StoreEnvironment env) throws IOException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(queueTypeOf, "queueTypeOf");
        Objects.requireNonNull(env, "env");
        Files.createDirectories(settings.rootDir());
        Deque<Closeable> opened = new ArrayDeque<>();
        try {
            Components c = new Components(settings, env, queueTypeOf);
            c.lock = StoreLock.acquire(settings.rootDir());
            opened.push(c.lock);
            c.abortMarker = new AbortMarker(settings.rootDir());
            boolean crashed = c.abortMarker.isPresent();
            c.checkpointFile = new StoreCheckpoint(settings.rootDir());
            Optional<Checkpoint> checkpoint = c.checkpointFile.read();
            c.log = CommitLog.open(settings.log(), env.log());
            opened.push(c.log::close);
            c.queues = ConsumeQueueTable.open(settings.index(), queueTypeOf, storeTimes(c.log),
                    crashed ? LastStop.CRASH : LastStop.CLEAN);
            opened.push(c.queues::close);
            c.dispatcher = new SerialDispatcher(c.log, c.queues, settings.dispatch(), c.listeners,
                    env.log().epochClock());
            opened.push(c.dispatcher::close);
            RecoveryReport report = StoreRecovery.recover(c.log, c.queues, c.dispatcher, checkpoint, crashed,
                    settings.log().checkCrcOnRecover());
            c.abortMarker.create();
            c.running = startDispatch(c);
            opened.push(c.running::close);
            c.keyIndex = KeyIndex.open(settings.keyIndex(), c.log, c.running::dispatchedPosition,
                    env.log().epochClock());
            opened.push(c.keyIndex::close);
            if (c.keyIndex.isEnabled()) {
                KeyIndex keys = c.keyIndex;
                c.listeners.add((topic, queueId, maxOffset) -> keys.onDispatched()); // wakes the index thread
            }
            c.keyIndex.start();
            MessageStore store = new MessageStore(c, report);
            store.startHousekeeping();
            LOG.info("opened store {} at position {} ({} consume queues)", settings.rootDir(), c.log.writtenPosition(),
                    c.queues.queues().size());
            return store;
        } catch (IOException | RuntimeException e) {
            while (!opened.isEmpty()) {
                try {
                    opened.pop().close();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /** What {@link #open} assembles before the store exists; used once, on the opening thread. */
    private static final class Components {
        final StoreSettings settings;
        final StoreEnvironment env;
        final Function<String, ConsumeQueueType> queueTypeOf;
        final CopyOnWriteArrayList<ArrivalListener> listeners = new CopyOnWriteArrayList<>();
        StoreLock lock;
        AbortMarker abortMarker;
        StoreCheckpoint checkpointFile;
        CommitLog log;
        ConsumeQueueTable queues;
        SerialDispatcher dispatcher;
        Dispatcher running;
        KeyIndex keyIndex;

        Components(StoreSettings settings, StoreEnvironment env, Function<String, ConsumeQueueType> queueTypeOf) {
            this.settings = settings;
            this.env = env;
            this.queueTypeOf = queueTypeOf;
        }
    }

    /** Starts the configured dispatcher where recovery's re-dispatch ended. */
    private static Dispatcher startDispatch(Components c) {
        Dispatcher d = switch (c.settings.dispatch().mode()) {
            case SERIAL -> c.dispatcher;
            case PIPELINED -> new PipelinedDispatcher(c.log, c.queues, c.settings.dispatch().pipeline(), c.listeners,
                    c.env.log().epochClock());
        };
        d.start(c.dispatcher.dispatchedPosition());
        return d;
    }

    /** STORETIMESTAMP of a record, read from the log, for SimpleCQ time searches; -1 when unreadable. */
    private static StoreTimeLookup storeTimes(CommitLog log) {
        return (position, sizeBytes) -> {
            ReadResult r = log.readRecord(position, sizeBytes);
            if (!r.isFound()) {
                return -1L;
            }
            return storeTimestampOf(r.buffer());
        };
    }

    private static long storeTimestampOf(ByteBuffer record) {
        int sysFlag = record.getInt(RecordDescriptor.SYS_FLAG_OFFSET);
        return record.getLong(RecordDescriptor.storeTimestampOffset(sysFlag));
    }

    private void startHousekeeping() {
        long checkpointMs = settings.checkpointIntervalMs();
        housekeeping.scheduleWithFixedDelay(checkpointAgent, checkpointMs, checkpointMs, TimeUnit.MILLISECONDS);
        long retentionMs = settings.retention().checkIntervalMs();
        housekeeping.scheduleWithFixedDelay(retentionAgent, 0, retentionMs, TimeUnit.MILLISECONDS);
        long diskMs = Math.min(retentionMs, DISK_CHECK_INTERVAL_MS);
        housekeeping.scheduleWithFixedDelay(retentionAgent::runDiskCheck, diskMs, diskMs, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writing

    /**
     * Appends a draft. Refused drafts (and every expected failure) complete normally with a status and write
     * nothing: MESSAGE_ILLEGAL for an illegal topic name, a queue id outside {@code [0, maxQueuesPerTopic)}, an
     * inner batch for a topic that is not BatchCQ, or anything the log refuses (size, flags, batch body);
     * DISK_FULL when the disk is above the refuse ratio; SERVICE_NOT_AVAILABLE once closed. The future completes
     * after the flush the flush policy requires.
     */
    public CompletableFuture<AppendResult> append(MessageDraft draft) {
        AppendStatus refusal = validate(draft);
        if (refusal != null) {
            refusedAppends.increment();
            return CompletableFuture.completedFuture(AppendResult.refused(refusal));
        }
        CompletableFuture<AppendResult> future = log.append(draft);
        if (future.isDone()) {
            // Confirmed at once (asynchronous flush): this thread may index it too, sparing a thread wake-up.
            onAppended(future.join(), true);
            return future;
        }
        // Confirmed by a flush: the flushing thread completes it, and only wakes the dispatcher.
        return future.thenApply(result -> onAppended(result, false));
    }

    private AppendStatus validate(MessageDraft draft) {
        if (closed || replica) {
            return AppendStatus.SERVICE_NOT_AVAILABLE;
        }
        if (draft == null || !TopicNames.isValid(draft.topic()) || draft.queueId() < 0
                || draft.queueId() >= settings.index().maxQueuesPerTopic()) {
            return AppendStatus.MESSAGE_ILLEGAL;
        }
        if (draft.kind() == AppendKind.INNER_BATCH && queueTypeOf(draft.topic()) != ConsumeQueueType.BATCH) {
            return AppendStatus.MESSAGE_ILLEGAL;
        }
        return null;
    }

    private ConsumeQueueType queueTypeOf(String topic) {
        Optional<ConsumeQueueType> existing = queues.typeOfExisting(topic);
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            return queueTypeOf.apply(topic);
        } catch (RuntimeException e) {
            LOG.warn("queue type lookup failed for topic {}", topic, e);
            return null;
        }
    }

    private AppendResult onAppended(AppendResult result, boolean onAppendingThread) {
        if (result.status().isStored()) {
            appendedMessages.add(result.messageCount());
            if (onAppendingThread) {
                dispatcher.afterAppend();
            } else {
                dispatcher.wakeUp();
            }
        } else {
            refusedAppends.increment();
        }
        return result;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Replication

    /**
     * Makes this store a replica (its log only receives bytes copied from a master through
     * {@link #appendReplicated}, and {@link #append} refuses with SERVICE_NOT_AVAILABLE) or a writable store again.
     */
    public void setReplica(boolean value) {
        replica = value;
    }

    /** True while this store is a replica (see {@link #setReplica}). */
    public boolean isReplica() {
        return replica;
    }

    /**
     * Replica side: writes a chunk of whole records copied from the master's log at the same position (see
     * {@link CommitLog#appendRaw}); dispatch builds the consume queues from them as from any append.
     */
    public RawAppendStatus appendReplicated(long position, ByteBuffer records) {
        if (closed) {
            return RawAppendStatus.NOT_WRITABLE;
        }
        RawAppendStatus status = log.appendRaw(position, records);
        if (status == RawAppendStatus.OK) {
            dispatcher.wakeUp();
        }
        return status;
    }

    /** Master side: whole records from {@code position} to ship to a replica (see {@link CommitLog#readRaw}). */
    public ReadResult readReplicable(long position, int maxBytes) {
        return log.readRaw(position, maxBytes);
    }

    /** Position after the last byte of the CommitLog (what a replica has to reach). */
    public long logEndPosition() {
        return log.writtenPosition();
    }

    /** Position of the oldest byte still in the CommitLog. */
    public long logStartPosition() {
        return log.minPosition();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reading

    /**
     * Reads up to {@code maxCount} messages and {@code maxBytes} bytes (the first record is returned whatever its
     * size) from a queue starting at {@code offset}, keeping only records whose tags code passes
     * {@code tagsCodeFilter} ({@code null}: all). Status and next offset follow docs/storage.md#reading; see
     * {@link GetStatus}. For BatchCQ an offset inside a batch returns the whole batch record, and every record
     * counts its inner messages.
     *
     * @throws IllegalArgumentException naming the value if {@code maxCount < 1} or {@code maxBytes < 1}
     * @throws IllegalStateException    once the store is closed
     */
    public GetResult getMessages(String topic, int queueId, long offset, int maxCount, int maxBytes,
                                 LongPredicate tagsCodeFilter) {
        requireOpen();
        return reader.get(topic, queueId, offset, maxCount, maxBytes, tagsCodeFilter);
    }

    /** First readable offset of a queue; 0 when the queue does not exist. */
    public long minOffset(String topic, int queueId) {
        return find(topic, queueId).map(ConsumeQueue::minOffset).orElse(0L);
    }

    /** Next offset to be readable in a queue (one past the last dispatched message); 0 when absent. */
    public long maxOffset(String topic, int queueId) {
        return find(topic, queueId).map(ConsumeQueue::maxOffset).orElse(0L);
    }

    /**
     * The first offset whose message was stored at or after {@code timestampMs}, clamped to [min, max] (max when
     * every message is older); 0 when the queue does not exist.
     */
    public long offsetByTimestamp(String topic, int queueId, long timestampMs) {
        Optional<ConsumeQueue> queue = find(topic, queueId);
        if (queue.isEmpty()) {
            return 0;
        }
        ConsumeQueue q = queue.get();
        long offset = q.offsetByTimestamp(Math.max(0, timestampMs), true);
        return Math.max(q.minOffset(), Math.min(q.maxOffset(), offset));
    }

    /** Store time of the first readable message of a queue; -1 when the queue is empty or absent. */
    public long earliestStoreTimeMs(String topic, int queueId) {
        return find(topic, queueId).map(ConsumeQueue::earliestStoreTimeMs).orElse(-1L);
    }

    /** Store time of the message at {@code offset}; -1 when absent (out of range, trimmed, unreadable). */
    public long storeTimeMsAt(String topic, int queueId, long offset) {
        Optional<ConsumeQueue> queue = find(topic, queueId);
        if (queue.isEmpty() || offset < 0) {
            return -1;
        }
        SlotLookup lookup = queue.get().lookup(offset);
        if (!(lookup instanceof QueueSlot slot)) {
            return -1;
        }
        if (slot.storeTimestampMs() != QueueSlot.UNKNOWN_STORE_TIME) {
            return slot.storeTimestampMs();
        }
        ReadResult r = log.readRecord(slot.position(), slot.sizeBytes());
        return r.isFound() ? storeTimestampOf(r.buffer()) : -1;
    }

    /**
     * The record that starts at {@code position} (a message id lookup), as a read-only view; empty when no
     * valid, dispatchable record starts exactly there.
     */
    public Optional<ByteBuffer> recordAt(long position) {
        if (position < 0) {
            return Optional.empty();
        }
        ScanResult scan = log.scan(position, false);
        if (scan.status() != ScanStatus.VALID) {
            return Optional.empty();
        }
        ReadResult r = log.readRecord(position, scan.sizeBytes());
        return r.isFound() ? Optional.of(r.buffer()) : Optional.empty();
    }

    /**
     * The records of {@code topic} carrying {@code key} (its {@code UNIQ_KEY} when {@code unique}, else one of its
     * space-separated {@code KEYS}) stored within {@code [beginMs, endMs]}, through the key index: at most
     * {@code maxRecords}, newest first by index file; empty when none or the index is disabled. Records dispatched
     * within the last few milliseconds may not be indexed yet (see {@link #keyIndexStats()}).
     */
    public List<ByteBuffer> findByKey(String topic, String key, boolean unique, long beginMs, long endMs,
                                      int maxRecords) {
        requireOpen();
        return keyIndex.find(topic, key, unique, beginMs, endMs, maxRecords);
    }

    /** Whether keys are indexed ({@code messageIndexEnable}). */
    public boolean isKeyIndexEnabled() {
        return keyIndex.isEnabled();
    }

    /** Position and counters of the key index. */
    public KeyIndexStats keyIndexStats() {
        return keyIndex.stats();
    }

    private Optional<ConsumeQueue> find(String topic, int queueId) {
        if (topic == null || queueId < 0) {
            return Optional.empty();
        }
        return queues.find(topic, queueId);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Control

    /** Adds a listener told (on the dispatch thread) when queues receive messages. */
    public void addArrivalListener(ArrivalListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Removes a listener added before; false if it was not registered. */
    public boolean removeArrivalListener(ArrivalListener listener) {
        return listeners.remove(listener);
    }

    /**
     * Drops every consume queue of {@code topic} (files included) and forgets its queue offsets. Call after the
     * topic is removed from the topic configuration, so that {@code queueTypeOf} no longer knows it and dispatch
     * does not recreate queues from records still in the log.
     *
     * @return the number of consume queues destroyed
     */
    public int deleteTopic(String topic) {
        requireOpen();
        int destroyed = queues.deleteTopic(topic);
        log.queueOffsets().remove(topic);
        return destroyed;
    }

    /**
     * Makes retention ask {@code guard} which positions consumers have not read and which the broker still needs
     * before deleting segments (until then nothing is known consumed and nothing needed).
     */
    public void retentionGuard(RetentionGuard guard) {
        retentionAgent.guard(guard);
    }

    /**
     * The CommitLog position of the record holding the message at {@code offset} of a queue (for a BatchCQ queue,
     * its batch's record); {@link Long#MAX_VALUE} when the queue has no message at or after {@code offset}, the
     * queue's first readable record's position when {@code offset} is below it.
     */
    public long positionOf(String topic, int queueId, long offset) {
        requireOpen();
        long from = Math.max(offset, minOffset(topic, queueId));
        GetResult r = reader.get(topic, queueId, from, 1, Integer.MAX_VALUE, null);
        if (r.status() != GetStatus.FOUND || r.records().isEmpty()) {
            return Long.MAX_VALUE;
        }
        return r.records().get(0).getLong(RecordDescriptor.PHYSICAL_OFFSET_OFFSET);
    }

    /**
     * Runs a retention and disk check now (it also runs every {@code retention.checkIntervalMs}): may delete
     * expired segments and trims consume queues.
     */
    public RetentionOutcome runRetention() {
        requireOpen();
        return retentionAgent.check();
    }

    /**
     * Takes a checkpoint now (it also happens every {@code checkpointIntervalMs}).
     *
     * @return the checkpointed position
     * @throws IOException if the checkpoint cannot be written
     */
    public long checkpoint() throws IOException {
        requireOpen();
        return checkpointAgent.checkpoint();
    }

    /** What start-up recovery found and did. */
    public RecoveryReport recoveryReport() {
        return recoveryReport;
    }

    /** The settings this store runs with. */
    public StoreSettings settings() {
        return settings;
    }

    /** A snapshot of positions, health and counters. */
    public StoreStats stats() {
        DispatchTotals d = serialDispatcher.totals(); // recovery's re-dispatch, and all of dispatch in SERIAL mode
        if (dispatcher != serialDispatcher) {
            d = d.plus(dispatcher.totals());
        }
        long indexed = d.indexed();
        long corrupt = d.corrupt();
        long unindexable = d.unindexable();
        long inconsistent = d.inconsistent();
        long errors = d.errors();
        return new StoreStats(
                log.writtenPosition(),
                log.flushedPosition(),
                log.confirmedPosition(),
                dispatcher.dispatchedPosition(),
                dispatcher.lagBytes(),
                dispatcher.lagMs(),
                log.minPosition(),
                checkpointFile.lastWrittenPosition(),
                retentionAgent.lastDiskUsedRatio(),
                env.log().failureHandler().isDiskFull(),
                !closed && log.isWritable(),
                appendedMessages.sum(),
                refusedAppends.sum(),
                indexed,
                corrupt,
                unindexable,
                inconsistent,
                errors,
                retentionAgent.deletedSegments(),
                retentionAgent.unreadBytesDeleted(),
                checkpointAgent.failures(),
                log.segmentCount(),
                log.mappedBytes(),
                log.pageCacheReleasedBytes());
    }

    /** The CommitLog flush agent's fsyncs so far: count, bytes, latency and size buckets. */
    public FlushStats flushStats() {
        return log.flushStats();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("store " + settings.rootDir() + " is closed");
        }
    }

    /**
     * Clean shutdown: refuses new appends, stops housekeeping, flushes the log (pending SYNC appends complete),
     * drains dispatch (up to {@code dispatch.drainTimeoutMs}), flushes the consume queues, writes a final
     * checkpoint, removes the abort marker if dispatch drained and no storage failure happened, and releases the
     * directory lock. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopHousekeeping();
        keyIndex.close(); // its thread reads the log: stopped before the log's mappings go
        log.close();
        boolean drained = dispatcher.drain(settings.dispatch().drainTimeoutMs());
        dispatcher.close();
        boolean clean = drained && !env.log().failureHandler().hasFailed();
        try {
            long position = checkpointAgent.checkpoint();
            clean &= position == log.writtenPosition();
        } catch (IOException | RuntimeException e) {
            LOG.error("final checkpoint of {} failed; the next start runs crash recovery", settings.rootDir(), e);
            clean = false;
        }
        try {
            queues.close();
        } catch (RuntimeException e) {
            LOG.error("closing the consume queues of {} failed; the next start runs crash recovery",
                    settings.rootDir(), e);
            clean = false;
        }
        if (clean) {
            try {
                abortMarker.delete();
            } catch (IOException e) {
                LOG.error("cannot delete the abort marker {}; the next start runs crash recovery",
                        abortMarker.file(), e);
            }
        } else {
            LOG.warn("store {} did not stop cleanly (dispatch drained: {}); keeping {} for crash recovery",
                    settings.rootDir(), drained, abortMarker.file());
        }
        releaseLock();
        LOG.info("closed store {} at position {}", settings.rootDir(), log.writtenPosition());
    }

    /**
     * Test support: stops every thread and releases the lock the way a killed process would leave things: no
     * final checkpoint, consume queues not flushed by us, abort marker kept. (The CommitLog still flushes what
     * it holds, as a page cache surviving a process crash would.)
     */
    void haltWithoutCleanShutdown() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopHousekeeping();
        dispatcher.close();
        keyIndex.halt();
        log.close();
        try {
            queues.close();
        } finally {
            releaseLock();
        }
    }

    private void stopHousekeeping() {
        housekeeping.shutdown(); // cancels the periodic tasks; a running one finishes
        try {
            if (!housekeeping.awaitTermination(HOUSEKEEPING_STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                LOG.error("housekeeping of {} did not stop within {} ms", settings.rootDir(),
                        HOUSEKEEPING_STOP_TIMEOUT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void releaseLock() {
        try {
            lock.close();
        } catch (IOException e) {
            LOG.warn("cannot release the lock of {}", settings.rootDir(), e);
        }
    }
}
