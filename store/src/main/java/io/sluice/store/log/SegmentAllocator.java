package io.sluice.store.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the next segments (create or reuse a recycled file, zero-fill when pre-allocating, map) on a background
 * thread so that the writer rarely waits for a file system call when it rolls. Keeps {@code ahead} consecutive segments
 * in preparation or ready, in start order; the thread prepares them one after the other, the next one to be used first.
 *
 * <p>When to start: as soon as the writer rolls onto a segment, the preparation of the one after it begins (and
 * at {@link CommitLog#recover}), so a preparation has the writer's whole pass over a segment to finish. With
 * {@code preallocate} a preparation writes a whole segment of zeros; a writer that fills a segment faster than
 * that waits at the roll, up to {@code segmentAllocationTimeoutMs}. A sparse segment is ready at once.
 *
 * <p>Thread-safety: {@link #prepare(long)} and {@link #take(long, long)} are called by the append lock holder
 * only (one at a time); {@link #readyCount()} and {@link #ready(long)} by any thread. The work itself runs on the
 * allocator's own thread ({@code sluice-segment-allocator}).
 */
final class SegmentAllocator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentAllocator.class);

    /** One segment being prepared. */
    private record Preparation(long startPosition, CompletableFuture<MappedSegment> segment) {
    }

    private final Path dir;
    private final int segmentBytes;
    private final boolean preallocate;
    private final int ahead;
    private final ExecutorService executor;
    /** Where new segments come from first. */
    private final SegmentRecycler recycler;
    /** Consecutive segments, the next to be taken first. Lock holder only. */
    private final ArrayDeque<Preparation> queue = new ArrayDeque<>();
    /** Copy of {@link #queue} for {@link #readyCount()}; replaced by the lock holder on every change. */
    private volatile Preparation[] published = new Preparation[0];

    SegmentAllocator(Path dir, int segmentBytes, boolean preallocate, int ahead, SegmentRecycler recycler) {
        if (ahead < 1) {
            throw new IllegalArgumentException("ahead must be >= 1, was " + ahead);
        }
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.preallocate = preallocate;
        this.ahead = ahead;
        this.recycler = recycler;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-segment-allocator");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Makes sure the {@code ahead} segments from {@code startPosition} on are being prepared. Preparations for
     * other positions (the log was truncated) are discarded.
     */
    void prepare(long startPosition) {
        Preparation head = queue.peekFirst();
        if (head != null && head.startPosition() != startPosition) {
            discardAll();
        }
        long next = queue.isEmpty() ? startPosition : queue.peekLast().startPosition() + segmentBytes;
        while (queue.size() < ahead) {
            queue.addLast(submit(next));
            next += segmentBytes;
        }
        publish();
    }

    private Preparation submit(long startPosition) {
        return new Preparation(startPosition, CompletableFuture.supplyAsync(() -> {
            try {
                return MappedSegment.create(dir, startPosition, segmentBytes, preallocate, recycler.take());
            } catch (IOException e) {
                throw new SegmentCreationException(e);
            }
        }, executor));
    }

    /**
     * The segment at {@code startPosition}: the prepared one, waiting for it at most {@code timeoutMs}, or one
     * prepared now when other positions were prepared. The caller then calls {@link #prepare} with the position
     * after it to keep the queue full.
     *
     * @throws IOException      when creating the file failed
     * @throws TimeoutException when preparation did not finish in time (it continues; a later call may succeed)
     */
    MappedSegment take(long startPosition, long timeoutMs) throws IOException, TimeoutException {
        Preparation head = queue.peekFirst();
        if (head == null || head.startPosition() != startPosition) {
            prepare(startPosition);
            head = queue.peekFirst();
        }
        try {
            MappedSegment segment = head.segment().get(timeoutMs, TimeUnit.MILLISECONDS);
            queue.pollFirst();
            publish();
            return segment;
        } catch (ExecutionException e) {
            // Everything queued is dropped: the next take prepares this position again from scratch.
            discardAll();
            publish();
            if (e.getCause() instanceof SegmentCreationException sce) {
                throw sce.getCause();
            }
            throw new IOException("creating segment " + MappedSegment.fileName(startPosition) + " failed",
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("interrupted while waiting for segment "
                    + MappedSegment.fileName(startPosition));
        }
    }

    /** How many segments, counted from the next one to be taken, are prepared and ready. Any thread. */
    int readyCount() {
        int ready = 0;
        for (Preparation p : published) {
            CompletableFuture<MappedSegment> f = p.segment();
            if (!f.isDone() || f.isCompletedExceptionally()) {
                break;
            }
            ready++;
        }
        return ready;
    }

    /** The segment at {@code startPosition} if its preparation has finished successfully. Any thread. */
    Optional<MappedSegment> ready(long startPosition) {
        for (Preparation p : published) {
            if (p.startPosition() == startPosition) {
                CompletableFuture<MappedSegment> f = p.segment();
                return f.isDone() && !f.isCompletedExceptionally() ? Optional.of(f.join()) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private void publish() {
        published = queue.toArray(new Preparation[0]);
    }

    /** Deletes prepared segments nobody will take (they are not part of the log). */
    private void discardAll() {
        for (Preparation p; (p = queue.pollFirst()) != null; ) {
            p.segment().thenAccept(segment -> {
                try {
                    segment.delete();
                } catch (IOException e) {
                    LOG.warn("could not delete unused {}", segment, e);
                }
            });
        }
    }

    @Override
    public void close() {
        discardAll();
        publish();
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("segment allocator did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Carries an IOException out of the allocator thread. */
    private static final class SegmentCreationException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SegmentCreationException(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }
}
