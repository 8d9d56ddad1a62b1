package io.sluice.store.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes zeros into the active CommitLog segment a bounded distance ahead of the appender, on its own thread
 * ({@code sluice-zero-fill}), so that appends overwrite pages the file system has already allocated instead of
 * filling holes of the sparse segment.
 *
 * <p><b>Why.</b> The first write into a hole costs the writer a new page-cache page and the file system's block
 * reservation (ext4 delayed allocation): writing 2 GB in 32 KiB pieces into a sparse file spent 1.07-1.19 s in
 * {@code pwrite}, into the same file already written with zeros 0.52-0.72 s. The appender writes under the
 * CommitLog's append lock, so that cost serializes every producer; here it is paid on another core. Unlike
 * whole-segment pre-allocation ({@link LogSettings#preallocateSegments()}) the zeros reach at most
 * {@code aheadBytes} past the written position, so a new segment costs nothing up front and an idle log writes
 * nothing; zero pages are normally overwritten long before writeback would take them to disk.
 *
 * <p><b>Never over the appender's bytes</b> (Dekker's protocol on two volatiles):
 * <ul>
 *   <li>the appender, before writing {@code [p, e)}: stores {@code claimedEnd = e}, then waits while
 *       {@code fillFrom < e} ({@link #beforeWrite});</li>
 *   <li>this thread, before writing zeros at {@code [f, t)}: stores {@code fillFrom = f}, then reads
 *       {@code claimedEnd}; when it is above {@code f} it withdraws without writing, else it writes the zeros and
 *       clears {@code fillFrom}.</li>
 * </ul>
 * Both are sequentially consistent, so at least one side sees the other: either the appender waits for the fill
 * (at most one {@value #CHUNK_BYTES}-byte write) or the fill does not happen. A fill starts above a claim it has
 * seen, hence above the written position, so zeros land only where the appender has not written and is not
 * writing. A truncation may lower the claim; bytes above it are unwritten log, which zeros do not change.
 *
 * <p>Failures: a failed zero write is counted and logged (the first, then one in
 * {@value #LOG_EVERY_FAILURES}) and the thread tries again after {@value #RETRY_AFTER_FAILURE_MS} ms; it is never a
 * storage failure (the appender's own writes are the ones that count, and meet the same disk).
 *
 * <p>Thread-safety: {@link #beforeWrite} by the append lock holder only; {@link #start} and {@link #close} by the
 * log's lifecycle; everything else belongs to the filling thread.
 */
final class ZeroFillAhead implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZeroFillAhead.class);

    /** Largest zero write; bounds how long an appender can wait for a fill. */
    static final int CHUNK_BYTES = 1 << 20;
    /** Distance left between the appender's claim and a fill that starts from it (the fill must not chase it). */
    static final int GAP_BYTES = 64 * 1024;
    static final long RETRY_AFTER_FAILURE_MS = 1_000;
    /** A failure that lasts (a full disk) is logged once a minute. */
    private static final long LOG_EVERY_FAILURES = 60;
    /** Wake-up when nothing has woken the thread; covers a roll after a quiet spell. */
    private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int PAGE_BYTES = 4096;
    private static final long NONE = Long.MAX_VALUE;

    private final SegmentChain chain;
    private final int aheadBytes;
    private final WriteHook beforeFill;
    private final Thread thread;
    private final ByteBuffer zeros;

    /** End of the range the appender is writing or last wrote. Appender writes, both read. */
    private volatile long claimedEnd;
    /** Start of the zero write in progress, {@link #NONE} when none. This thread writes, both read. */
    private volatile long fillFrom = NONE;
    /** The appender wakes this thread when its claim reaches here. */
    private volatile long wakeAt;
    private volatile boolean running;

    /** Counters: written by their owner (noted), read by anyone. */
    private volatile long filledBytes;
    private volatile long withdrawals;
    private volatile long failures;
    /** Appender only. */
    private volatile long appenderWaits;

    /** End of the last fill. This thread writes, any reads. */
    private volatile long filledTo;
    /** This thread only. */
    private MappedSegment openSegment;
    private FileChannel channel;

    /**
     * @param aheadBytes how far past the appender's claim to keep zeros written; 0 disables the agent (no thread,
     *                   {@link #beforeWrite} does nothing)
     * @param beforeFill called before every zero write, with its log position and length (tests block or fail
     *                   it here)
     */
    ZeroFillAhead(SegmentChain chain, int aheadBytes, WriteHook beforeFill) {
        if (aheadBytes < 0) {
            throw new IllegalArgumentException("aheadBytes must be >= 0, was " + aheadBytes);
        }
        this.chain = chain;
        this.aheadBytes = aheadBytes;
        this.beforeFill = beforeFill;
        this.thread = aheadBytes == 0 ? null : new Thread(this::run, "sluice-zero-fill");
        this.zeros = aheadBytes == 0 ? null : ByteBuffer.allocateDirect(Math.min(CHUNK_BYTES, 256 * 1024));
    }

    /** Starts filling from {@code position}, the end of the log. Once. */
    void start(long position) {
        if (thread == null) {
            return;
        }
        claimedEnd = position;
        filledTo = position;
        running = true;
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Append lock holder, before writing {@code [position, end)}: claims the range and waits for a fill that
     * overlaps it to finish.
     */
    void beforeWrite(long end) {
        if (thread == null) {
            return;
        }
        claimedEnd = end;
        if (fillFrom < end) {
            appenderWaits++;
            for (int spins = 0; fillFrom < end; spins++) {
                if (spins < 1_000) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
        if (end >= wakeAt) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        while (running) {
            try {
                if (!fillOnce()) {
                    LockSupport.parkNanos(this, IDLE_PARK_NS);
                }
            } catch (IOException e) {
                long failed = ++failures;
                if (failed == 1 || failed % LOG_EVERY_FAILURES == 0) {
                    LOG.warn("zero-filling ahead of the CommitLog writer failed ({} failures so far, logged every {});"
                            + " retrying every {} ms", failed, LOG_EVERY_FAILURES, RETRY_AFTER_FAILURE_MS, e);
                }
                closeChannel();
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(RETRY_AFTER_FAILURE_MS));
            }
        }
        closeChannel();
    }

    /**
     * Writes one chunk of zeros if the appender's lead allows one.
     *
     * @return false when there is nothing to fill until the appender moves on
     */
    private boolean fillOnce() throws IOException {
        long claimed = claimedEnd;
        MappedSegment segment = chain.last();
        if (segment == null || claimed < segment.startPosition() || claimed >= segment.endPosition()) {
            return idleUntil(claimed + 1);
        }
        long from = filledTo;
        if (from < claimed + GAP_BYTES) {
            from = alignUp(claimed + GAP_BYTES);
        }
        long limit = Math.min(segment.endPosition(), claimed + aheadBytes);
        if (from >= limit) {
            return idleUntil(claimed + aheadBytes / 2);
        }
        long to = Math.min(limit, from + CHUNK_BYTES);
        wakeAt = NONE;
        fillFrom = from;
        if (claimedEnd > from) {
            fillFrom = NONE;
            withdrawals++;
            return true;
        }
        try {
            beforeFill.beforeWrite(from, (int) (to - from));
            writeZeros(segment, (int) (from - segment.startPosition()), (int) (to - from));
        } finally {
            fillFrom = NONE;
        }
        filledBytes += to - from;
        filledTo = to;
        return true;
    }

    /**
     * Asks the appender for a wake-up once its claim reaches {@code position}; false (park) unless it already has
     * (the appender stores its claim before it reads {@link #wakeAt}, this thread the reverse, so a claim that
     * passed unseen is seen here).
     */
    private boolean idleUntil(long position) {
        wakeAt = position;
        return claimedEnd >= position;
    }

    private void writeZeros(MappedSegment segment, int offset, int bytes) throws IOException {
        if (segment != openSegment) {
            closeChannel();
            channel = FileChannel.open(segment.file(), StandardOpenOption.WRITE);
            openSegment = segment;
        }
        long at = offset;
        long end = (long) offset + bytes;
        while (at < end) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), end - at));
            at += channel.write(zeros, at);
        }
    }

    private void closeChannel() {
        FileChannel c = channel;
        channel = null;
        openSegment = null;
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                LOG.warn("could not close the zero-fill channel", e);
            }
        }
    }

    private static long alignUp(long position) {
        return (position + PAGE_BYTES - 1) & -PAGE_BYTES;
    }

    /** What the agent has done so far. Any thread. */
    Stats stats() {
        return new Stats(filledBytes, filledTo, withdrawals, appenderWaits, failures);
    }

    /**
     * @param filledBytes   zeros written
     * @param filledTo      log position where the last fill ended
     * @param withdrawals   fills given up because the appender had claimed their start
     * @param appenderWaits appends that waited for a fill
     * @param failures      zero writes that failed
     */
    record Stats(long filledBytes, long filledTo, long withdrawals, long appenderWaits, long failures) {
    }

    /** Stops the thread and waits for it (a zero write in progress finishes first). Idempotent. */
    @Override
    public void close() {
        if (thread == null || !running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
