package io.sluice.store.index;

/**
 * How the store's previous run ended, which decides how much of each consume queue's newest file recovery reads.
 *
 * <p>Every slot file is full length from its creation, its unused tail a hole. After a {@link #CRASH} slots may have
 * been persisted past the first torn or missing one, so recovery reads and zeroes the whole rest of the newest file:
 * a page-cache fill of the file's unused length, once per queue. After a {@link #CLEAN} stop nothing lies past the
 * last valid slot (every truncation zeroed what it dropped, and the writer only appends), so recovery reads only up
 * to it: a topic of many queues opens in the time it takes to scan their slots, not their files' full length.
 */
public enum LastStop {
    /** The previous run closed the store cleanly (no abort marker). */
    CLEAN,
    /** The previous run did not close the store, or the stop is unknown. */
    CRASH
}
