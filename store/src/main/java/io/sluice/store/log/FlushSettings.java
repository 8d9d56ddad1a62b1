package io.sluice.store.log;

import java.util.Objects;

/**
 * The flush agent's slice of the log settings. Validated once on construction.
 *
 * <p>Immutable; thread-safe.
 *
 * @param mode                    ASYNC or SYNC
 * @param flushIntervalMs         ASYNC: time between flush attempts (Apache {@code flushIntervalCommitLog}, 500)
 * @param flushMinPages           ASYNC: dirty 4 KiB pages needed before an interval flush forces
 *                                (Apache {@code flushCommitLogLeastPages}, 4); 0 forces whenever anything is dirty
 * @param flushThoroughIntervalMs ASYNC: at least this often everything dirty is forced regardless of
 *                                {@code flushMinPages} (Apache {@code flushCommitLogThoroughInterval}, 10 000)
 * @param syncFlushTimeoutMs      SYNC: how long an append waits for its fsync before it is answered
 *                                FLUSH_DISK_TIMEOUT (Apache {@code syncFlushTimeout}, 5 000)
 */
record FlushSettings(
        FlushMode mode,
        int flushIntervalMs,
        int flushMinPages,
        int flushThoroughIntervalMs,
        int syncFlushTimeoutMs) {

    /** The page size used for the {@code flushMinPages} arithmetic. */
    public static final int PAGE_BYTES = 4096;

    public FlushSettings {
        Objects.requireNonNull(mode, "mode");
        if (flushIntervalMs < 1) {
            throw new IllegalArgumentException("flushIntervalMs must be >= 1, was " + flushIntervalMs);
        }
        if (flushMinPages < 0) {
            throw new IllegalArgumentException("flushMinPages must be >= 0, was " + flushMinPages);
        }
        if (flushThoroughIntervalMs < 1) {
            throw new IllegalArgumentException(
                    "flushThoroughIntervalMs must be >= 1, was " + flushThoroughIntervalMs);
        }
        if (syncFlushTimeoutMs < 1) {
            throw new IllegalArgumentException("syncFlushTimeoutMs must be >= 1, was " + syncFlushTimeoutMs);
        }
    }
}
