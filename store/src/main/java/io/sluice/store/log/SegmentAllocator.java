package io.sluice.store.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the next segment (create, pre-allocate, map) on a background thread so that the writer rarely waits
 * for a file system call when it rolls.
 *
 * <p>Thread-safety: {@link #prepare(long)} and {@link #take(long, long)} are called by the append lock holder
 * only (one at a time); the work itself runs on the allocator's own thread ({@code sluice-segment-allocator}).
 */
final class SegmentAllocator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentAllocator.class);

    private final Path dir;
    private final int segmentBytes;
    private final boolean preallocate;
    private final ExecutorService executor;
    private long preparedStart = -1;
    private CompletableFuture<MappedSegment> prepared;

    SegmentAllocator(Path dir, int segmentBytes, boolean preallocate) {
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.preallocate = preallocate;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-segment-allocator");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts preparing the segment at {@code startPosition} unless it is already being prepared. */
    void prepare(long startPosition) {
        if (prepared != null && preparedStart == startPosition) {
            return;
        }
        discardPrepared();
        preparedStart = startPosition;
        prepared = CompletableFuture.supplyAsync(() -> {
            try {
                return MappedSegment.create(dir, startPosition, segmentBytes, preallocate);
            } catch (IOException e) {
                throw new SegmentCreationException(e);
            }
        }, executor);
    }

    /**
     * The segment at {@code startPosition}: the prepared one, waiting for it at most {@code timeoutMs}, or one
     * created now when another position was prepared.
     *
     * @throws IOException      when creating the file failed
     * @throws TimeoutException when preparation did not finish in time (it continues; a later call may succeed)
     */
    MappedSegment take(long startPosition, long timeoutMs) throws IOException, TimeoutException {
        if (prepared == null || preparedStart != startPosition) {
            prepare(startPosition);
        }
        try {
            MappedSegment segment = prepared.get(timeoutMs, TimeUnit.MILLISECONDS);
            prepared = null;
            preparedStart = -1;
            return segment;
        } catch (ExecutionException e) {
            prepared = null;
            preparedStart = -1;
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

    /** Deletes a prepared segment nobody took (it is not part of the log). */
    private void discardPrepared() {
        CompletableFuture<MappedSegment> p = prepared;
        prepared = null;
        preparedStart = -1;
        if (p != null) {
            p.thenAccept(segment -> {
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
        discardPrepared();
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
