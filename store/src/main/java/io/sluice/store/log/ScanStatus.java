package io.sluice.store.log;

/**
 * What {@link RecordParser} found at a position.
 *
 * <p>Immutable; thread-safe.
 */
public enum ScanStatus {
    /** A valid message record; the next record starts right after it. */
    VALID,
    /** The end-of-segment blank record; the next record starts at the next segment's first byte. */
    END_OF_SEGMENT,
    /** Nothing (yet) at this position: zeros, or fewer bytes readable than the record needs. */
    NO_MORE_DATA,
    /** Bytes that are not a valid record: bad magic, inconsistent lengths, wrong position or CRC. */
    CORRUPT,
    /** The position lies below the log's first segment: retention deleted it. */
    POSITION_DELETED
}
