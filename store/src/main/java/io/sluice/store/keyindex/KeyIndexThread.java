package io.sluice.store.keyindex;

import io.sluice.store.DispatchEntry;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.ReadResult;
import io.sluice.store.log.RecordCursor;
import io.sluice.store.log.ScanResult;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that owns the key-index files ({@code sluice-key-index}): it follows the dispatcher's position
 * through the CommitLog, reads each dispatched record's keys and adds them to the newest file, so dispatch itself
 * does no index work. Duty cycle: index up to {@link #RECORDS_PER_CYCLE} records; checkpoint the newest file every
 * {@code checkpointIntervalMs}; delete files retention has left without records every {@link #RETENTION_CHECK_MS};
 * idle ({@link #IDLE_PARK_MS}) when caught up; back off ({@link #FAILURE_PAUSE_MS}) after an I/O failure.
 *
 * <p>Contract: {@link #start} once; {@link #stop} once (any thread); the files are used by this thread only while
 * it runs (lookups excepted, see {@link KeyIndexFiles}).
 */
final class KeyIndexThread {

    static final int RECORDS_PER_CYCLE = 4_096;
    static final long IDLE_PARK_MS = 5;
    static final long RETENTION_CHECK_MS = 1_000;
    static final long FAILURE_PAUSE_MS = 1_000;
    private static final long STOP_TIMEOUT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(KeyIndexThread.class);

    private final KeyIndexFiles files;
    private final CommitLog log;
    private final LongSupplier dispatchedPosition;
    private final EpochClock clock;
    private final long checkpointIntervalMs;
    private final RecordCursor cursor;
    private final AtomicLong indexedPosition;
    private final KeyIndexCounters counters;
    private volatile boolean running;
    private Thread thread;
    private long lastCheckpointMs;
    private long lastRetentionMs;
    private boolean dirty;

    KeyIndexThread(KeyIndexFiles files, CommitLog log, LongSupplier dispatchedPosition, EpochClock clock,
                   long checkpointIntervalMs, KeyIndexCounters counters) {
        this.files = files;
        this.log = log;
        this.dispatchedPosition = dispatchedPosition;
        this.clock = clock;
        this.checkpointIntervalMs = checkpointIntervalMs;
        this.counters = counters;
        this.cursor = log.cursor(files.resumePosition());
        this.indexedPosition = new AtomicLong(files.resumePosition());
    }

    /** Position after the last record whose keys are indexed. Any thread. */
    long indexedPosition() {
        return indexedPosition.get();
    }

    synchronized void start() {
        if (thread != null) {
            throw new IllegalStateException("sluice-key-index is already started");
        }
        running = true;
        Thread t = new Thread(this::run, "sluice-key-index");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run() {
        while (running) {
            long pauseMs;
            try {
                pauseMs = doWork() > 0 ? 0 : IDLE_PARK_MS;
            } catch (IOException | RuntimeException | InternalError e) {
                // InternalError: a fault writing the mapped file (a full disk under a sparse file); retried later.
                long n = counters.onFailure();
                if ((n & (n - 1)) == 0) {
                    LOG.error("key indexing failed at position {} [{} failures so far]; retrying in {} ms",
                            cursor.position(), n, FAILURE_PAUSE_MS, e);
                }
                pauseMs = FAILURE_PAUSE_MS;
            }
            if (running && pauseMs > 0) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(pauseMs));
            }
        }
    }

    /** One duty cycle; returns the records indexed. Index thread only. */
    int doWork() throws IOException {
        long limit = dispatchedPosition.getAsLong();
        int records = 0;
        while (records < RECORDS_PER_CYCLE && cursor.position() < limit && step()) {
            records++;
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
        indexedPosition.set(cursor.position());
        dirty = true;
        return true;
    }

    private void index(DispatchEntry entry) throws IOException {
        ReadResult read = log.readRecord(entry.position(), entry.sizeBytes());
        if (!read.isFound()) {
            counters.onUnreadable();
            files.coverTo(entry.position() + entry.sizeBytes());
            return;
        }
        String properties = RecordKeys.properties(read.buffer());
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

    /** Stops the thread and waits for its cycle to end. Idempotent. */
    void stop() {
        Thread t;
        synchronized (this) {
            t = thread;
            running = false;
        }
        if (t == null) {
            return;
        }
        LockSupport.unpark(t);
        try {
            t.join(STOP_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.error("sluice-key-index did not stop within {} ms", STOP_TIMEOUT_MS);
        }
    }
}
