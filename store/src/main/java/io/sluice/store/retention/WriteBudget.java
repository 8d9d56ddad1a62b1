package io.sluice.store.retention;

/**
 * How far the CommitLog may append before the next disk check: the rule that keeps the file system below the
 * refuse ratio ({@code diskSpaceWarningLevelRatio}) between two checks, so that the append path needs one
 * volatile read ({@link io.sluice.store.log.CommitLog#limitWritesTo}) and no system call.
 *
 * <pre>
 *   headroom = (refuseRatio - usedRatio) * totalBytes          what the file system may still take
 *   grant    = (headroom - allocatedAheadBytes) / 2            appends' share until the next check
 *   limit    = writtenPosition + grant                         appends ending above it get DISK_FULL
 * </pre>
 *
 * The bytes the log allocates ahead of its appends (zero-filled or pre-allocated segments) are taken off first;
 * half of the rest is left for what grows beside the log (consume queues, indexes, other writers on the same file
 * system) until the next check, which measures again. A budget under {@link #MIN_GRANT_BYTES} grants nothing:
 * the file system is at the ratio.
 *
 * <p>Stateless; thread-safe.
 */
final class WriteBudget {

    /** Below this, halving again would only let appends creep towards the ratio: refuse instead. */
    static final long MIN_GRANT_BYTES = 1L << 20;

    private WriteBudget() {
    }

    /**
     * The position appends may reach.
     *
     * @param writtenPosition     the log's end now
     * @param usedRatio           the used fraction of the file system now, 0..1
     * @param totalBytes          the file system's size
     * @param refuseRatio         the used fraction at which appends stop
     * @param allocatedAheadBytes the most the log may allocate ahead of its appends
     */
    static long writeLimit(long writtenPosition, double usedRatio, long totalBytes, double refuseRatio,
                           long allocatedAheadBytes) {
        double headroom = (refuseRatio - usedRatio) * Math.max(0, totalBytes);
        double grant = (headroom - allocatedAheadBytes) / 2;
        if (!(grant >= MIN_GRANT_BYTES)) {
            return writtenPosition;
        }
        return writtenPosition + (long) grant;
    }
}
