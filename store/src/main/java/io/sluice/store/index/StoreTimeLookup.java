package io.sluice.store.index;

/**
 * Reads a record's store time from the CommitLog, for SimpleCQ time searches (the 20-byte slot does not hold
 * it). Provided by the CommitLog owner.
 *
 * <p>Implementations must be thread-safe: pull and admin threads call it concurrently.
 */
@FunctionalInterface
public interface StoreTimeLookup {

    /**
     * The STORETIMESTAMP of the record at {@code position} (whose total size is {@code sizeBytes}), or a negative
     * value if the record is no longer readable (deleted by retention). Searches treat an unreadable record as
     * older than every timestamp.
     */
    long storeTimestampMs(long position, int sizeBytes);

    /** A lookup for stores without a CommitLog (tests, tools): every record reads as unreadable. */
    StoreTimeLookup NONE = (position, sizeBytes) -> -1L;
}
