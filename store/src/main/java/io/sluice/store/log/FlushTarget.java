package io.sluice.store.log;

import java.io.IOException;

/**
 * What a flush agent needs from a log: how far it is written, how far it is durable, and a way to force.
 *
 * <p>Implementations must be thread-safe: {@link #writtenPosition()} and {@link #flushedPosition()} are read by
 * any thread; {@link #flushTo(long)} is called by the flush agent's thread (and by the log itself while the
 * agent is stopped).
 */
interface FlushTarget {

    /** Position after the last byte appended (acquire read of the writer's release store). */
    long writtenPosition();

    /** Position after the last byte known to be on disk. */
    long flushedPosition();

    /**
     * Forces every byte below {@code position} to disk, then publishes {@code position} as the flushed position.
     * A position at or below the flushed position is a no-op.
     *
     * @throws IOException when the fsync fails; the flushed position is then unchanged
     */
    void flushTo(long position) throws IOException;
}
