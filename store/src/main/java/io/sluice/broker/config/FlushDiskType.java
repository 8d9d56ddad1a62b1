package io.sluice.broker.config;

/**
 * When a put is acknowledged relative to the CommitLog fsync ({@code flushDiskType}, Apache's values).
 *
 * <p>Immutable; thread-safe.
 */
public enum FlushDiskType {
    /** Acknowledge after the append; a background flush runs every {@code flushIntervalCommitLog} ms. */
    ASYNC_FLUSH,
    /** Acknowledge after the record is fsynced (group commit), or FLUSH_DISK_TIMEOUT after {@code syncFlushTimeout}. */
    SYNC_FLUSH
}
