package io.sluice.store.log;

/**
 * When an append is acknowledged relative to its fsync (Apache RocketMQ's {@code flushDiskType}).
 *
 * <p>Immutable; thread-safe.
 */
public enum FlushMode {
    /** Acknowledge at append; a background agent forces the log on an interval ({@code ASYNC_FLUSH}). */
    ASYNC,
    /** Acknowledge after the bytes are forced to disk, with group commit ({@code SYNC_FLUSH}). */
    SYNC
}
