package io.sluice.store.dispatch.pipeline;

import io.sluice.store.ArrivalListener;
import io.sluice.store.dispatch.DispatchTotals;
import io.sluice.store.dispatch.Dispatcher;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatch as a pipeline: a reader cuts the CommitLog into chunks on record boundaries, parse workers decode them in
 * parallel, an ordered ring restores CommitLog order, one writer appends the slots and wakes parked pulls
 * (docs/dispatch.md#the-pipeline).
 *
 * <pre>
 *   CommitLog (confirmed position)
 *      |  TOTALSIZE + MAGIC only
 *   [ChunkCutter] --chunk seq n--> work queue --> [ParseWorker] x N --offer(n)--> [OrderedRing] --in order-->
 *      ^   waits for ring room (at most ringSlots chunks exist)                               [CqWriter]
 *      +------------------------------- release(n), wakeUp ------------------------------------+  |
 *                                            slots, dispatched position, arrival listeners  <-----+
 * </pre>
 *
 * <p>Output equals the serial dispatcher's. Lifecycle: construct, {@link #start} once, {@link #drain} (waits until
 * everything confirmed at the call is written), {@link #close} once; other methods are thread-safe. Owns its threads
 * (each an {@link AgentHost}): {@code sluice-dispatch-reader}, {@code sluice-dispatch-parse-<i>}, {@code
 * sluice-dispatch-writer}; one thread at a time appends to the consume queues: the writer, or the holder of the
 * reader's turn for a small chunk the idle writer waits for ({@link ChunkRouter}, {@link #afterAppend()}).
 */
public final class PipelinedDispatcher implements Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(PipelinedDispatcher.class);
    private static final long JOIN_TIMEOUT_MS = 10_000;
    private static final long DRAIN_POLL_NS = 100_000;

    private enum State { NEW, RUNNING, CLOSED }

    private final CommitLog log;
    private final PipelineSettings settings;
    private final List<ArrivalListener> listeners;
    private final EpochClock clock;
    private final QueueResolver resolver;
    private final ChunkDecoder decoder;
    private final PipelineCounters counters = new PipelineCounters();
    private final PipelineControl control = new PipelineControl();
    /** Position after the last chunk written; release-stored by the writer. */
    private final AtomicLong dispatched = new AtomicLong();
    /** The reader's, the parse workers' and the writer's threads, in the order work flows. */
    private final List<AgentHost> threads = new ArrayList<>();
    private volatile State state = State.NEW;
    private volatile ChunkCutter cutter;
    private volatile CqWriter writer;
    private volatile OrderedRing<Chunk> ring;

    /**
     * @param log       the CommitLog to follow
     * @param queues    where slots are written
     * @param settings  pipeline shape
     * @param listeners told about arrivals on the writer thread (on the reader or an assisting appender for a
     *                  chunk it wrote); the list is read on every notification, so a concurrent list (e.g.
     *                  {@link java.util.concurrent.CopyOnWriteArrayList}) lets the owner add listeners later
     * @param clock     for {@link #lagMs()}
     */
    public PipelinedDispatcher(CommitLog log, ConsumeQueueTable queues, PipelineSettings settings,
                               List<ArrivalListener> listeners, EpochClock clock) {
        this(log, queues, settings, listeners, clock, null);
    }

    /** With a substitute decoder for the parse workers (tests inject failures); {@code null} for the real one. */
    PipelinedDispatcher(CommitLog log, ConsumeQueueTable queues, PipelineSettings settings,
                        List<ArrivalListener> listeners, EpochClock clock, ChunkDecoder decoder) {
        this.log = Objects.requireNonNull(log, "log");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(queues, "queues");
        this.resolver = queues::getOrCreate;
        this.decoder = decoder != null ? decoder : new RecordChunkDecoder(resolver, settings.checkCrc());
    }

    /**
     * Starts the pipeline's threads, dispatching from {@code fromPosition}, a record boundary (normally where
     * recovery ended).
     *
     * @throws IllegalArgumentException naming the value if {@code fromPosition < 0}
     * @throws IllegalStateException    if already started or closed
     */
    @Override
    public void start(long fromPosition) {
        if (fromPosition < 0) {
            throw new IllegalArgumentException("fromPosition must be >= 0, was " + fromPosition);
        }
        synchronized (this) {
            if (state != State.NEW) {
                throw new IllegalStateException("start() is called once; the dispatcher is " + state);
            }
            state = State.RUNNING;
        }
        dispatched.setRelease(fromPosition);
        control.caughtUpAt(clock.time());
        OrderedRing<Chunk> r = new OrderedRing<>(settings.ringSlots(), 0);
        Chunk[] pool = new Chunk[settings.ringSlots()];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new Chunk();
        }
        // Never full: the cutter reserves a ring slot before it queues a chunk, so at most ringSlots are queued.
        BlockingQueue<Chunk> work = new ArrayBlockingQueue<>(settings.ringSlots());
        // The writer's fallback decodes with the parser alone: the most conservative path. After each release it
        // wakes the reader through this.wakeUp(), which reads the cutter field assigned below, before any start.
        CqWriter w = new CqWriter(r, new RecordChunkDecoder(resolver, settings.checkCrc(), false), resolver,
                listeners, counters, control, this::wakeUp, dispatched);
        ChunkRouter router = new ChunkRouter(new ParseWorker(work, decoder, r, control), w,
                settings.inlineMaxBytes(), work, r, counters);
        ChunkCutter c = new ChunkCutter(log, settings, r, pool, router, control, counters,
                clock, fromPosition, 0);
        ring = r;
        cutter = c;
        writer = w;
        // In the order work flows: Thread.start waits for each thread to come alive, and meanwhile the reader already
        // cuts and the first workers already parse.
        // The reader backs off from spinning to a short park that appends and releases end (see ChunkCutter).
        threads.add(new AgentHost(c, c.idleStrategy()));
        for (int i = 0; i < settings.parseThreads(); i++) {
            ParseWorker worker = new ParseWorker(work, decoder, r, control);
            // No idle strategy: a worker's cycle itself waits on the work queue.
            threads.add(new AgentHost(new LoopAgent("sluice-dispatch-parse-" + i, worker::parseNext),
                    NoOpIdleStrategy.INSTANCE));
        }
        // No idle strategy: the writer's cycle itself waits on the ring's head.
        threads.add(new AgentHost(new LoopAgent("sluice-dispatch-writer", w::writeNext), NoOpIdleStrategy.INSTANCE));
        for (AgentHost t : threads) {
            t.start();
        }
        LOG.info("pipelined dispatch started at position {} ({} parse threads, {} ring slots, {} byte chunks)",
                fromPosition, settings.parseThreads(), settings.ringSlots(), settings.chunkBytes());
    }

    /**
     * Hints that the confirmed position may have moved, so an idle reader looks now rather than at its next
     * periodic check (within 1 ms). Cheap when the reader is busy: a fence and a volatile read.
     */
    @Override
    public void wakeUp() {
        ChunkCutter c = cutter;
        if (c != null) {
            c.wakeUp();
        }
    }

    /**
     * When the pipeline is idle and {@link PipelineSettings#appenderAssist} is on, cuts and dispatches the new
     * tail on the calling thread if it fits {@link PipelineSettings#inlineMaxBytes} and no other thread is cutting
     * ({@link ChunkCutter#assist()}); otherwise {@link #wakeUp()}. Never blocks.
     */
    @Override
    public void afterAppend() {
        ChunkCutter c = cutter;
        if (c == null) {
            return;
        }
        if (state == State.RUNNING) {
            c.assist();
        } else {
            c.wakeUp();
        }
    }

    /**
     * Position after the last chunk whose consume-queue slots are written (release/acquire: every slot of a record
     * below it is visible to a thread that read this value). Only moves forward; may pass the confirmed position
     * when the rest of a damaged segment is skipped.
     */
    @Override
    public long dispatchedPosition() {
        return dispatched.getAcquire();
    }

    /** Bytes between the log's confirmed position and {@link #dispatchedPosition()}; 0 when caught up. */
    @Override
    public long lagBytes() {
        return Math.max(0, log.confirmedPosition() - dispatched.getAcquire());
    }

    /**
     * How far behind dispatch is in time, while {@link #lagBytes()} is positive (0 when caught up): an upper bound
     * on how long the oldest undispatched record has waited, now minus the later of the last written record's
     * store time and the moment dispatch last had nothing left to do.
     */
    @Override
    public long lagMs() {
        if (lagBytes() == 0) {
            return 0;
        }
        CqWriter w = writer;
        long last = w == null ? 0 : w.lastStoreTimestampMs();
        return Math.max(0, clock.time() - Math.max(last, control.caughtUpAtMs()));
    }

    /**
     * Waits until every record confirmed when this method was called is dispatched.
     *
     * @return true when caught up, false if {@code timeoutMs} passed first or the dispatcher is not running
     */
    @Override
    public boolean drain(long timeoutMs) {
        long target = log.confirmedPosition();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (dispatched.getAcquire() < target) {
            if (state != State.RUNNING || System.nanoTime() - deadline > 0) {
                return dispatched.getAcquire() >= target;
            }
            wakeUp();
            LockSupport.parkNanos(DRAIN_POLL_NS);
        }
        return true;
    }

    /** Position, lag and counters now. */
    PipelineStats stats() {
        return counters.snapshot(dispatchedPosition(), lagBytes(), lagMs());
    }

    @Override
    public DispatchTotals totals() {
        PipelineStats s = stats();
        return new DispatchTotals(s.indexed(), s.corrupt(), s.unindexable(), s.inconsistent(),
                s.ioErrors() + s.listenerErrors() + s.unexpectedErrors());
    }

    /**
     * Stops every pipeline thread without draining (call {@link #drain} first for a clean stop): chunks in flight
     * are abandoned, a chunk being written may stop between two slots. Idempotent.
     */
    @Override
    public void close() {
        State previous;
        synchronized (this) {
            previous = state;
            state = State.CLOSED;
        }
        if (previous != State.RUNNING) {
            return;
        }
        control.halt();
        ring.wakeAll();
        wakeUp();
        for (AgentHost t : threads) {
            t.close(JOIN_TIMEOUT_MS); // logs a thread that does not stop
        }
        // An appender may still be writing a chunk it cut: the owner closes the queues after this returns.
        if (!cutter.awaitAssists(JOIN_TIMEOUT_MS)) {
            LOG.error("an appender was still indexing {} ms after the stop", JOIN_TIMEOUT_MS);
        }
        LOG.info("pipelined dispatch stopped at position {} ({})", dispatched.get(), stats());
    }

    // ---- for tests in this package

    /** Everything below this has been cut into chunks. */
    long cutPosition() {
        ChunkCutter c = cutter;
        return c == null ? dispatched.get() : c.cutPosition();
    }

    /** When the reader last found nothing left to do. */
    long caughtUpAtMs() {
        return control.caughtUpAtMs();
    }

    /** Whether the reader sleeps, having found nothing to do. */
    boolean readerParked() {
        ChunkCutter c = cutter;
        return c != null && c.isParked();
    }

    /** Chunks cut and not yet written. */
    long chunksInFlight() {
        ChunkCutter c = cutter;
        OrderedRing<Chunk> r = ring;
        return c == null || r == null ? 0 : c.cutCount() - r.head();
    }
}
