package io.sluice.store.dispatch.pipeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The pipeline's cumulative counters, named as the serial dispatcher's where they mean the same. The
 * {@link CqWriter} advances most of them, once per chunk; the reader advances {@link #unexpectedErrors} too.
 *
 * <p>Thread-safe.
 */
final class PipelineCounters {

    final AtomicLong chunks = new AtomicLong();
    final AtomicLong indexed = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final AtomicLong transactionSkipped = new AtomicLong();
    final AtomicLong corrupt = new AtomicLong();
    final AtomicLong skippedBytes = new AtomicLong();
    final AtomicLong unindexable = new AtomicLong();
    final AtomicLong inconsistent = new AtomicLong();
    final AtomicLong ioErrors = new AtomicLong();
    final AtomicLong listenerErrors = new AtomicLong();
    final AtomicLong workerFailures = new AtomicLong();
    final AtomicLong unexpectedErrors = new AtomicLong();
    /** Chunks the reader decoded itself because the pipeline was idle ({@link ChunkRouter}). */
    final AtomicLong inlineChunks = new AtomicLong();
    /** Chunks the reader cut at a boundary the appender noted, without walking their records. */
    final AtomicLong hintedChunks = new AtomicLong();
    /** Chunks an appender cut itself ({@link ChunkCutter#assist()}). */
    final AtomicLong assistedChunks = new AtomicLong();

    /**
     * Whether the {@code n}-th occurrence of a repeated problem should be logged: the 1st, 2nd, 4th, 8th, ...
     * so that a problem hit on every record cannot flood the log, yet its growth stays visible.
     */
    static boolean shouldLog(long n) {
        return n > 0 && (n & (n - 1)) == 0;
    }

    PipelineStats snapshot(long dispatchedPosition, long lagBytes, long lagMs) {
        return new PipelineStats(dispatchedPosition, lagBytes, lagMs, chunks.get(), indexed.get(), duplicates.get(),
                transactionSkipped.get(), corrupt.get(), skippedBytes.get(), unindexable.get(), inconsistent.get(),
                ioErrors.get(), listenerErrors.get(), workerFailures.get(), unexpectedErrors.get(),
                inlineChunks.get(), hintedChunks.get(), assistedChunks.get());
    }
}
