package io.sluice.store.retention;

/**
 * What one retention check saw and did.
 *
 * <p>Immutable; thread-safe.
 *
 * @param diskUsedRatio   used fraction of the CommitLog's file system, -1 when it could not be read
 * @param diskFull        appends are refused (the ratio is above {@code diskRefuseWriteRatio})
 * @param deletionDue     a deletion hour, or disk pressure, made segments eligible
 * @param forced          disk pressure allowed deleting segments that have not expired
 * @param deletedSegments CommitLog segments deleted
 * @param trimmedFiles    consume-queue files deleted by trimming
 * @param minPosition     the CommitLog's first position afterwards
 */
public record RetentionOutcome(double diskUsedRatio, boolean diskFull, boolean deletionDue, boolean forced,
                               int deletedSegments, int trimmedFiles, long minPosition) {
}
