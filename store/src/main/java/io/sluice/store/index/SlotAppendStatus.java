package io.sluice.store.index;

/**
 * Outcome of {@link ConsumeQueue#append}. Only {@link #APPENDED} writes anything.
 *
 * <p>Immutable; thread-safe.
 */
public enum SlotAppendStatus {
    /** The slot was written and published to readers. */
    APPENDED,
    /**
     * The entry is already present (its offsets are below {@link ConsumeQueue#maxOffset()} and the stored slot
     * points at the same record, or has been trimmed away): re-dispatch after recovery is idempotent.
     */
    DUPLICATE,
    /** The entry's offset is beyond the next expected offset; nothing was written (no filler, no garbage). */
    GAP,
    /**
     * The entry contradicts what is stored: an offset already written points at a different record, the record
     * starts before the end of the last indexed record, or (BatchCQ) the batch straddles the current end.
     */
    CONFLICT,
    /** A new queue file could not be created; nothing was written and the queue is unchanged. Retry later. */
    IO_ERROR,
    /** The queue was closed or destroyed (for example its topic was deleted); nothing was written. */
    CLOSED
}
