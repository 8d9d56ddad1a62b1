package io.sluice.broker.transaction;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.transaction.OpRecordDescriptor.Kind;
import io.sluice.broker.transaction.OpRecordDescriptor.Op;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.MessageProperties;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactional messages: applies END_TRANSACTION outcomes once, checks back unresolved half messages and keeps the
 * state durable in the CommitLog alone: half messages in {@value HalfMessages#HALF_TOPIC}, one op record per outcome
 * or check in {@value OpRecordDescriptor#OP_TOPIC} ({@link OpRecordDescriptor}); the offsets
 * {@value #HALF_OFFSET_KEY} and {@value #CONFIRMED_OP_OFFSET_KEY} only bound what {@link #recover} reads again
 * (docs/storage.md#transactional-messages).
 *
 * <p>Once only: a half message is decided by its first C, R or D op record. A commit writes its op before the
 * committed copy, so a crash between them leaves an op whose copy {@link #recover} stores; the other order could
 * store the copy twice. The heap holds two bytes per half message in the window of {@link HalfWindow}.
 *
 * <p>Threads: {@code sluice-transaction} owns every field marked "transaction thread": {@link #recover} first, then
 * END_TRANSACTIONs in arrival order, the check pass every {@code transactionCheckInterval} and offset persistence
 * every second. Handlers only parse and hand over (beyond {@value #MAX_QUEUED_ENDS} waiting: SYSTEM_BUSY). Tests that
 * never {@link #start} call {@link #recover}, {@link #end} and {@link #checkPass} on their own thread, which then
 * owns the state. Counters are thread-safe.
 */
public final class TransactionService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionService.class);

    /** Metadata key: the oldest half message without an outcome. */
    static final String HALF_OFFSET_KEY = "transaction.half.offset";
    /** Metadata key: every commit op record below it has its committed copy stored. */
    static final String CONFIRMED_OP_OFFSET_KEY = "transaction.op.confirmed";
    /** END_TRANSACTIONs waiting for the transaction thread before more are refused. */
    static final int MAX_QUEUED_ENDS = 100_000;

    private static final int READ_BATCH = 32;
    private static final int MAX_READ_BYTES = 4 * 1024 * 1024;
    private static final long PERSIST_INTERVAL_MS = 1_000;
    private static final long WARN_INTERVAL_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 10_000;

    private final MessageStore store;
    private final MetadataStore metadata;
    private final Function<String, Optional<ConnectionContext>> producers;
    private final Predicate<String> topicExists;
    private final TransactionSettings settings;
    private final EpochClock clock;
    private final InetSocketAddress brokerAddress;
    private final ScheduledThreadPoolExecutor executor;
    private final AtomicInteger queuedEnds = new AtomicInteger();
    /** Set once the three transaction topics are known to exist. */
    private volatile boolean topicsReady;
    private volatile boolean started;

    // transaction thread only
    private HalfWindow window = new HalfWindow(0);
    /** {op offset, half offset} of commits whose copy could not be stored yet, in op order. */
    private final ArrayDeque<long[]> owedCommits = new ArrayDeque<>();
    private long nextOpOffset;
    private long persistedHalf = -1;
    private long persistedConfirmed = -1;
    private long lastWarnMs = Long.MIN_VALUE;
    private long warningsSuppressed;

    private final AtomicLong preparedSends = new AtomicLong();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong duplicateEnds = new AtomicLong();
    private final AtomicLong unknownEnds = new AtomicLong();
    private final AtomicLong rejectedEnds = new AtomicLong();
    private final AtomicLong pendingAnswers = new AtomicLong();
    private final AtomicLong checksSent = new AtomicLong();
    private final AtomicLong checksWithoutProducer = new AtomicLong();
    private final AtomicLong checkSendFailures = new AtomicLong();
    private final AtomicLong givenUp = new AtomicLong();
    private final AtomicLong repairedCommits = new AtomicLong();
    private final AtomicLong malformedRecords = new AtomicLong();
    private final AtomicLong storeFailures = new AtomicLong();
    private final AtomicLong taskErrors = new AtomicLong();

    /**
     * @param store         where half messages, op records and committed messages go
     * @param metadata      the transaction topics and the three offsets
     * @param producers     a live connection of a producer group, for check-backs
     * @param topicExists   whether a real topic still exists (a commit to a deleted topic is not applied)
     * @param settings      time-out, check interval and maximum
     * @param clock         decides which half messages are old enough to check
     * @param brokerAddress born host of op records
     */
    public TransactionService(MessageStore store, MetadataStore metadata,
                              Function<String, Optional<ConnectionContext>> producers, Predicate<String> topicExists,
                              TransactionSettings settings, EpochClock clock, InetSocketAddress brokerAddress) {
        this.store = store;
        this.metadata = metadata;
        this.producers = producers;
        this.topicExists = topicExists;
        this.settings = settings;
        this.clock = clock;
        this.brokerAddress = brokerAddress;
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "sluice-transaction");
            thread.setDaemon(true);
            return thread;
        });
        this.executor.setRemoveOnCancelPolicy(true);
    }

    // ------------------------------------------------------------------------------------------------ send side

    /**
     * The half message to store for a prepared send ({@link HalfMessages#isPrepared}); the first one creates the
     * transaction topics. Any thread.
     */
    public MessageDraft toHalf(MessageDraft prepared) {
        ensureTopics();
        preparedSends.incrementAndGet();
        return HalfMessages.toHalf(prepared);
    }

    /**
     * Makes sure the half, op and check-max topics exist (one queue, SimpleCQ), so that the store indexes their
     * records. Created on the first prepared send rather than at start, as the schedule topic is, so that a
     * broker without transactions registers none of them.
     */
    private void ensureTopics() {
        if (topicsReady) {
            return;
        }
        synchronized (this) { // held by the first thread that needs the topics, while it writes them
            if (topicsReady) {
                return;
            }
            for (String topic : List.of(HalfMessages.HALF_TOPIC, OpRecordDescriptor.OP_TOPIC,
                    HalfMessages.CHECK_MAX_TOPIC)) {
                if (metadata.getTopic(topic).isEmpty()) {
                    metadata.putTopic(TopicConfig.of(topic, 1, ConsumeQueueType.SIMPLE));
                    LOG.info("transaction topic {} installed", topic);
                }
            }
            topicsReady = true;
        }
    }

    // ------------------------------------------------------------------------------------------------ END_TRANSACTION

    /**
     * END_TRANSACTION (37): parses the header and hands it to the transaction thread. The answer (for a caller
     * that waits for one) says what was done.
     */
    public CompletableFuture<RemotingCommand> onEndTransaction(ConnectionContext connection,
                                                               RemotingCommand request) {
        EndTransactionRequest header;
        try {
            header = EndTransactionRequest.parse(request);
        } catch (MalformedHeaderException e) {
            rejectedEnds.incrementAndGet();
            return answer(ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        if (queuedEnds.incrementAndGet() > MAX_QUEUED_ENDS) {
            queuedEnds.decrementAndGet();
            rejectedEnds.incrementAndGet();
            return answer(ResponseCode.SYSTEM_BUSY, "too many END_TRANSACTION requests waiting: not applied; the"
                    + " transaction will be checked back");
        }
        try {
            return CompletableFuture.supplyAsync(() -> endOnThread(header), executor);
        } catch (RejectedExecutionException e) {
            queuedEnds.decrementAndGet();
            rejectedEnds.incrementAndGet();
            return answer(ResponseCode.SERVICE_NOT_AVAILABLE, "the broker is stopping: END_TRANSACTION not applied");
        }
    }

    private RemotingCommand endOnThread(EndTransactionRequest header) {
        try {
            EndOutcome outcome = end(header);
            return RemotingCommand.response(outcome.code, outcome.remark + " (commitLogOffset "
                    + header.commitLogOffset() + ", tranStateTableOffset " + header.tranStateTableOffset() + ")");
        } catch (RuntimeException e) {
            taskErrors.incrementAndGet();
            LOG.error("END_TRANSACTION for commitLogOffset {} failed; the transaction stays pending",
                    header.commitLogOffset(), e);
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "END_TRANSACTION failed: " + e);
        } finally {
            queuedEnds.decrementAndGet();
        }
    }

    private static CompletableFuture<RemotingCommand> answer(int code, String remark) {
        return CompletableFuture.completedFuture(RemotingCommand.response(code, remark));
    }

    /** Applies one END_TRANSACTION. Transaction thread. */
    EndOutcome end(EndTransactionRequest request) {
        if (request.commitOrRollback() == EndTransactionRequest.UNKNOWN) {
            pendingAnswers.incrementAndGet();
            return EndOutcome.LEFT_PENDING;
        }
        Optional<StoredMessage> found = store.recordAt(request.commitLogOffset()).flatMap(this::decodeQuietly);
        if (found.isEmpty() || !HalfMessages.HALF_TOPIC.equals(found.get().topic())
                || found.get().queueOffset() != request.tranStateTableOffset()) {
            unknownEnds.incrementAndGet();
            warn("END_TRANSACTION from group {} names no half message (commitLogOffset {}, tranStateTableOffset {})",
                    request.producerGroup(), request.commitLogOffset(), request.tranStateTableOffset());
            return EndOutcome.NO_SUCH_HALF;
        }
        StoredMessage half = found.get();
        String group = half.property(MessageProperties.PGROUP);
        if (group != null && !group.equals(request.producerGroup())) {
            unknownEnds.incrementAndGet();
            warn("END_TRANSACTION from group {} for a half message of group {}", request.producerGroup(), group);
            return EndOutcome.WRONG_GROUP;
        }
        long halfOffset = half.queueOffset();
        if (window.isDecided(halfOffset)) {
            duplicateEnds.incrementAndGet();
            return EndOutcome.ALREADY_RESOLVED;
        }
        if (request.commitOrRollback() == EndTransactionRequest.ROLLBACK) {
            if (appendOp(new Op(Kind.ROLLBACK, halfOffset, 0, 0)).isEmpty()) {
                return EndOutcome.STORE_FAILED;
            }
            resolved(halfOffset);
            rolledBack.incrementAndGet();
            return EndOutcome.ROLLED_BACK;
        }
        Optional<HalfMessages.RealQueue> real = HalfMessages.realQueue(half);
        if (real.isEmpty() || !topicExists.test(real.get().topic())) {
            warn("commit of half message {} not applied: its topic {} does not exist", halfOffset,
                    half.property(MessageProperties.REAL_TOPIC));
            return EndOutcome.NO_REAL_TOPIC;
        }
        long realFrom = store.maxOffset(real.get().topic(), real.get().queueId());
        OptionalLong opOffset = appendOp(new Op(Kind.COMMIT, halfOffset, 0, realFrom));
        if (opOffset.isEmpty()) {
            return EndOutcome.STORE_FAILED;
        }
        resolved(halfOffset);
        committed.incrementAndGet();
        if (append(HalfMessages.committed(half, real.get()), "committed message").isEmpty()) {
            owedCommits.addLast(new long[] {opOffset.getAsLong(), halfOffset});
        }
        return EndOutcome.COMMITTED;
    }

    private void resolved(long halfOffset) {
        window.decide(halfOffset);
    }

    // ------------------------------------------------------------------------------------------------ check pass

    /**
     * One pass over the unresolved half messages: each one older than the time-out is checked back, or given up
     * once checked {@code transactionCheckMax} times. Commits whose copy could not be stored are retried first.
     * Transaction thread.
     *
     * @return the CHECK_TRANSACTION_STATE requests sent
     */
    int checkPass() {
        long nowMs = clock.time();
        retryOwedCommits();
        long min = store.minOffset(HalfMessages.HALF_TOPIC, 0);
        if (min > window.floor()) {
            warn("half messages below offset {} were removed by retention before they were resolved", min);
            window.raiseFloor(min);
        }
        int sent = 0;
        int gaveUp = 0;
        long offset = window.floor();
        scan:
        while (true) {
            GetResult read = store.getMessages(HalfMessages.HALF_TOPIC, 0, offset, READ_BATCH, MAX_READ_BYTES, null);
            if (read.status() != GetStatus.FOUND) {
                if (read.nextOffset() > offset) {
                    offset = read.nextOffset();
                    continue;
                }
                break;
            }
            List<ByteBuffer> records = read.records();
            for (int i = 0; i < records.size(); i++) {
                ByteBuffer record = records.get(i);
                Optional<StoredMessage> decodedHalf = decodeQuietly(record);
                if (decodedHalf.isEmpty()) {
                    // It can never be resolved: leaving it would hold the window open for good.
                    warn("half message at offset {} cannot be decoded: skipped for good", offset + i);
                    window.decide(offset + i);
                    continue;
                }
                StoredMessage half = decodedHalf.get();
                long halfOffset = half.queueOffset();
                if (window.isDecided(halfOffset)) {
                    continue;
                }
                long ageMs = nowMs - half.storeTimestampMs();
                if (ageMs < settings.timeoutMs()) {
                    break scan; // stored in order: the rest are younger still
                }
                if (ageMs < HalfMessages.checkAfterMs(half, settings.timeoutMs())) {
                    continue;
                }
                int checks = window.checks(halfOffset);
                if (checks >= settings.checkMax() || HalfMessages.realQueue(half).isEmpty()) {
                    if (giveUp(half)) {
                        gaveUp++;
                    }
                } else if (check(half, record, checks + 1)) {
                    sent++;
                }
            }
            offset = read.nextOffset();
        }
        persistOffsets();
        if (gaveUp > 0) {
            LOG.warn("{} half messages still unresolved after {} checks were moved to {} and will not be delivered",
                    gaveUp, settings.checkMax(), HalfMessages.CHECK_MAX_TOPIC);
        }
        return sent;
    }

    private boolean check(StoredMessage half, ByteBuffer record, int checks) {
        if (appendOp(new Op(Kind.CHECKED, half.queueOffset(), checks, 0)).isEmpty()) {
            return false;
        }
        window.setChecks(half.queueOffset(), checks);
        Optional<ConnectionContext> producer = producers.apply(half.property(MessageProperties.PGROUP));
        if (producer.isEmpty()) {
            checksWithoutProducer.incrementAndGet();
            return false;
        }
        HalfMessages.RealQueue real = HalfMessages.realQueue(half).orElseThrow();
        RemotingCommand request = CheckRequests.build(half, record, real, settings.brokerName());
        producer.get().sendOneway(request).whenComplete((written, error) -> {
            if (error != null) {
                checkSendFailures.incrementAndGet();
            }
        });
        checksSent.incrementAndGet();
        return true;
    }

    /** Keeps a copy in the check-max topic, then records the outcome: a crash between may keep two copies there. */
    private boolean giveUp(StoredMessage half) {
        if (append(HalfMessages.givenUp(half), "given-up half message").isEmpty()
                || appendOp(new Op(Kind.DISCARD, half.queueOffset(), 0, 0)).isEmpty()) {
            return false;
        }
        resolved(half.queueOffset());
        givenUp.incrementAndGet();
        return true;
    }

    private void retryOwedCommits() {
        while (!owedCommits.isEmpty()) {
            long[] owed = owedCommits.peekFirst();
            Optional<StoredMessage> half = readHalf(owed[1]);
            if (half.isPresent()) {
                Optional<HalfMessages.RealQueue> real = HalfMessages.realQueue(half.get());
                if (real.isPresent() && append(HalfMessages.committed(half.get(), real.get()),
                        "committed message").isEmpty()) {
                    return; // still failing: the next pass tries again
                }
            } else {
                warn("committed half message {} is gone before its copy could be stored", owed[1]);
            }
            owedCommits.pollFirst();
        }
    }

    // ------------------------------------------------------------------------------------------------ recovery

    /** Rebuilds the state from the op records and repairs commits a crash interrupted. Transaction thread. */
    void recover() {
        if (metadata.getTopic(HalfMessages.HALF_TOPIC).isPresent()) {
            ensureTopics(); // a crash may have come between the topics' creation
        }
        long halfMin = store.minOffset(HalfMessages.HALF_TOPIC, 0);
        long halfMax = store.maxOffset(HalfMessages.HALF_TOPIC, 0);
        long opMin = store.minOffset(OpRecordDescriptor.OP_TOPIC, 0);
        long opMax = store.maxOffset(OpRecordDescriptor.OP_TOPIC, 0);
        long halfFloor = clamp(HALF_OFFSET_KEY, metadata.getLong(HALF_OFFSET_KEY).orElse(halfMin), halfMin, halfMax);
        long confirmed = clamp(CONFIRMED_OP_OFFSET_KEY, metadata.getLong(CONFIRMED_OP_OFFSET_KEY).orElse(opMin),
                opMin, opMax);
        // Nothing at the floor: every half message is decided, no op record can be about a later one yet. An
        // unreadable one: read every op record rather than risk missing an outcome.
        long opFrom = halfFloor >= halfMax ? opMax
                : readHalf(halfFloor).map(h -> firstOpAfter(h.position(), opMin, opMax)).orElse(opMin);
        window = new HalfWindow(halfFloor);
        owedCommits.clear();
        List<CommitOp> toVerify = new ArrayList<>();
        long offset = Math.min(opFrom, confirmed);
        int read = 0;
        while (true) {
            GetResult result = store.getMessages(OpRecordDescriptor.OP_TOPIC, 0, offset, READ_BATCH, MAX_READ_BYTES,
                    null);
            if (result.status() != GetStatus.FOUND) {
                if (result.nextOffset() > offset) {
                    offset = result.nextOffset();
                    continue;
                }
                break;
            }
            for (ByteBuffer record : result.records()) {
                read++;
                Optional<StoredMessage> message = decodeQuietly(record);
                Optional<Op> op = message.flatMap(this::decodeOp);
                if (op.isEmpty()) {
                    continue;
                }
                long opOffset = message.get().queueOffset();
                Op o = op.get();
                if (o.kind() == Kind.COMMIT && opOffset >= confirmed) {
                    toVerify.add(new CommitOp(opOffset, o));
                }
                if (o.kind().terminal) {
                    window.decide(o.halfOffset());
                } else {
                    window.setChecks(o.halfOffset(), Math.max(o.checks(), window.checks(o.halfOffset())));
                }
            }
            offset = result.nextOffset();
        }
        nextOpOffset = Math.max(offset, opMax);
        for (CommitOp commit : toVerify) {
            repairCommit(commit.opOffset(), commit.op());
        }
        persistOffsets();
        LOG.info("transactions recovered: {} op records read from offset {}, oldest unresolved half message {},"
                + " {} commits verified, {} repaired", read, Math.min(opFrom, confirmed), window.floor(),
                toVerify.size(), repairedCommits.get());
    }

    /** A commit op record and its offset in the op queue. */
    private record CommitOp(long opOffset, Op op) {
    }

    /**
     * The first op queue offset whose record was stored after CommitLog {@code position} (op records are stored
     * in queue order); an unreadable probe moves the answer down, which only means reading more.
     */
    private long firstOpAfter(long position, long opMin, long opMax) {
        long low = opMin;
        long high = opMax;
        while (low < high) {
            long mid = low + (high - low) / 2;
            GetResult probe = store.getMessages(OpRecordDescriptor.OP_TOPIC, 0, mid, 1, MAX_READ_BYTES, null);
            Optional<StoredMessage> op = probe.status() == GetStatus.FOUND && !probe.records().isEmpty()
                    ? decodeQuietly(probe.records().get(0)) : Optional.empty();
            if (op.isEmpty() || op.get().position() > position) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /** Stores the committed copy of a commit op record unless the real queue holds it already. */
    private void repairCommit(long opOffset, Op commit) {
        Optional<StoredMessage> half = readHalf(commit.halfOffset());
        if (half.isEmpty()) {
            warn("committed half message {} is gone (retention): its copy cannot be verified", commit.halfOffset());
            return;
        }
        Optional<HalfMessages.RealQueue> real = HalfMessages.realQueue(half.get());
        if (real.isEmpty() || hasCommittedCopy(real.get(), commit.realFrom(), half.get().position())) {
            return;
        }
        if (append(HalfMessages.committed(half.get(), real.get()), "committed message").isPresent()) {
            repairedCommits.incrementAndGet();
            LOG.warn("the commit of half message {} was interrupted before its message was stored: stored now",
                    commit.halfOffset());
        } else {
            owedCommits.addLast(new long[] {opOffset, commit.halfOffset()});
        }
    }

    private boolean hasCommittedCopy(HalfMessages.RealQueue real, long from, long halfPosition) {
        long offset = Math.max(from, store.minOffset(real.topic(), real.queueId()));
        while (true) {
            GetResult read = store.getMessages(real.topic(), real.queueId(), offset, READ_BATCH, MAX_READ_BYTES,
                    null);
            if (read.status() != GetStatus.FOUND) {
                if (read.nextOffset() > offset) {
                    offset = read.nextOffset();
                    continue;
                }
                return false;
            }
            for (ByteBuffer record : read.records()) {
                Optional<StoredMessage> stored = decodeQuietly(record);
                if (stored.isPresent() && HalfMessages.isCommittedCopyOf(stored.get(), halfPosition)) {
                    return true;
                }
            }
            offset = read.nextOffset();
        }
    }

    private long clamp(String key, long value, long min, long max) {
        if (value < min || value > max) {
            long clamped = Math.max(min, Math.min(max, value));
            LOG.warn("stored {} {} is outside the queue's [{}, {}]: using {}", key, value, min, max, clamped);
            return clamped;
        }
        return value;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private Optional<StoredMessage> readHalf(long halfOffset) {
        GetResult read = store.getMessages(HalfMessages.HALF_TOPIC, 0, halfOffset, 1, MAX_READ_BYTES, null);
        if (read.status() != GetStatus.FOUND || read.records().isEmpty()) {
            return Optional.empty();
        }
        return decodeQuietly(read.records().get(0)).filter(m -> m.queueOffset() == halfOffset);
    }

    private OptionalLong appendOp(Op op) {
        ensureTopics();
        Optional<AppendResult> result = append(OpRecordDescriptor.draft(op, clock.time(), brokerAddress),
                "op record");
        if (result.isEmpty()) {
            return OptionalLong.empty();
        }
        long opOffset = result.get().queueOffset();
        nextOpOffset = opOffset + 1;
        return OptionalLong.of(opOffset);
    }

    /** Appends and waits; empty (counted, logged at most once a minute) when the store refused or failed. */
    private Optional<AppendResult> append(MessageDraft draft, String what) {
        AppendResult result;
        try {
            result = store.append(draft).join();
        } catch (CompletionException e) {
            storeFailures.incrementAndGet();
            LOG.error("storing a {} for topic {} failed", what, draft.topic(), e.getCause());
            return Optional.empty();
        }
        if (!result.status().isStored()) {
            storeFailures.incrementAndGet();
            warn("storing a {} for topic {} was refused: {}", what, draft.topic(), result.status());
            return Optional.empty();
        }
        return Optional.of(result);
    }

    private Optional<StoredMessage> decodeQuietly(ByteBuffer record) {
        try {
            return Optional.of(StoredMessage.decode(record));
        } catch (IllegalArgumentException e) {
            malformedRecords.incrementAndGet();
            warn("a transaction record cannot be decoded: {}", e.getMessage());
            return Optional.empty();
        }
    }

    private Optional<Op> decodeOp(StoredMessage message) {
        try {
            return Optional.of(OpRecordDescriptor.decode(message));
        } catch (IllegalArgumentException e) {
            malformedRecords.incrementAndGet();
            warn("op record at offset {} is malformed, skipped: {}", message.queueOffset(), e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * For retention: the lowest CommitLog position a restart still reads, from the persisted offsets (never above
     * the live ones): the oldest unresolved half message and the first op record not confirmed;
     * {@link Long#MAX_VALUE} when neither exists. Any thread.
     */
    public long neededFromPosition() {
        long halfMin = store.minOffset(HalfMessages.HALF_TOPIC, 0);
        long opMin = store.minOffset(OpRecordDescriptor.OP_TOPIC, 0);
        long half = store.positionOf(HalfMessages.HALF_TOPIC, 0, metadata.getLong(HALF_OFFSET_KEY).orElse(halfMin));
        long op = store.positionOf(OpRecordDescriptor.OP_TOPIC, 0,
                metadata.getLong(CONFIRMED_OP_OFFSET_KEY).orElse(opMin));
        return Math.min(half, op);
    }

    /** Writes the offsets that changed; each covers records already stored, so a stale one means more reading. */
    void persistOffsets() {
        long half = window.floor();
        long confirmed = owedCommits.isEmpty() ? nextOpOffset : owedCommits.peekFirst()[0];
        if (half != persistedHalf) {
            metadata.putLong(HALF_OFFSET_KEY, half);
            persistedHalf = half;
        }
        if (confirmed != persistedConfirmed) {
            metadata.putLong(CONFIRMED_OP_OFFSET_KEY, confirmed);
            persistedConfirmed = confirmed;
        }
    }

    /** Logs at most one warning a minute, with the count of those left out: bad input must not flood the log. */
    private void warn(String format, Object... args) {
        long nowMs = clock.time();
        if (lastWarnMs != Long.MIN_VALUE && nowMs - lastWarnMs < WARN_INTERVAL_MS) {
            warningsSuppressed++;
            return;
        }
        lastWarnMs = nowMs;
        if (LOG.isWarnEnabled()) {
            LOG.warn(format + " ({} similar warnings left out in the last minute)",
                    withCount(args, warningsSuppressed));
        }
        warningsSuppressed = 0;
    }

    private static Object[] withCount(Object[] args, long count) {
        Object[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = count;
        return all;
    }

    // ------------------------------------------------------------------------------------------------ thread

    /**
     * Starts the transaction thread: recovery first, then the check pass every {@code transactionCheckInterval}
     * and the offsets every second.
     *
     * @throws IllegalStateException when already started
     */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("the transaction service is already started");
        }
        started = true;
        executor.execute(() -> guarded("transaction recovery", this::recover));
        executor.scheduleWithFixedDelay(() -> guarded("transaction check pass", this::checkPass),
                settings.checkIntervalMs(), settings.checkIntervalMs(), TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(() -> guarded("transaction offsets", this::persistOffsets),
                PERSIST_INTERVAL_MS, PERSIST_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    private void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            taskErrors.incrementAndGet();
            LOG.error("{} failed", what, e);
        }
    }

    /**
     * Lets queued END_TRANSACTIONs finish, persists the offsets on the transaction thread and stops it. Close
     * before the store and the metadata store. Idempotent.
     */
    @Override
    public void close() {
        if (executor.isShutdown()) {
            return;
        }
        if (started) {
            try {
                executor.execute(() -> guarded("transaction offsets", this::persistOffsets));
            } catch (RejectedExecutionException e) {
                LOG.debug("transaction service already stopping", e);
            }
        }
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        executor.shutdown();
        try {
            if (!executor.awaitTermination(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                LOG.error("the transaction thread did not stop within {} ms", STOP_TIMEOUT_MS);
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }

    // ------------------------------------------------------------------------------------------------ counters

    /** Prepared sends turned into half messages. */
    public long preparedCount() {
        return preparedSends.get();
    }

    /** Transactions committed (each stored once). */
    public long committedCount() {
        return committed.get();
    }

    /** Transactions rolled back. */
    public long rolledBackCount() {
        return rolledBack.get();
    }

    /** END_TRANSACTIONs for a transaction already resolved: nothing changed. */
    public long duplicateEndCount() {
        return duplicateEnds.get();
    }

    /** END_TRANSACTIONs naming no half message, or one of another producer group: nothing changed. */
    public long unknownEndCount() {
        return unknownEnds.get();
    }

    /** END_TRANSACTIONs not applied: malformed, too many waiting, or the broker stopping. */
    public long rejectedEndCount() {
        return rejectedEnds.get();
    }

    /** END_TRANSACTIONs with state unknown: the half message stays pending. */
    public long unknownStateEndCount() {
        return pendingAnswers.get();
    }

    /** CHECK_TRANSACTION_STATE requests sent. */
    public long checksSentCount() {
        return checksSent.get();
    }

    /** Checks due while no connection of the producer group was live (they count towards the maximum). */
    public long checksWithoutProducerCount() {
        return checksWithoutProducer.get();
    }

    /** Half messages moved to the check-max topic. */
    public long givenUpCount() {
        return givenUp.get();
    }

    /** Commits whose copy a crash prevented, stored on the next start. */
    public long repairedCommitCount() {
        return repairedCommits.get();
    }

    /** Half or op records that could not be decoded (skipped). */
    public long malformedRecordCount() {
        return malformedRecords.get();
    }

    /** Appends the store refused or failed (the step is retried by a later pass or check-back). */
    public long storeFailureCount() {
        return storeFailures.get();
    }
}
