package io.sluice.store.dispatch;

/**
 * What a dispatcher did since it was created, in the counts the store reports ({@link io.sluice.store.StoreStats}).
 * Each implementation keeps finer counters of its own; this is the part they share.
 *
 * <p>Immutable. Counts are read one by one while dispatch runs, so a snapshot is not an atomic cut across them.
 *
 * @param indexed      records that got a consume-queue slot
 * @param corrupt      places below the confirmed position without a valid record (each skipped)
 * @param unindexable  valid records that cannot be indexed (skipped)
 * @param inconsistent records a consume queue refused as a gap or a conflict (skipped)
 * @param errors       consume-queue I/O failures, arrival-listener exceptions and unexpected exceptions
 */
public record DispatchTotals(long indexed, long corrupt, long unindexable, long inconsistent, long errors) {

    /** Nothing dispatched. */
    public static final DispatchTotals NONE = new DispatchTotals(0, 0, 0, 0, 0);

    /** The sum of this and {@code other}: recovery's re-dispatch plus the running dispatcher. */
    public DispatchTotals plus(DispatchTotals other) {
        return new DispatchTotals(indexed + other.indexed, corrupt + other.corrupt,
                unindexable + other.unindexable, inconsistent + other.inconsistent, errors + other.errors);
    }
}
