package io.sluice.store.log;

/**
 * Outcome of {@link CommitLog#readRecord(long, int)}.
 *
 * <p>Immutable; thread-safe.
 */
public enum ReadStatus {
    /** The bytes are returned. */
    FOUND,
    /** The position lies below the first segment: retention deleted it. */
    POSITION_DELETED,
    /** The range reaches beyond what is written. */
    BEYOND_END,
    /** Negative position, non-positive size, or a range crossing a segment end (no record does). */
    INVALID_RANGE
}
