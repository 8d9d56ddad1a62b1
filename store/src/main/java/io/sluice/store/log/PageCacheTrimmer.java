package io.sluice.store.log;

import io.sluice.store.thread.AgentHost;
import io.sluice.store.thread.LoopAgent;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the CommitLog's footprint in the page cache to about its newest {@code cacheMaxBytes}: on its own thread
 * ({@code sluice-log-cache-trim}), every byte below {@code min(flushed, written - cacheMaxBytes)} is handed back to
 * the kernel once ({@link PageCacheAdvice#release}), so that the pages the log goes on writing are the ones it
 * released, not memory the system has to find (docs/storage.md#commitlog-page-cache).
 *
 * <p>Why: a page the kernel recycles costs little to write again, while a page taken from free memory can cost far
 * more (on a virtual machine that hands free memory back to its host, 25 times more), and mapped pages, which the
 * log's readers make of every page they read, are the dearest for the kernel to reclaim. Only flushed bytes are
 * released, so no dirty page is asked for, and the newest window stays cached for dispatch and for consumers that
 * keep up. A page read again later (a consumer far behind) is cached again and left to the kernel.
 *
 * <p>Thread-safety: {@link #start} and {@link #close} by the log's lifecycle; the cycle and {@link #releasedTo}
 * belong to the thread; the counters are read by anyone.
 */
final class PageCacheTrimmer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PageCacheTrimmer.class);

    /** Released at least this much at a time (or up to a segment's end): fewer, larger system calls. */
    static final long STEP_BYTES = 8L << 20;
    /** How often the thread looks: a 100 ms lag is a few MiB of extra cache at hundreds of MB/s. */
    private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** A failure that lasts is logged once per this many. */
    private static final long LOG_EVERY_FAILURES = 100;

    private final SegmentChain chain;
    private final LongSupplier flushedPosition;
    private final LongSupplier writtenPosition;
    private final long cacheMaxBytes;
    private final PageCacheAdvice advice;
    /** Null when disabled. */
    private final AgentHost thread;

    /** Everything below here was released once (this thread). */
    private long releasedTo;

    /** Counters, written by the thread. */
    private volatile long releasedBytes;
    private volatile long failures;

    /**
     * @param cacheMaxBytes how much of the log's newest bytes stays cached; 0 disables the trimmer (no thread), as
     *                      does an {@code advice} that is not {@link PageCacheAdvice#supported()}
     */
    PageCacheTrimmer(SegmentChain chain, LongSupplier flushedPosition, LongSupplier writtenPosition,
                     long cacheMaxBytes, PageCacheAdvice advice) {
        if (cacheMaxBytes < 0) {
            throw new IllegalArgumentException("cacheMaxBytes must be >= 0, was " + cacheMaxBytes);
        }
        this.chain = chain;
        this.flushedPosition = flushedPosition;
        this.writtenPosition = writtenPosition;
        this.cacheMaxBytes = cacheMaxBytes;
        this.advice = advice;
        // Polls: nothing wakes it, and a late cycle only leaves a few more pages cached for a while.
        this.thread = cacheMaxBytes == 0 || !advice.supported() ? null
                : new AgentHost(new LoopAgent("sluice-log-cache-trim", this::trimCycle),
                        new SleepingIdleStrategy(IDLE_PARK_NS));
    }

    /** Starts the thread, which first releases what lies below the bound in the log as recovered. Once. */
    void start() {
        if (thread == null) {
            return;
        }
        releasedTo = chain.minPosition(0);
        thread.start();
    }

    /** True when a thread trims (enabled and supported here). */
    boolean enabled() {
        return thread != null;
    }

    /**
     * One cycle: releases {@code [releasedTo, bound)} when it has grown by {@link #STEP_BYTES} or reached past a
     * segment's end. Package-private for tests, which call it on their own thread instead of {@link #start}.
     *
     * @return 1 when something was released, else 0
     */
    int trimCycle() {
        long written = writtenPosition.getAsLong();
        if (written < releasedTo) {
            releasedTo = written; // truncated: what is written again there is released as it falls behind
        }
        long bound = Math.min(flushedPosition.getAsLong(), written - cacheMaxBytes);
        int segmentBytes = chain.segmentBytes();
        if (bound <= releasedTo
                || bound - releasedTo < STEP_BYTES && bound / segmentBytes == releasedTo / segmentBytes) {
            return 0;
        }
        for (MappedSegment s : chain.snapshot()) {
            if (s.endPosition() <= releasedTo) {
                continue;
            }
            if (s.startPosition() >= bound) {
                break;
            }
            int from = pageFloor(Math.max(releasedTo, s.startPosition()) - s.startPosition());
            int to = bound >= s.endPosition() ? s.sizeBytes()
                    : pageFloor(bound - s.startPosition());
            if (to > from) {
                release(s, from, to);
            }
        }
        releasedTo = bound;
        return 1;
    }

    /** {@code offset} (within a segment) rounded down to a page. */
    private static int pageFloor(long offset) {
        return (int) (offset / MappedSegment.PAGE_BYTES * MappedSegment.PAGE_BYTES);
    }

    private void release(MappedSegment s, int from, int to) {
        PageCacheAdvice.Outcome outcome = advice.release(s, from, to - from);
        if (outcome == PageCacheAdvice.Outcome.RELEASED) {
            releasedBytes += to - from;
        } else if (outcome == PageCacheAdvice.Outcome.FAILED) {
            long failed = ++failures;
            if (failed == 1 || failed % LOG_EVERY_FAILURES == 0) {
                LOG.warn("could not release [{}, {}) of {} from the page cache ({} failures so far, logged every"
                        + " {}); those pages are left to the kernel", from, to, s, failed, LOG_EVERY_FAILURES);
            }
        }
    }

    /** Bytes released so far and failed releases. */
    Stats stats() {
        return new Stats(releasedBytes, failures);
    }

    /** What the trimmer has done. */
    record Stats(long releasedBytes, long failures) {
    }

    /** Stops the thread and waits for it. Idempotent. */
    @Override
    public void close() {
        if (thread != null) {
            thread.close(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
