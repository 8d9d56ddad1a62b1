package io.sluice.store.log;

import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes zeros through the next, still sparse CommitLog segment once the appender is within {@code aheadBytes} of the
 * end of the active one, on its own thread ({@code sluice-zero-fill}), so that appends there overwrite allocated
 * pages: filling a hole costs the appender a page and a block reservation under the append lock. It fills the next
 * file, not the active one, because a buffered write holds the file's inode lock (docs/storage.md#commitlog-segments).
 * A reused file (one retention removed) is filled only where its pages are not cached: elsewhere its blocks and pages
 * exist already, and a partial-page append into an uncached page of an allocated block would read the disk.
 *
 * <p>Paced: the fill keeps in step with the appender, never more than {@link #PACE_LEAD_BYTES} ahead of where the
 * appender's progress through its last {@code aheadBytes} puts it, so that the next segment is whole when the
 * appender reaches it, and pages are taken at the rate the log writes rather than a segment at a burst. Pages taken
 * at that rate are the ones {@link PageCacheTrimmer} has just released; a burst takes free memory, which can cost
 * several times more to touch (docs/storage.md#commitlog-page-cache). Pages filled a whole large segment ahead
 * cost more too, which is why segments are small by default (docs/storage.md#commitlog-segments).
 *
 * <p>Never over the appender's bytes (Dekker's protocol on two volatiles): the appender stores {@code claimedEnd},
 * then waits while a fill below it runs ({@link #beforeWrite}); this thread stores {@code fillFrom}, then withdraws
 * if {@code claimedEnd} has reached it. A segment stays sparse when the disk lacks room for it plus the appender's
 * margin. A failed zero write is counted, logged (rate-limited) and retried later, never a storage failure.
 *
 * <p>Thread-safety: {@link #beforeWrite} by the append lock holder only; {@link #start} and {@link #close} by the
 * log's lifecycle; everything else belongs to the filling thread.
 */
final class ZeroFillAhead implements AutoCloseable {

    /** Where the filling thread finds the next segment: prepared and ready, or empty. Any thread. */
    @FunctionalInterface
    interface PreparedSegments {
        Optional<MappedSegment> ready(long startPosition);
    }

    /** Whether a part of a segment's file is in the page cache now. Called by the filling thread. */
    @FunctionalInterface
    interface PageCache {
        /** The kernel's answer, through the segment's mapping. */
        PageCache SYSTEM = MappedSegment::isResident;

        boolean cached(MappedSegment segment, int offset, int bytes);
    }

    /** Usable bytes on the log's file system. */
    @FunctionalInterface
    interface FreeSpace {
        long usableBytes() throws IOException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(ZeroFillAhead.class);

    /** Largest zero write; bounds how long an appender that reached a segment being filled waits. */
    static final int CHUNK_BYTES = 256 * 1024;
    /** How far the fill may run ahead of its paced position: slack for a late wake-up near the segment's end. */
    static final long PACE_LEAD_BYTES = 8L << 20;
    /** The paced fill wakes when it may write this much more: a wake-up per few MiB, not per chunk. */
    static final long PACE_STEP_BYTES = 4L << 20;
    static final long RETRY_AFTER_FAILURE_MS = 1_000;
    /** A failure that lasts (a full disk) is logged once a minute. */
    private static final long LOG_EVERY_FAILURES = 60;
    /** Wake-up when nothing has woken the thread: a segment still being prepared, a truncation. */
    private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long NONE = Long.MAX_VALUE;

    private final SegmentChain chain;
    private final PreparedSegments prepared;
    private final FreeSpace freeSpace;
    private final long minUsableBytes;
    private final int aheadBytes;
    private final WriteHook beforeFill;
    private final PageCache pageCache;
    /** Null when disabled. */
    private final AgentHost thread;
    private final ByteBuffer zeros;

    /** End of the range the appender is writing or last wrote. Appender writes, both read. */
    private volatile long claimedEnd;
    /** Start of the zero write in progress, {@link #NONE} when none. This thread writes, both read. */
    private volatile long fillFrom = NONE;
    /** The appender wakes this thread when its claim reaches here. */
    private volatile long wakeAt;

    /** Counters, written by their owner (noted), read by anyone. This thread: */
    private volatile long filledBytes;
    private volatile long filledTo;
    private volatile long withdrawals;
    private volatile long failures;
    private volatile long skippedSegments;
    private volatile long residentBytes;
    /** The appender: */
    private volatile long appenderWaits;

    /** This thread only: the segment being filled and how much of it is done; the segment its channel is on. */
    private MappedSegment filling;
    private int filledOffset;
    private MappedSegment openSegment;
    private FileChannel channel;

    /**
     * @param chain      the log's segments; the last is the active one
     * @param prepared   where the segment after the active one is found
     * @param aheadBytes how close to the end of the active segment the appender's claim must come for the next
     *                   segment to be filled; 0 disables the agent (no thread, {@link #beforeWrite} does nothing)
     * @param freeSpace  read before a segment is filled: one is skipped (left sparse) when the file system has
     *                   less than {@code minUsableBytes} plus the segment's size left, so that zeros never take
     *                   the room the appender needs
     * @param beforeFill called before every zero write, with its log position and length (tests block or fail
     *                   it here)
     * @param pageCache  asked, for a reused file only, whether the part about to be filled is cached already
     */
    ZeroFillAhead(SegmentChain chain, PreparedSegments prepared, int aheadBytes, FreeSpace freeSpace,
                  long minUsableBytes, WriteHook beforeFill, PageCache pageCache) {
        if (aheadBytes < 0) {
            throw new IllegalArgumentException("aheadBytes must be >= 0, was " + aheadBytes);
        }
        this.chain = chain;
        this.prepared = prepared;
        this.freeSpace = freeSpace;
        this.minUsableBytes = minUsableBytes;
        this.aheadBytes = aheadBytes;
        this.beforeFill = beforeFill;
        this.pageCache = pageCache;
        // Sleeps only when a cycle filled nothing: the appender wakes it when its claim nears the segment end.
        this.thread = aheadBytes == 0 ? null : new AgentHost(new LoopAgent("sluice-zero-fill", this::fillCycle,
                this::closeChannel), new SleepingIdleStrategy(IDLE_PARK_NS));
        this.zeros = aheadBytes == 0 ? null : ByteBuffer.allocateDirect(CHUNK_BYTES);
    }

    /** Starts watching the appender from {@code position}, the end of the log. Once. */
    void start(long position) {
        if (thread == null) {
            return;
        }
        claimedEnd = position;
        filledTo = position;
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
            thread.wakeUp();
        }
    }

    /** One duty cycle: a chunk filled (1) or nothing to fill (0). A failed write is counted and retried later. */
    private int fillCycle() {
        Thread.interrupted(); // nothing here is interruptible work; a stray interrupt must not make park spin
        try {
            return fillOnce() ? 1 : 0;
        } catch (NoSuchFileException e) {
            // The segment was discarded (a truncation) before this thread opened it: start over, no failure.
            closeChannel();
            filling = null;
            return 1;
        } catch (IOException | RuntimeException e) {
            long failed = ++failures;
            if (failed == 1 || failed % LOG_EVERY_FAILURES == 0) {
                LOG.warn("zero-filling the next CommitLog segment failed ({} failures so far, logged every {});"
                        + " retrying every {} ms", failed, LOG_EVERY_FAILURES, RETRY_AFTER_FAILURE_MS, e);
            }
            closeChannel();
            // A full disk or a failing device: the zeros can wait, so the retry is slow (a stop ends the wait).
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(RETRY_AFTER_FAILURE_MS));
            return 0;
        }
    }

    /**
     * Writes one chunk of zeros into the next segment if the appender is close enough to it.
     *
     * @return false when there is nothing to fill until the appender moves on (or the segment is ready)
     */
    private boolean fillOnce() throws IOException {
        long claimed = claimedEnd;
        MappedSegment active = chain.last();
        if (active == null || claimed < active.startPosition() || claimed >= active.endPosition()) {
            return idleUntil(claimed + 1); // before the first segment, at a roll, or after a truncation
        }
        long nextStart = active.endPosition();
        if (claimed < nextStart - aheadBytes) {
            return idleUntil(nextStart - aheadBytes);
        }
        Optional<MappedSegment> ready = prepared.ready(nextStart);
        if (ready.isEmpty()) {
            wakeAt = NONE; // being prepared: look again after the idle park, not on every append
            return false;
        }
        MappedSegment next = ready.get();
        if (next != filling) { // a new segment, or the same position prepared again after a truncation
            filling = next;
            filledOffset = 0;
            if (freeSpace.usableBytes() < minUsableBytes + next.sizeBytes()) {
                filledOffset = next.sizeBytes(); // left sparse: the appender needs the room more
                skippedSegments++;
            }
        }
        if (filledOffset >= next.sizeBytes()) {
            return idleUntil(nextStart); // filled; the segment after it waits until this one is the active one
        }
        if (filledOffset >= pacedFillOffset(claimed, nextStart, next.sizeBytes())) {
            return idleUntil(claimAllowing(filledOffset + PACE_STEP_BYTES, nextStart, next.sizeBytes()));
        }
        long from = nextStart + filledOffset;
        long to = Math.min(next.endPosition(), from + CHUNK_BYTES);
        if (chain.last() != active) {
            withdrawals++; // the appender rolled meanwhile: the segment is the active one now, not ours to fill
            return true;
        }
        wakeAt = NONE;
        fillFrom = from;
        if (claimedEnd > from) {
            fillFrom = NONE;
            withdrawals++;
            return true;
        }
        int offset = (int) (from - next.startPosition());
        int bytes = (int) (to - from);
        // A reused file's resident pages need no fill: its blocks exist and an append copies into cached pages
        // without reading the disk, so zeros there would only double the copy.
        boolean resident = next.reusedFile() && pageCache.cached(next, offset, bytes);
        try {
            if (resident) {
                residentBytes += bytes;
            } else {
                beforeFill.beforeWrite(from, bytes);
                writeZeros(next, offset, bytes);
                filledBytes += bytes;
            }
        } finally {
            fillFrom = NONE;
        }
        filledOffset = (int) (to - nextStart);
        if (filledOffset >= next.sizeBytes()) {
            closeChannel(); // no descriptor kept on a file a truncation may delete
        }
        filledTo = to; // published last: a reader that sees it sees the channel closed

        return true;
    }

    /**
     * How far into the next segment (of {@code segmentBytes}, starting at {@code nextStart}) the fill may have got
     * with the appender's claim at {@code claimed}: the appender's progress through the last {@code aheadBytes} of
     * its segment, scaled to the next segment, plus {@link #PACE_LEAD_BYTES}; the whole segment once the claim
     * reaches its start.
     */
    private long pacedFillOffset(long claimed, long nextStart, int segmentBytes) {
        long progress = Math.max(0, claimed - (nextStart - aheadBytes));
        long paced = (long) (progress * ((double) segmentBytes / aheadBytes)) + PACE_LEAD_BYTES;
        return Math.min(segmentBytes, paced);
    }

    /** The smallest claim whose {@link #pacedFillOffset} reaches {@code fillOffset} (inverse of it). */
    private long claimAllowing(long fillOffset, long nextStart, int segmentBytes) {
        long target = Math.min(segmentBytes, fillOffset) - PACE_LEAD_BYTES;
        long progress = target <= 0 ? 0 : (long) Math.ceil(target * ((double) aheadBytes / segmentBytes));
        return Math.min(nextStart, nextStart - aheadBytes + progress);
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
        MappedSegment.writeZeros(channel, zeros, offset, (long) offset + bytes);
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

    /** What the agent has done so far. Any thread. */
    Stats stats() {
        return new Stats(filledBytes, filledTo, withdrawals, appenderWaits, failures, skippedSegments, residentBytes);
    }

    /**
     * @param filledBytes   zeros written
     * @param filledTo      log position where the last fill ended
     * @param withdrawals   fills given up because the appender had reached their segment
     * @param appenderWaits appends that waited for a fill
     * @param failures      zero writes that failed
     * @param skippedSegments segments left sparse because the file system was nearly full
     * @param residentBytes  bytes of reused files passed over because their pages were already cached
     */
    record Stats(long filledBytes, long filledTo, long withdrawals, long appenderWaits, long failures,
                 long skippedSegments, long residentBytes) {
    }

    /** Stops the thread and waits for it (a zero write in progress finishes first). Idempotent. */
    @Override
    public void close() {
        if (thread != null) {
            thread.close(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
