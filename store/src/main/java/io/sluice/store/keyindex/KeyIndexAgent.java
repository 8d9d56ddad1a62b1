package io.sluice.store.keyindex;

import io.sluice.store.DispatchEntry;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.RecordCursor;
import io.sluice.store.log.ScanResult;
import io.sluice.store.thread.WakeableIdleStrategy;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop that owns the key-index files ({@code sluice-key-index}, run by an {@code AgentHost}): it follows the
 * dispatcher's position through the CommitLog, reads each dispatched record's keys and adds them to the newest
 * file, so dispatch itself does no index work. Duty cycle: index up to {@link #RECORDS_PER_CYCLE} records;
 * checkpoint the newest file every {@code checkpointIntervalMs}; delete files retention has left without records
 * every {@link #RETENTION_CHECK_MS}; after an I/O failure, count it and index nothing for
 * {@link #FAILURE_PAUSE_MS}. Idle: {@link #idleStrategy()}: a batch park that arrivals do not end, then a long park
 * that {@link #onDispatched()} ends.
 *
 * <p>Thread-safety: the duty cycle and the files on the agent's thread only (lookups excepted, see
 * {@link KeyIndexFiles}); {@link #onDispatched()} and {@link #indexedPosition()} from any thread.
 */
final class KeyIndexAgent implements Agent {

    static final String ROLE_NAME = "sluice-key-index";
    static final int RECORDS_PER_CYCLE = 4_096;
    /**
     * The cursor's copy of the log is refilled this much at a time: the thread reads each record's properties, and
     * reading the file costs less than touching each page of the mapping (docs/storage.md#reading).
     */
    static final int WINDOW_BYTES = 1 << 20;
    static final long RETENTION_CHECK_MS = 1_000;
    static final long FAILURE_PAUSE_MS = 1_000;
    /**
     * The long park once a batch park found nothing: bounds the lag of records that wake nobody (no queue) and paces
     * checkpoints and retention.
     */
    static final long MAX_PARK_MS = 100;
    /**
     * The broker's batch park: after indexing, or after an arrival woke it, the thread parks this long and arrivals
     * do not wake it, so steady traffic is indexed every 10 ms in one pass instead of a wake-up per dispatched
     * record (keys are queryable at most this much later). A wake-up per arrival, and the spins and yields that
     * awaited dispatch's position, took 7.5% of the broker's CPU at stock OMB W1 (benchmark/README.md).
     */
    static final long BATCH_PARK_MS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(KeyIndexAgent.class);

    private final KeyIndexFiles files;
    private final CommitLog log;
    private final LongSupplier dispatchedPosition;
    private final EpochClock clock;
    private final long checkpointIntervalMs;
    private final RecordCursor cursor;
    private final AtomicLong indexedPosition;
    private final KeyIndexCounters counters;
    private final WakeableIdleStrategy idle;
    private final long batchParkNs;
    /** Whether the next idle cycle is a batch park rather than the long, wakeable one. Agent thread only. */
    private boolean batchParkNext;
    /** Set by dispatch when it tells of arrivals, cleared by the agent's thread when it starts a cycle. */
    private volatile boolean dispatchedMore;
    private long lastCheckpointMs;
    private long lastRetentionMs;
    /** Clock time (ms) before which nothing is indexed, after a failure; agent thread only. */
    private long pausedUntilMs;
    private boolean dirty;

    /**
     * The broker's agent: batch parks of {@link #BATCH_PARK_MS}, then parks of {@link #MAX_PARK_MS} at once, without
     * a ramp of short parks, since a ramp of timed parks between arrivals costs a context switch each (a fifth of the
     * broker's CPU at a moderate steady rate).
     */
    KeyIndexAgent(KeyIndexFiles files, CommitLog log, LongSupplier dispatchedPosition, EpochClock clock,
                  long checkpointIntervalMs, KeyIndexCounters counters) {
        this(files, log, dispatchedPosition, clock, checkpointIntervalMs, counters, caughtUpBackoff(),
                TimeUnit.MILLISECONDS.toNanos(BATCH_PARK_MS));
    }

    /** The long park of the broker's agent: {@link #MAX_PARK_MS}, ended by an arrival. */
    static IdleStrategy caughtUpBackoff() {
        return new SleepingIdleStrategy(TimeUnit.MILLISECONDS.toNanos(MAX_PARK_MS));
    }

    /**
     * @param backoff     the long park when caught up (it must end at an unpark); reset by each arrival
     * @param batchParkNs the batch park before it, which arrivals do not end; 0: none, every arrival wakes the thread
     */
    KeyIndexAgent(KeyIndexFiles files, CommitLog log, LongSupplier dispatchedPosition, EpochClock clock,
                  long checkpointIntervalMs, KeyIndexCounters counters, IdleStrategy backoff, long batchParkNs) {
        if (batchParkNs < 0) {
            throw new IllegalArgumentException("batchParkNs must be >= 0, was " + batchParkNs);
        }
        this.batchParkNs = batchParkNs;
        this.files = files;
        this.log = log;
        this.dispatchedPosition = dispatchedPosition;
        this.clock = clock;
        this.checkpointIntervalMs = checkpointIntervalMs;
        this.counters = counters;
        this.cursor = log.copyingCursor(files.resumePosition(), WINDOW_BYTES);
        this.indexedPosition = new AtomicLong(files.resumePosition());
        this.idle = new WakeableIdleStrategy(backoff, this::hasWork);
    }

    @Override
    public String roleName() {
        return ROLE_NAME;
    }

    /**
     * Caught up with dispatch: first a batch park that arrivals do not end, then (still nothing) the long park that
     * they end ({@link #onDispatched()}). An arrival that ends a long park is followed by a batch park again,
     * because dispatch tells of arrivals just before it publishes its new position. For the agent's runner only.
     */
    IdleStrategy idleStrategy() {
        return new BatchingIdle();
    }

    /** Makes the next idle a batch park, and the long park after it start afresh. Agent thread only. */
    private void batchParkNextIdle() {
        batchParkNext = true;
        idle.reset();
    }

    /** See {@link #idleStrategy()}. Agent thread only. */
    private final class BatchingIdle implements IdleStrategy {

        @Override
        public void idle(int workCount) {
            if (workCount > 0) {
                batchParkNextIdle();
            } else {
                idle();
            }
        }

        @Override
        public void idle() {
            if (batchParkNext && batchParkNs > 0) {
                batchParkNext = false;
                // Not announced to the waker: what arrives meanwhile is indexed when it ends.
                LockSupport.parkNanos(this, batchParkNs);
            } else {
                idle.idle();
            }
        }

        @Override
        public void reset() {
            idle.reset();
        }

        @Override
        public String alias() {
            return "key-index-batching";
        }
    }

    /**
     * Dispatch has written records (called from its arrival listener): the caller unparks the agent's thread
     * when this returns true, which is only while it is in its long park. Any thread; cheap.
     */
    boolean onDispatched() {
        dispatchedMore = true;
        return idle.needsWakeUp();
    }

    /** The idle strategy's re-check before it backs off. Agent thread only. */
    private boolean hasWork() {
        return dispatchedMore
                || (clock.time() >= pausedUntilMs && cursor.position() < dispatchedPosition.getAsLong());
    }

    /** Position after the last record whose keys are indexed. Any thread. */
    long indexedPosition() {
        return indexedPosition.get();
    }

    /** The duty cycle; an I/O failure is counted, logged (at powers of two) and retried after the pause. */
    @Override
    public int doWork() {
        if (dispatchedMore) {
            dispatchedMore = false;
            batchParkNextIdle(); // the new position follows the arrival closely: look again after a batch park
        }
        if (clock.time() < pausedUntilMs) {
            return 0;
        }
        try {
            return indexAndMaintain();
        } catch (IOException | RuntimeException | InternalError e) {
            // InternalError: a fault writing the mapped file (a full disk under a sparse file); retried later.
            long n = counters.onFailure();
            if ((n & (n - 1)) == 0) {
                LOG.error("key indexing failed at position {} [{} failures so far]; retrying in {} ms",
                        cursor.position(), n, FAILURE_PAUSE_MS, e);
            }
            pausedUntilMs = clock.time() + FAILURE_PAUSE_MS;
            return 0;
        }
    }

    /** Indexes what dispatch has passed, checkpoints and deletes when due; returns the records indexed. */
    int indexAndMaintain() throws IOException {
        long limit = dispatchedPosition.getAsLong();
        int records = 0;
        while (records < RECORDS_PER_CYCLE && cursor.position() < limit && step()) {
            records++;
        }
        if (cursor.position() != indexedPosition.get()) {
            // The position is published once the entries of the records below it are in the file (also after a
            // cycle that failed part-way, when nothing new has arrived since).
            files.flush();
            indexedPosition.set(cursor.position());
        }
        long now = clock.time();
        if (dirty && now - lastCheckpointMs >= checkpointIntervalMs) {
            files.checkpoint();
            dirty = false;
            lastCheckpointMs = now;
        }
        if (now - lastRetentionMs >= RETENTION_CHECK_MS) {
            counters.onFilesDeleted(files.deleteCoveredBelow(log.minPosition()));
            lastRetentionMs = now;
        }
        return records;
    }

    /** Indexes the record at the cursor, or moves past what is not a record; false when there is nothing more. */
    private boolean step() throws IOException {
        long at = cursor.position();
        ScanResult r = cursor.next();
        switch (r.status()) {
            case VALID -> index(r.entry());
            case END_OF_SEGMENT -> files.coverTo(cursor.position());
            case POSITION_DELETED -> cursor.seek(Math.max(at, log.minPosition()));
            case CORRUPT, NO_MORE_DATA -> {
                // Dispatch has moved past it (below its position), so it skipped damage: skip to the next segment.
                long segmentBytes = log.settings().segmentBytes();
                cursor.seek(at - at % segmentBytes + segmentBytes);
                counters.onSkippedDamage();
            }
            default -> throw new IllegalStateException("unexpected scan status " + r.status());
        }
        if (cursor.position() == at) {
            return false;
        }
        dirty = true;
        return true;
    }

    private void index(DispatchEntry entry) throws IOException {
        String properties = RecordKeys.properties(cursor.record());
        int[] keys = new int[1];
        RecordKeys.forEachKey(properties, KeyIndexDescriptor.MAX_KEYS_PER_RECORD, (kind, key) -> keys[0]++);
        if (keys[0] > 0) {
            KeyIndexFile file = files.writable(keys[0], entry.position());
            int skipped = RecordKeys.forEachKey(properties, KeyIndexDescriptor.MAX_KEYS_PER_RECORD, (kind, key) ->
                    file.add(KeyHash.of(entry.topic(), kind, key), entry.position(), entry.storeTimestampMs()));
            counters.onIndexed(keys[0], skipped);
        }
        files.coverTo(entry.position() + entry.sizeBytes());
    }
}
