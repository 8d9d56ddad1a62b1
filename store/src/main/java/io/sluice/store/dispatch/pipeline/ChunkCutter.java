package io.sluice.store.dispatch.pipeline;

import io.sluice.store.log.CommitLog;
import io.sluice.store.log.ReadStatus;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's reader: follows the CommitLog's confirmed position and cuts what is new into chunks that begin and
 * end on record boundaries (docs/dispatch.md#chunk-cutter).
 *
 * <p>A chunk ends ({@link ChunkEnds}) at the last boundary the appender noted ({@link CommitLog#knownRecordBoundary})
 * within {@code chunkBytes} and {@code maxRecordsPerChunk}, and then the reader reads none of it; else the reader walks
 * TOTALSIZE and MAGICCODE and ends the chunk at the first boundary past {@code chunkBytes}, after
 * {@code maxRecordsPerChunk} records, after a segment's blank record, or at the confirmed position (at once only while
 * the pipeline is idle, so chunk size follows the load). A broken chain, or damage a worker found, makes the rest
 * of the segment a {@link Chunk.Kind#SKIP} chunk ({@link PipelineControl#skipUntil(long)}): the serial rule.
 *
 * <p>Bounded memory: before cutting chunk {@code seq} the reader waits for ring room ({@link OrderedRing#awaitWindow})
 * and takes pool slot {@code seq % ringSlots}, so workers never block and at most {@code ringSlots} chunks exist.
 * While the pipeline is idle an appender may cut and dispatch a small tail itself ({@link #assist()}) instead of
 * waking the reader, without ever waiting.
 *
 * <p>Thread-safety: the cut position, sequence numbers and idle state belong to whoever holds the reader's turn
 * ({@link #turn}): the reader thread in {@link #doWork()}, or an appender in {@link #assist()}, which only tries for it
 * (tests: {@link #cutOnce()}). {@link #wakeUp()}, {@link #cutPosition()} and {@link #cutCount()} are for any thread.
 */
final class ChunkCutter implements Agent {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkCutter.class);
    /** Upper bound of one wait, so that a stop request is noticed even without a signal. */
    static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Longest sleep while the log has nothing new; {@link #wakeUp()} ends it early. */
    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int SPIN_ROUNDS = 20;
    private static final int YIELD_ROUNDS = 5;

    /** Takes each chunk of records the reader cut (to decode it and put it into the ring). Reader thread. */
    @FunctionalInterface
    interface Sink {
        void accept(Chunk chunk) throws InterruptedException;
    }

    /** What {@link #cutOnce()} found when it cut nothing. */
    enum Idle { NONE, NO_DATA, BUSY }

    private final CommitLog log;
    private final int segmentBytes;
    private final int chunkBytes;
    /** Where each chunk ends (hint or walk). Guarded by {@link #turn}. */
    private final ChunkEnds ends;
    /** {@link #readCurrent}, and the chunk and log position it reads for. Guarded by {@link #turn}. */
    private final ChunkEnds.Reader readCurrent = this::readCurrent;
    private Chunk readingChunk;
    private long readingPos;
    /** Cut a partial tail at once only while fewer chunks than this are in flight. */
    private final int eagerLimit;
    private final OrderedRing<Chunk> ring;
    private final Chunk[] pool;
    private final Sink toWorkers;
    private final PipelineControl control;
    private final PipelineCounters counters;
    private final EpochClock clock;
    /** Largest tail an appender dispatches itself; 0 when appenders only wake the reader. */
    private final int assistMaxBytes;
    /**
     * The reader's turn: held by the reader thread around each round of {@link #doWork()}, and by an appender that
     * got it with a try in {@link #assist()}. Guards the fields below.
     */
    private final ReentrantLock turn = new ReentrantLock();

    // Guarded by turn.
    private long position;
    private long nextSeq;
    private Idle lastIdle = Idle.NONE;
    /** Copy of {@link #lastIdle} for the reader's idle strategy, which runs without the turn. Reader thread. */
    private Idle idleKind = Idle.NONE;

    /** The cut position, published for other threads (stats, the idle check, assists). */
    private volatile long cutPosition;
    /** Sequence number of the next chunk, published for the writer's end-of-drain check. */
    private volatile long cutCount;
    private volatile boolean finished;
    private volatile boolean parked;
    private volatile Thread thread;

    ChunkCutter(CommitLog log, PipelineSettings settings, OrderedRing<Chunk> ring, Chunk[] pool,
                Sink toWorkers, PipelineControl control, PipelineCounters counters, EpochClock clock,
                long fromPosition, long firstSeq) {
        this.log = log;
        this.segmentBytes = log.settings().segmentBytes();
        this.chunkBytes = settings.chunkBytes();
        this.ends = new ChunkEnds(log::knownRecordBoundary, chunkBytes, settings.maxRecordsPerChunk());
        this.eagerLimit = settings.parseThreads();
        this.ring = ring;
        this.pool = pool;
        this.toWorkers = toWorkers;
        this.control = control;
        this.counters = counters;
        this.clock = clock;
        this.assistMaxBytes = settings.appenderAssist() ? settings.inlineMaxBytes() : 0;
        this.position = fromPosition;
        this.cutPosition = fromPosition;
        this.nextSeq = firstSeq;
        this.cutCount = firstSeq;
    }

    @Override
    public String roleName() {
        return "sluice-dispatch-reader";
    }

    @Override
    public void onStart() {
        thread = Thread.currentThread();
    }

    /**
     * The reader thread's duty cycle: one round of {@link #cutOnce()} with the turn held.
     *
     * @return 1 if a chunk was cut, else 0 (the reader idles, see {@link #idleStrategy()})
     */
    @Override
    public int doWork() throws InterruptedException {
        if (control.isHalted()) {
            return 0;
        }
        turn.lockInterruptibly();
        try {
            int work = doWorkReporting();
            idleKind = lastIdle;
            return work;
        } finally {
            turn.unlock();
        }
    }

    @Override
    public void onClose() {
        finished = true;
        ring.wakeAll();
    }

    /** Turn held: {@link #cutOnce()}, with a bug (not bad data) reported and counted rather than thrown. */
    private int doWorkReporting() throws InterruptedException {
        try {
            return cutOnce();
        } catch (RuntimeException e) {
            // Bad data becomes a skip, so this is a bug: report it; the reader looks again after a pause.
            long n = counters.unexpectedErrors.incrementAndGet();
            if (PipelineCounters.shouldLog(n)) {
                LOG.error("dispatch reader failed at position {} on {}; going on [{} failures so far]", position,
                        Thread.currentThread().getName(), n, e);
            }
            lastIdle = Idle.BUSY;
            return 0;
        }
    }

    /**
     * Called by a thread that has just appended records (not by the reader): when no chunk is in flight and the
     * reader's turn is free, cuts one chunk of the new tail, at most {@code inlineMaxBytes}, and dispatches it on
     * this thread; then wakes the reader only if something is left. Otherwise just wakes the reader.
     *
     * <p>Never waits for another thread: the turn is only tried; with no chunk in flight the ring has room and the
     * chunk is the one the writer waits for, so the router handles it inline; and an inline write that cannot
     * create a consume-queue file leaves the rest to the writer thread. The caller does pay the chunk's decode,
     * its slot writes (a new consume-queue file among them, now and then) and the arrival listeners.
     */
    void assist() {
        if (assistMaxBytes > 0 && inFlight() == 0 && turn.tryLock()) {
            try {
                if (!control.isHalted() && assistable() && doWorkReporting() > 0) {
                    counters.assistedChunks.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // cannot wait here (see above); keep the flag for the caller
            } finally {
                turn.unlock();
            }
            if (cutPosition >= log.confirmedPosition()) {
                return; // all taken; an append that raced the unlock woke the reader itself
            }
        }
        wakeUp();
    }

    /**
     * Once halted: waits until no assist is in progress. A later assist takes the turn, sees the halt and cuts
     * nothing, so after this returns true no appender touches the ring or the consume queues.
     *
     * @return false if the turn stayed taken for {@code timeoutMs}; an interrupt does not end the wait early (the
     *         flag is set again on return)
     */
    boolean awaitAssists(long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (turn.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        turn.unlock();
                        return true;
                    }
                    return false;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether the reader thread is in its idle sleep (for tests that want the appender to find it asleep). */
    boolean isParked() {
        return parked;
    }

    /** The reader's turn, for tests that hold it. */
    ReentrantLock turn() {
        return turn;
    }

    /** Turn held: whether an assist may cut now: idle pipeline, plain records, a tail that fits inline. */
    private boolean assistable() {
        if (inFlight() != 0 || position < control.skipUntil() || position < log.minPosition()) {
            return false;
        }
        long confirmed = log.confirmedPosition();
        return position < confirmed && confirmed - position <= assistMaxBytes;
    }

    /**
     * Cuts at most one chunk. Turn held, or a test's only thread.
     *
     * @return 1 if a chunk was cut, 0 if there was nothing to cut (see {@link #lastIdle()})
     * @throws InterruptedException if interrupted while waiting for room in the ring
     */
    int cutOnce() throws InterruptedException {
        long pos = position;
        long skipUntil = control.skipUntil();
        if (pos < skipUntil) {
            return emitSkip(pos, skipUntil, "rest of a damaged segment", false) ? 1 : 0;
        }
        long min = log.minPosition();
        if (pos < min) {
            LOG.warn("dispatch fell behind retention: [{}, {}) was deleted before it was dispatched", pos, min);
            return emitSkip(pos, min, "deleted by retention before it was dispatched", false) ? 1 : 0;
        }
        long confirmed = log.confirmedPosition();
        if (pos >= confirmed) {
            if (inFlight() == 0) {
                control.caughtUpAt(clock.time());
            }
            lastIdle = Idle.NO_DATA;
            return 0;
        }
        long segmentEnd = pos - pos % segmentBytes + segmentBytes;
        long limit = Math.min(confirmed, segmentEnd);
        int available = (int) (limit - pos);
        if (available < chunkBytes && limit < segmentEnd && inFlight() >= eagerLimit) {
            lastIdle = Idle.BUSY; // let the tail grow while the workers are busy
            return 0;
        }
        long seq = nextSeq;
        if (!awaitRoom(seq)) {
            return 0;
        }
        Chunk chunk = pool[(int) (seq % pool.length)];
        readingChunk = chunk;
        readingPos = pos;
        long end = ends.end(pos, limit, segmentEnd, readCurrent);
        if (end < 0) {
            lastIdle = Idle.NO_DATA;
            return 0;
        }
        if (ends.wasHinted()) {
            counters.hintedChunks.incrementAndGet();
        }
        if (end > pos) {
            return emitRecords(seq, chunk, pos, end, segmentEnd, ends.bytes()) ? 1 : 0;
        }
        return emitSkip(pos, segmentEnd, ends.broken(), true) ? 1 : 0;
    }

    /** {@link #read} of the chunk being cut; bound once, so that no chunk allocates a reader. */
    private ByteBuffer readCurrent(int length) {
        return read(readingChunk, readingPos, length);
    }

    /**
     * Copies {@code length} bytes of the log at {@code pos} into {@code chunk}'s buffer, by a positional read of the
     * file: the workers and the writer decode the copy, and nobody in dispatch touches the mapping, whose first touch
     * of each page costs more than the copy (docs/dispatch.md#chunk-cutter).
     *
     * @return the bytes, position 0, limit {@code length}; null when the log no longer holds them (retention raced
     *         us: the next round skips to the new minimum)
     */
    private ByteBuffer read(Chunk chunk, long pos, int length) {
        ByteBuffer bytes = chunk.bytes(length);
        ReadStatus status = log.read(pos, bytes);
        if (status != ReadStatus.FOUND) {
            if (status != ReadStatus.POSITION_DELETED) {
                LOG.error("dispatch cannot read [{}, {}): {}", pos, pos + length, status);
            }
            return null;
        }
        return bytes.flip();
    }

    /** Emits chunk {@code seq}, whose room {@link #awaitRoom} found. */
    private boolean emitRecords(long seq, Chunk chunk, long start, long end, long segmentEnd, ByteBuffer view)
            throws InterruptedException {
        chunk.describeRecords(seq, start, end, segmentEnd, view, start);
        advance(seq, end);
        toWorkers.accept(chunk);
        return true;
    }

    /**
     * Emits a chunk that only moves the dispatched position to {@code end}, which may lie beyond the confirmed
     * position (the rest of a damaged active segment): dispatch then resumes when the log reaches it.
     */
    private boolean emitSkip(long start, long end, String reason, boolean damage) throws InterruptedException {
        long seq = nextSeq;
        if (!awaitRoom(seq)) {
            return false;
        }
        Chunk chunk = pool[(int) (seq % pool.length)];
        chunk.describeSkip(seq, start, end, reason, damage);
        advance(seq, end);
        // The window is open for seq, so this never waits.
        ring.offer(seq, chunk, Long.MAX_VALUE);
        return true;
    }

    private void advance(long seq, long end) {
        position = end;
        nextSeq = seq + 1;
        cutPosition = end;
        cutCount = seq + 1;
    }

    private boolean awaitRoom(long seq) throws InterruptedException {
        while (!ring.awaitWindow(seq, WAIT_SLICE_NS)) {
            if (control.isHalted()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Chunks cut and not yet written. From the published sequence number, which equals {@code nextSeq} under the
     * turn, so any thread may ask (without the turn the answer may be a moment old).
     */
    private long inFlight() {
        return cutCount - ring.head();
    }

    /**
     * The reader's idle strategy: after a round that cut nothing because the log had nothing new, a few spins and
     * yields (a send is often just behind), then a park of at most {@code MAX_PARK_NS} that {@link #wakeUp()} ends;
     * when the pipeline was busy (the tail waits for a free worker), straight to the park, since only a released
     * chunk, which wakes the reader, changes that. One instance, for the reader thread's runner.
     */
    IdleStrategy idleStrategy() {
        return new ReaderIdle();
    }

    /** See {@link #idleStrategy()}. Reader thread only, turn not held. */
    private final class ReaderIdle implements IdleStrategy {
        private int rounds;

        @Override
        public void idle(int workCount) {
            if (workCount > 0) {
                rounds = 0;
                return;
            }
            rounds++;
            if (idleKind == Idle.NO_DATA && rounds <= SPIN_ROUNDS) {
                Thread.onSpinWait();
            } else if (idleKind == Idle.NO_DATA && rounds <= SPIN_ROUNDS + YIELD_ROUNDS) {
                Thread.yield();
            } else {
                park();
            }
        }

        @Override
        public void idle() {
            park();
        }

        @Override
        public void reset() {
            rounds = 0;
        }

        @Override
        public String alias() {
            return "dispatch-reader";
        }
    }

    /** Reader thread, turn not held: sleeps until woken, at most {@code MAX_PARK_NS}, unless there is work. */
    private void park() {
        parked = true;
        // Orders the flag store before the re-check below; wakeUp() fences before reading the flag (Dekker),
        // so an append or release that the re-check misses is guaranteed to see the flag and unpark us.
        VarHandle.fullFence();
        if (!control.isHalted() && !hasWork()) {
            LockSupport.parkNanos(this, MAX_PARK_NS);
        }
        parked = false;
    }

    /**
     * Cheap check whether {@link #cutOnce()} would cut something now. Without the turn, so from the published
     * copies of the cut position and sequence number (an assist may move them meanwhile; a stale answer costs one
     * round or one park of at most {@code MAX_PARK_NS}).
     */
    private boolean hasWork() {
        long pos = cutPosition;
        if (pos < control.skipUntil() || pos < log.minPosition()) {
            return true;
        }
        long confirmed = log.confirmedPosition();
        if (pos >= confirmed) {
            return false;
        }
        long segmentEnd = pos - pos % segmentBytes + segmentBytes;
        return confirmed - pos >= chunkBytes || confirmed >= segmentEnd || inFlight() < eagerLimit;
    }

    /** Ends an idle sleep early: new data was confirmed, or a chunk was written. Any thread; cheap when awake. */
    void wakeUp() {
        VarHandle.fullFence();
        if (parked) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    Idle lastIdle() {
        return lastIdle;
    }

    /** Everything below this position has been cut into chunks. Any thread. */
    long cutPosition() {
        return cutPosition;
    }

    /** The sequence number the next chunk will get (the number of chunks cut so far, from the first). */
    long cutCount() {
        return cutCount;
    }

    /** True once the reader thread has stopped for good (halted). */
    boolean isFinished() {
        return finished;
    }
}
