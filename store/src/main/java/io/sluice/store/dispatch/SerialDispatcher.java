package io.sluice.store.dispatch;

import io.sluice.store.ArrivalListener;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.RecordCursor;
import io.sluice.store.log.ScanResult;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import io.sluice.store.thread.WakeableIdleStrategy;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that walks the CommitLog record by record up to its confirmed position and writes each record's
 * consume-queue slot (Apache's serial ReputMessageService, woken by appends instead of polling); recovery uses it to
 * re-dispatch (docs/dispatch.md#the-serial-dispatcher).
 *
 * <p>A pass handles up to {@code maxRecordsPerPass} records, then tells the arrival listeners which queues grew and
 * publishes {@link #dispatchedPosition()}. Damage never stops dispatch: a place without a valid record skips the rest
 * of its segment, a record that cannot be indexed is skipped ({@link QueueIndexer}), both counted and logged
 * (docs/dispatch.md#dispatch-rules).
 *
 * <p>Waiting: with nothing to do it backs off (spins, yields, then parks up to {@code maxParkMicros}); {@link
 * #wakeUp()} unparks it, and {@link WakeableIdleStrategy}'s Dekker pattern means a wake-up is never lost. The thread
 * ({@code sluice-dispatch}) is an {@link AgentHost}.
 *
 * <p>It stays beside the pipeline as recovery's re-dispatcher ({@link #redispatch}: on the opening thread, failing
 * with an exception the open reports) and as the oracle the pipeline's property test compares against.
 *
 * <p>Thread-safety: {@link #redispatch} before {@link #start}, on the caller's thread; after start the dispatch thread
 * owns the cursor and is the only writer of consume queues. Other methods are thread-safe.
 */
public final class SerialDispatcher implements Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(SerialDispatcher.class);
    private static final int SPINS = 20;
    private static final int YIELDS = 5;
    private static final long MIN_PARK_NS = 1_000;
    private static final long JOIN_TIMEOUT_MS = 10_000;
    private static final long DRAIN_POLL_NS = 100_000;

    private enum State { NEW, RUNNING, CLOSED }

    private final CommitLog log;
    private final DispatchSettings settings;
    private final List<ArrivalListener> listeners;
    private final EpochClock clock;
    private final DispatchCounters counters = new DispatchCounters();
    private final QueueIndexer indexer;
    private final long segmentBytes;
    /** Position after the last dispatched record: written by the dispatching thread with release. */
    private final AtomicLong dispatched = new AtomicLong();
    /** Store time of the last record dispatched, published once per pass. */
    private volatile long lastStoreTimestampMs;
    /** When a pass last found nothing left to dispatch: pending records arrived after it. */
    private volatile long caughtUpAtMs;
    /** The dispatch thread's idle strategy, which the wakers consult; see the class comment. */
    private volatile WakeableIdleStrategy idle;
    private volatile State state = State.NEW;
    /** The dispatch thread, once started. */
    private volatile AgentHost thread;
    /** Set when a pass stopped at a record that must be retried (consume queue file creation failed). */
    private boolean retryPending;

    /**
     * @param log       the CommitLog to follow
     * @param queues    where slots are written
     * @param settings  dispatch settings
     * @param listeners told about arrivals; the list is read on every notification, so a concurrent list (e.g.
     *                  {@link java.util.concurrent.CopyOnWriteArrayList}) lets the owner add listeners later
     * @param clock     for {@link #lagMs()}
     */
    public SerialDispatcher(CommitLog log, ConsumeQueueTable queues, DispatchSettings settings,
                            List<ArrivalListener> listeners, EpochClock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.indexer = new QueueIndexer(Objects.requireNonNull(queues, "queues"), counters);
        this.segmentBytes = log.settings().segmentBytes();
        this.caughtUpAtMs = clock.time();
    }

    /**
     * Recovery: dispatches every record from {@code fromPosition} (a record boundary) up to the log's confirmed
     * position on the calling thread, with the same rules as the dispatch thread (slots that exist are skipped).
     * Call before {@link #start}, after the log is recovered.
     *
     * @return the position reached (the confirmed position unless damage was skipped past it)
     * @throws IOException           if a consume-queue file cannot be created
     * @throws IllegalStateException if the dispatcher was started or closed
     */
    public long redispatch(long fromPosition) throws IOException {
        if (state != State.NEW) {
            throw new IllegalStateException("redispatch() runs before start(); the dispatcher is " + state);
        }
        RecordCursor cursor = log.cursor(fromPosition);
        dispatched.setRelease(fromPosition);
        while (pass(cursor) > 0 && !retryPending) {
            // Each pass handles at most maxRecordsPerPass records; go on until nothing is left.
        }
        if (retryPending) {
            throw new IOException("cannot create a consume queue file for the record at position "
                    + cursor.position() + "; see the log");
        }
        return cursor.position();
    }

    @Override
    public void start(long fromPosition) {
        synchronized (this) {
            if (state != State.NEW) {
                throw new IllegalStateException("start() is called once; the dispatcher is " + state);
            }
            state = State.RUNNING;
        }
        RecordCursor cursor = log.cursor(fromPosition);
        dispatched.setRelease(fromPosition);
        caughtUpAtMs = clock.time();
        // Backs off from spins to parks of at most maxParkMicros; appends and flushes wake it (wakeUp).
        WakeableIdleStrategy i = new WakeableIdleStrategy(new BackoffIdleStrategy(SPINS, YIELDS, MIN_PARK_NS,
                TimeUnit.MICROSECONDS.toNanos(settings.maxParkMicros())),
                () -> !retryPending && log.confirmedPosition() > cursor.position());
        AgentHost h = new AgentHost(new LoopAgent("sluice-dispatch", () -> cycle(cursor)), i);
        thread = h;
        idle = i; // after the thread: a waker that sees the strategy finds the thread
        h.start();
        LOG.info("dispatch started at position {}", fromPosition);
    }

    /** The dispatch thread's duty cycle: one pass; 0 (idle) when it found nothing or must retry later. */
    private int cycle(RecordCursor cursor) {
        int work;
        try {
            work = pass(cursor);
        } catch (RuntimeException e) {
            // Counted with dispatch's own counters (exported with the store's statistics), then the loop goes on.
            long n = counters.onUnexpectedError();
            if (DispatchCounters.shouldLog(n)) {
                LOG.error("dispatch pass failed at position {}; going on [{} failures so far]",
                        cursor.position(), n, e);
            }
            work = 0;
        }
        return retryPending ? 0 : work;
    }

    /** One pass: up to maxRecordsPerPass steps; publishes the position and notifies listeners. */
    private int pass(RecordCursor cursor) {
        retryPending = false;
        int steps = 0;
        long storeTimestampMs = 0;
        loop:
        while (steps < settings.maxRecordsPerPass()) {
            long confirmed = log.confirmedPosition();
            ScanResult r = cursor.next();
            switch (r.status()) {
                case VALID -> {
                    if (indexer.index(r.entry()) == QueueIndexer.Outcome.RETRY) {
                        cursor.seek(r.position());
                        retryPending = true;
                        break loop;
                    }
                    storeTimestampMs = r.entry().storeTimestampMs();
                }
                case END_OF_SEGMENT -> {
                    // The cursor moved to the next segment's start.
                }
                case NO_MORE_DATA -> {
                    if (r.position() >= confirmed) {
                        caughtUpAtMs = clock.time();
                        break loop;
                    }
                    // Zeros below the confirmed position, which is always a record boundary: a hole.
                    skipDamage(cursor, r.position(), "no record (zeros) below the confirmed position " + confirmed);
                }
                case CORRUPT -> skipDamage(cursor, r.position(), r.reason());
                case POSITION_DELETED -> {
                    long min = log.minPosition();
                    LOG.warn("dispatch fell behind retention: position {} is deleted, continuing at {}",
                            r.position(), min);
                    cursor.seek(Math.max(min, r.position()));
                    if (min <= r.position()) {
                        break loop;
                    }
                }
                default -> throw new IllegalStateException("unhandled scan status " + r.status());
            }
            steps++;
        }
        if (steps > 0) {
            // Listeners first, so that a drained dispatcher has also told them everything.
            indexer.notifyArrivals(listeners);
            if (storeTimestampMs != 0) {
                lastStoreTimestampMs = storeTimestampMs;
            }
            dispatched.setRelease(cursor.position());
        }
        return steps;
    }

    private void skipDamage(RecordCursor cursor, long position, String reason) {
        long next = position - position % segmentBytes + segmentBytes;
        long n = counters.onCorrupt();
        LOG.error("dispatch found no valid record at position {} ({}); skipping to the next segment at {}"
                + " [{} damaged places so far]", position, reason, next, n);
        cursor.seek(next);
    }

    @Override
    public void wakeUp() {
        WakeableIdleStrategy i = idle;
        if (i != null && i.needsWakeUp()) {
            thread.wakeUp();
        }
    }

    @Override
    public long dispatchedPosition() {
        return dispatched.getAcquire();
    }

    @Override
    public long lagBytes() {
        return Math.max(0, log.confirmedPosition() - dispatched.getAcquire());
    }

    @Override
    public long lagMs() {
        if (lagBytes() == 0) {
            return 0;
        }
        // The oldest pending record was stored after the last dispatched one and after dispatch last caught up.
        return Math.max(0, clock.time() - Math.max(lastStoreTimestampMs, caughtUpAtMs));
    }

    @Override
    public boolean drain(long timeoutMs) {
        long target = log.confirmedPosition();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (dispatched.getAcquire() < target) {
            Thread t = thread == null ? null : thread.thread();
            if (state != State.RUNNING || t == null || !t.isAlive() || System.nanoTime() - deadline > 0) {
                return dispatched.getAcquire() >= target;
            }
            wakeUp();
            LockSupport.parkNanos(DRAIN_POLL_NS);
        }
        return true;
    }

    /** What dispatch did so far. */
    DispatchCounters counters() {
        return counters;
    }

    @Override
    public DispatchTotals totals() {
        return new DispatchTotals(counters.indexed(), counters.corrupt(), counters.unindexable(),
                counters.inconsistent(), counters.ioErrors() + counters.listenerErrors() + counters.unexpectedErrors());
    }

    @Override
    public void close() {
        State previous;
        synchronized (this) {
            previous = state;
            state = State.CLOSED;
        }
        AgentHost h = thread;
        if (previous != State.RUNNING || h == null) {
            return;
        }
        if (h.close(JOIN_TIMEOUT_MS)) { // logs a thread that does not stop
            LOG.info("dispatch stopped at position {} ({})", dispatched.get(), counters);
        }
    }
}
