package io.sluice.store.index;

/**
 * Why a read from a consume queue found a slot or did not.
 *
 * <p>Immutable; thread-safe.
 */
public enum SlotReadStatus {
    /** At least one slot was found. */
    FOUND,
    /** The offset is below {@link ConsumeQueue#minOffset()}: trimmed away (or filler before the first message). */
    BELOW_MIN,
    /** The offset is at or beyond {@link ConsumeQueue#maxOffset()}: not written yet. */
    BEYOND_MAX,
    /**
     * The queue changed under the read (a truncation, a trim that removed the file, or close); nothing was
     * returned. Re-read {@code minOffset()}/{@code maxOffset()} and retry.
     */
    UNAVAILABLE
}
