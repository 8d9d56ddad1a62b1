package io.sluice.store.dispatch.pipeline;

import io.sluice.store.ArrivalListener;
import io.sluice.store.index.SlotAppendStatus;
import io.sluice.store.index.ConsumeQueue;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's only consume-queue writer: takes chunks from the {@link OrderedRing} in CommitLog order, appends
 * their slots, tells the arrival listeners once per chunk about each queue it touched, then publishes the dispatched
 * position (docs/dispatch.md#consume-queue-writer).
 *
 * <p>Dispatch rules are the serial dispatcher's (docs/dispatch.md#dispatch-rules): an existing entry is a success, a
 * refused or unindexable one is counted, logged and skipped, a consume-queue file that cannot be created is retried;
 * damage drops the rest of its segment and tells the reader where to continue; a chunk whose worker failed is decoded
 * again here. {@link #dispatched} moves only after a chunk's slots are written (release store), so lag, drain and the
 * checkpoint never count work merely parsed.
 *
 * <p>Thread-safety: {@link #writeNext()} on the writer's own thread, the only consume-queue writer while the pipeline
 * runs, except that the reader writes a chunk itself with {@link #writeInline} while the writer waits for that very
 * chunk (the ring's lock hands the queues and these fields over). The writing thread owns the ring's head chunk until
 * it releases or passes it. {@link #dispatched} and {@link #lastStoreTimestampMs()} may be read by any thread.
 */
final class CqWriter {

    private static final Logger LOG = LoggerFactory.getLogger(CqWriter.class);
    private static final long MIN_RETRY_PARK_NS = 1_000;
    private static final long MAX_RETRY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Entries between two looks at the stop flag inside a chunk. */
    private static final int HALT_CHECK_MASK = 1023;

    private enum Outcome { NEXT, RETRY }

    /** What became of a chunk given to {@link #handle}. */
    private enum Written { DONE, HALTED, DEFERRED }

    private final OrderedRing<Chunk> ring;
    private final ChunkDecoder fallback;
    private final QueueResolver resolver;
    private final List<ArrivalListener> listeners;
    private final PipelineCounters counters;
    private final PipelineControl control;
    /** Run after every release: wakes the reader, which may be waiting for room in the ring. */
    private final Runnable onRelease;
    private final AtomicLong dispatched;
    /** For the rare re-decode; used by whichever thread is writing (see the class comment). */
    private final DecodeScratch scratch = new DecodeScratch();
    private volatile long lastStoreTimestampMs;

    // Per-chunk tallies, of the thread writing (the writer, or the holder of the reader's turn inline).
    private long indexed;
    private long duplicates;
    /**
     * Valid records of the chunks written so far, skipped ones included ({@link Chunk#records}): with an entry's
     * {@link Chunk#recordIndexes index in its chunk}, the sequence number a spanning BatchCQ slot's record count is
     * bounded by. Advanced once a chunk is done, so a retried or deferred entry keeps its number; handed over with
     * the queues, like the tallies.
     */
    private long records;

    CqWriter(OrderedRing<Chunk> ring, ChunkDecoder fallback, QueueResolver resolver,
             List<ArrivalListener> listeners, PipelineCounters counters, PipelineControl control,
             Runnable onRelease, AtomicLong dispatched) {
        this.ring = ring;
        this.fallback = fallback;
        this.resolver = resolver;
        this.listeners = listeners;
        this.counters = counters;
        this.control = control;
        this.onRelease = onRelease;
        this.dispatched = dispatched;
    }

    /**
     * The writer thread's duty cycle: waits for the chunk at the ring's head (at most
     * {@link ChunkCutter#WAIT_SLICE_NS}, so a stop is noticed), writes it, releases it and wakes the reader. Once
     * halted (even in the middle of a chunk) it writes nothing more and only waits.
     *
     * @return 1 if a chunk was written, else 0
     */
    int writeNext() throws InterruptedException {
        if (control.isHalted()) {
            LockSupport.parkNanos(this, ChunkCutter.WAIT_SLICE_NS); // until the owner ends this thread
            return 0;
        }
        Chunk chunk = ring.awaitHead(ChunkCutter.WAIT_SLICE_NS);
        if (chunk == null || handle(chunk, false) == Written.HALTED) {
            return 0;
        }
        ring.release();
        onRelease.run();
        return 1;
    }

    /**
     * Holder of the reader's turn (the reader thread or an assisting appender), for the chunk whose sequence number
     * is the ring's head when it was never offered: the writer thread is then idle, waiting for exactly that chunk,
     * so the caller writes it itself and passes the head ({@link OrderedRing#passHead}), saving the hand-off to the
     * writer thread that a lone message would otherwise wait for. An inline write never waits: when a consume-queue
     * file cannot be created it gives the rest of the chunk to the writer thread, which retries ({@link #appendAll}),
     * and so does an Error, which is then rethrown.
     *
     * @return false if the pipeline was halted before the chunk was complete (the head is not passed)
     * @throws InterruptedException only if interrupted while giving the chunk to the writer, which never waits
     */
    boolean writeInline(Chunk chunk) throws InterruptedException {
        Written written;
        try {
            written = handle(chunk, true);
        } catch (Error e) {
            // The writer thread writes the chunk again (what was appended is a duplicate) or meets the same Error and
            // dies loudly; either way dispatch does not wait forever for a chunk that nobody holds.
            chunk.appendedCount = 0;
            ring.offer(chunk.seq, chunk, Long.MAX_VALUE);
            throw e;
        }
        switch (written) {
            case DONE -> ring.passHead(chunk.seq);
            case DEFERRED -> ring.offer(chunk.seq, chunk, Long.MAX_VALUE); // the head's slot: never waits
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Writes a chunk and forgets it, unless halted or deferred to the writer thread before it was complete. */
    private Written handle(Chunk chunk, boolean inline) {
        Written written;
        try {
            written = write(chunk, inline);
        } catch (RuntimeException e) {
            long n = counters.unexpectedErrors.incrementAndGet();
            LOG.error("dispatch writer failed on {}; moving past it [{} failures so far]", chunk, n, e);
            publish(chunk.endPosition);
            written = Written.DONE;
        }
        if (written == Written.DONE) {
            counters.chunks.incrementAndGet();
            chunk.releaseReferences();
        }
        return written;
    }

    /**
     * Writes one chunk from entry {@link Chunk#appendedCount}; HALTED if the pipeline was halted before it was
     * complete, DEFERRED if {@code inline} and a consume-queue file could not be created (the writer thread retries).
     */
    private Written write(Chunk chunk, boolean inline) {
        if (chunk.kind == Chunk.Kind.SKIP) {
            if (chunk.skipForDamage) {
                reportDamage(chunk.startPosition, chunk.skipReason, chunk.endPosition);
            }
            counters.skippedBytes.addAndGet(chunk.lengthBytes());
            publish(chunk.endPosition);
            return Written.DONE;
        }
        if (chunk.startPosition < control.skipUntil()) {
            // A later chunk of a segment whose rest is damaged: dropped, as the serial dispatcher never reads it.
            counters.skippedBytes.addAndGet(chunk.lengthBytes());
            publish(chunk.endPosition);
            return Written.DONE;
        }
        if (chunk.failure != null) {
            counters.workerFailures.incrementAndGet();
            decodeAgain(chunk);
        }
        Written appended = appendAll(chunk, inline);
        if (appended != Written.DONE) {
            return appended;
        }
        countOutcomes(chunk);
        records += chunk.records;
        long next = chunk.endPosition;
        if (chunk.isDamaged()) {
            next = chunk.segmentEndPosition;
            reportDamage(chunk.damagePosition, chunk.damageReason, next);
            // The rest of the segment is counted by the chunks that follow (dropped, or the reader's skip).
            counters.skippedBytes.addAndGet(chunk.endPosition - chunk.damagePosition);
            control.skipUntil(next);
        }
        // Listeners first (as the serial dispatcher), so that a drained dispatcher has also told them everything.
        notifyArrivals(chunk);
        if (chunk.count > 0) {
            lastStoreTimestampMs = chunk.storeTimestamps[chunk.count - 1];
        }
        publish(next);
        return Written.DONE;
    }

    private void decodeAgain(Chunk chunk) {
        try {
            fallback.decode(chunk, scratch);
        } catch (RuntimeException | Error e) {
            // The record-by-record decoder turns bad bytes into damage; reaching here is a bug. Skip the segment.
            long n = counters.unexpectedErrors.incrementAndGet();
            LOG.error("decoding {} failed again on the writer; treating it as damaged [{} failures so far]", chunk,
                    n, e);
            chunk.clearEntries();
            chunk.markDamage(chunk.startPosition, "decoding failed twice: " + e);
        }
    }

    private Written appendAll(Chunk chunk, boolean inline) {
        indexed = 0;
        duplicates = 0;
        int n = chunk.count;
        Written written = Written.DONE;
        for (int i = chunk.appendedCount; i < n; i++) {
            if ((i & HALT_CHECK_MASK) == 0 && control.isHalted()) {
                written = Written.HALTED;
                break;
            }
            long parkNs = MIN_RETRY_PARK_NS;
            while (written == Written.DONE && appendOne(chunk, i) == Outcome.RETRY) {
                if (inline) {
                    // Never wait here (the thread may be a send lane): the writer thread goes on from entry i.
                    chunk.appendedCount = i;
                    written = Written.DEFERRED;
                } else if (control.isHalted()) {
                    written = Written.HALTED;
                } else {
                    LockSupport.parkNanos(parkNs);
                    parkNs = Math.min(MAX_RETRY_PARK_NS, parkNs * 2);
                }
            }
            if (written != Written.DONE) {
                break;
            }
        }
        counters.indexed.addAndGet(indexed);
        counters.duplicates.addAndGet(duplicates);
        return written;
    }

    private Outcome appendOne(Chunk c, int i) {
        ConsumeQueue queue = c.queues[i];
        SlotAppendStatus status;
        try {
            if (queue == null) {
                queue = resolver.resolve(c.topics[i], c.queueIds[i]);
                c.queues[i] = queue;
                addTouched(c, queue);
            }
            status = queue.append(c.queueOffsets[i], c.batchCounts[i], c.positions[i], c.sizes[i], c.tagsCodes[i],
                    c.storeTimestamps[i], records + c.recordIndexes[i]);
        } catch (UncheckedIOException e) {
            return ioError(c, i, e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // Unknown queue type (topic deleted), queue id beyond the limit, batch the layout cannot hold.
            long n = counters.unindexable.incrementAndGet();
            if (PipelineCounters.shouldLog(n)) {
                LOG.error("dispatch skips the record at position {} ({}-{}, offset {}): {} [{} such records so far]",
                        c.positions[i], c.topics[i], c.queueIds[i], c.queueOffsets[i], e.getMessage(), n);
            }
            return Outcome.NEXT;
        }
        switch (status) {
            case APPENDED -> indexed++;
            case DUPLICATE -> duplicates++;
            case GAP, CONFLICT -> {
                long n = counters.inconsistent.incrementAndGet();
                if (PipelineCounters.shouldLog(n)) {
                    LOG.error("dispatch: consume queue {} refused the record at position {} (offset {}, {} messages)"
                                    + " as {}; skipped [{} such records so far]", queue, c.positions[i],
                            c.queueOffsets[i], c.batchCounts[i], status, n);
                }
            }
            case IO_ERROR -> {
                return ioError(c, i, null);
            }
            case CLOSED -> {
                // The topic was deleted while its records were being dispatched: nothing to index into.
            }
            default -> throw new IllegalStateException("unhandled consume queue status " + status);
        }
        return Outcome.NEXT;
    }

    private Outcome ioError(Chunk c, int i, UncheckedIOException e) {
        long n = counters.ioErrors.incrementAndGet();
        if (PipelineCounters.shouldLog(n)) {
            LOG.error("dispatch cannot index the record at position {} ({}-{}): consume queue file creation failed;"
                    + " retrying [{} failures so far]", c.positions[i], c.topics[i], c.queueIds[i], n, e);
        }
        return Outcome.RETRY;
    }

    private static void addTouched(Chunk c, ConsumeQueue queue) {
        for (int k = 0; k < c.touchedCount; k++) {
            if (c.touched[k] == queue) {
                return;
            }
        }
        c.addTouched(queue);
    }

    private void countOutcomes(Chunk c) {
        if (c.transactionSkipped > 0) {
            counters.transactionSkipped.addAndGet(c.transactionSkipped);
        }
        if (c.unindexable > 0) {
            long before = counters.unindexable.getAndAdd(c.unindexable);
            // Log when the total passes a power of two, like the per-record problems.
            if (Long.highestOneBit(before + c.unindexable) > before) {
                LOG.error("dispatch skips {} records of {} that cannot be indexed, the first at position {}: {}"
                        + " [{} such records so far]", c.unindexable, c, c.unindexablePosition,
                        c.unindexableReason, before + c.unindexable);
            }
        }
    }

    private void reportDamage(long position, String reason, long next) {
        long n = counters.corrupt.incrementAndGet();
        LOG.error("dispatch found no valid record at position {} ({}); skipping to the next segment at {}"
                + " [{} damaged places so far]", position, reason, next, n);
    }

    /** Release store: every slot written before is visible to a thread that acquires the new position. */
    private void publish(long position) {
        if (position > dispatched.get()) {
            dispatched.setRelease(position);
        }
    }

    private void notifyArrivals(Chunk c) {
        if (listeners.isEmpty()) {
            return;
        }
        for (int k = 0; k < c.touchedCount; k++) {
            ConsumeQueue queue = c.touched[k];
            long maxOffset = queue.maxOffset();
            for (ArrivalListener listener : listeners) {
                try {
                    listener.onArrival(queue.topic(), queue.queueId(), maxOffset);
                } catch (RuntimeException e) {
                    long n = counters.listenerErrors.incrementAndGet();
                    if (PipelineCounters.shouldLog(n)) {
                        LOG.error("arrival listener {} failed for {}-{} [{} failures so far]", listener,
                                queue.topic(), queue.queueId(), n, e);
                    }
                }
            }
        }
    }

    /** Store time of the last record written, 0 before the first. Any thread. */
    long lastStoreTimestampMs() {
        return lastStoreTimestampMs;
    }
}
