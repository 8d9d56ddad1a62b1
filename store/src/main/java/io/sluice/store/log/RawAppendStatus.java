package io.sluice.store.log;

/**
 * Outcome of {@link CommitLog#appendRaw}: copying another log's bytes to the same positions (replication).
 *
 * <p>Immutable; thread-safe.
 */
public enum RawAppendStatus {
    /** The bytes are written and published. */
    OK,
    /** The chunk does not start where this log ends (the source and the copy disagree on positions). */
    NOT_CONTIGUOUS,
    /** The chunk runs past the end of its segment (the source's segment size differs from this log's). */
    CROSSES_SEGMENT,
    /** The chunk is too short to hold a record, or does not start with one (no TOTALSIZE). */
    MALFORMED,
    /** The log is closed or has failed; nothing more is written. */
    NOT_WRITABLE,
    /** The disk is full; nothing was published, a later chunk may succeed. */
    DISK_FULL,
    /** The next segment was not ready in time; nothing was published. */
    SEGMENT_NOT_READY,
    /** A storage failure; the log refuses writes from now on. */
    IO_ERROR
}
