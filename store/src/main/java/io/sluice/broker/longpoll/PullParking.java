package io.sluice.broker.longpoll;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parked pull requests (docs/wire-protocol.md#long-polling). A pull that found nothing at offset {@code o} of a queue
 * is parked with a re-run action; it is released exactly once, by whichever comes first:
 * <ul>
 *   <li>{@link #onArrival} reports the queue's max offset beyond {@code o} (the store calls it after indexing new
 *       messages);</li>
 *   <li>its timeout, a task on the shared scheduler (a timer heap: no thread waits per request).</li>
 * </ul>
 * The re-run action then runs on {@code rerunExecutor} (or the executor given at parking: the pull connection's I/O
 * thread), never on the store's dispatch thread or the timer thread.
 * A message that arrives between the pull's read and its parking is not missed: {@link #park} re-reads the max
 * offset after the request is visible to {@link #onArrival}.
 *
 * <p>Thread-safe. Each queue's parked list is guarded by its own monitor, held briefly by the parking thread, the
 * arrival thread or the timer thread; re-run actions run outside it. Owned by the broker's composition root; the
 * scheduler and executor are the root's.
 */
public final class PullParking implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PullParking.class);

    private final ScheduledExecutorService timer;
    private final Executor rerunExecutor;
    private final ConcurrentHashMap<QueueKey, ParkedQueue> queues = new ConcurrentHashMap<>();
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong wokenByArrival = new AtomicLong();
    private final AtomicLong expired = new AtomicLong();
    private final AtomicLong waiting = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param timer         runs the timeouts
     * @param rerunExecutor runs the re-run actions
     */
    public PullParking(ScheduledExecutorService timer, Executor rerunExecutor) {
        this.timer = timer;
        this.rerunExecutor = rerunExecutor;
    }

    /**
     * Parks a pull of {@code topic}/{@code queueId} that found nothing at {@code offset}.
     *
     * @param timeoutMs     how long it may wait, positive
     * @param wakeOnArrival false for short polling: only the timeout releases it
     * @param maxOffset     reads the queue's current max offset (checked once more after parking)
     * @param rerun         executes the pull again and answers it; runs once, on the re-run executor
     */
    public void park(String topic, int queueId, long offset, long timeoutMs, boolean wakeOnArrival,
                     LongSupplier maxOffset, Runnable rerun) {
        park(topic, queueId, offset, timeoutMs, wakeOnArrival, maxOffset, rerunExecutor, rerun);
    }

    /**
     * {@link #park(String, int, long, long, boolean, LongSupplier, Runnable)} with the re-run on {@code rerunOn}
     * instead of the re-run executor: the I/O thread of the pull's connection, which then writes the response
     * itself (a pool thread would hand the write to that I/O thread: two wake-ups per woken pull instead of one).
     */
    public void park(String topic, int queueId, long offset, long timeoutMs, boolean wakeOnArrival,
                     LongSupplier maxOffset, Executor rerunOn, Runnable rerun) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeoutMs must be positive: " + timeoutMs);
        }
        Parked request = new Parked(offset, rerunOn, rerun);
        if (closed) {
            return;
        }
        parked.incrementAndGet();
        waiting.incrementAndGet();
        ParkedQueue queue = null;
        if (wakeOnArrival) {
            queue = queues.computeIfAbsent(new QueueKey(topic, queueId), key -> new ParkedQueue());
            synchronized (queue) {
                queue.requests.add(request);
            }
            request.queue = queue;
        }
        try {
            request.timeout = timer.schedule(() -> expire(request), timeoutMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            release(request);
            return;
        }
        if (wakeOnArrival && maxOffset.getAsLong() > offset) {
            wake(request);
        }
    }

    /**
     * Releases every request parked on the queue at an offset below {@code maxOffset} (the next offset to be
     * written). Cheap when nothing is parked there: one map lookup.
     */
    public void onArrival(String topic, int queueId, long maxOffset) {
        ParkedQueue queue = queues.get(new QueueKey(topic, queueId));
        if (queue == null) {
            return;
        }
        List<Parked> ready = null;
        synchronized (queue) {
            for (Iterator<Parked> it = queue.requests.iterator(); it.hasNext(); ) {
                Parked request = it.next();
                if (request.offset < maxOffset) {
                    it.remove();
                    if (ready == null) {
                        ready = new ArrayList<>();
                    }
                    ready.add(request);
                }
            }
        }
        if (ready != null) {
            ready.forEach(this::wake);
        }
    }

    /** Where re-runs go unless {@code park} names another executor. */
    public Executor rerunExecutor() {
        return rerunExecutor;
    }

    /** Pulls parked so far. */
    public long parkedCount() {
        return parked.get();
    }

    /** Pulls released by an arrival so far. */
    public long wokenByArrivalCount() {
        return wokenByArrival.get();
    }

    /** Pulls released by their timeout so far. */
    public long expiredCount() {
        return expired.get();
    }

    /** Pulls parked right now. */
    public long waitingCount() {
        return waiting.get();
    }

    /**
     * Drops every parked pull without answering it (their connections are being closed) and refuses new ones.
     */
    @Override
    public void close() {
        closed = true;
        for (ParkedQueue queue : queues.values()) {
            List<Parked> dropped;
            synchronized (queue) {
                dropped = new ArrayList<>(queue.requests);
                queue.requests.clear();
            }
            for (Parked request : dropped) {
                if (request.fired.compareAndSet(false, true)) {
                    waiting.decrementAndGet();
                    if (request.timeout != null) {
                        request.timeout.cancel(false);
                    }
                }
            }
        }
    }

    private void wake(Parked request) {
        if (request.fired.compareAndSet(false, true)) {
            wokenByArrival.incrementAndGet();
            ScheduledFuture<?> timeout = request.timeout;
            if (timeout != null) {
                timeout.cancel(false);
            }
            unlink(request);
            run(request);
        }
    }

    private void expire(Parked request) {
        if (request.fired.compareAndSet(false, true)) {
            expired.incrementAndGet();
            unlink(request);
            run(request);
        }
    }

    private void release(Parked request) {
        if (request.fired.compareAndSet(false, true)) {
            unlink(request);
            run(request);
        }
    }

    private static void unlink(Parked request) {
        ParkedQueue queue = request.queue;
        if (queue != null) {
            synchronized (queue) {
                queue.requests.remove(request);
            }
        }
    }

    private void run(Parked request) {
        waiting.decrementAndGet();
        if (closed) {
            return;
        }
        try {
            request.executor.execute(request.rerun);
        } catch (RejectedExecutionException e) {
            LOG.debug("parked pull dropped: executor is shut down");
        }
    }

    private record QueueKey(String topic, int queueId) {
    }

    /** The pulls parked on one queue; {@code requests} is guarded by this object's monitor. */
    private static final class ParkedQueue {
        final List<Parked> requests = new ArrayList<>(4);
    }

    /** One parked pull. {@code fired} makes its release happen once. */
    private static final class Parked {
        final long offset;
        final Executor executor;
        final Runnable rerun;
        final AtomicBoolean fired = new AtomicBoolean();
        volatile ParkedQueue queue;
        volatile ScheduledFuture<?> timeout;

        Parked(long offset, Executor executor, Runnable rerun) {
            this.offset = offset;
            this.executor = executor;
            this.rerun = rerun;
        }
    }
}
