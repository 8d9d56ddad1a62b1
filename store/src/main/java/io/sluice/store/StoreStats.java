package io.sluice.store;

/**
 * A snapshot of the store's positions, health and counters. Values are read one by one, not atomically together.
 *
 * <p>Immutable; thread-safe.
 *
 * @param writtenPosition        end of the CommitLog (position after the last byte appended)
 * @param flushedPosition        position below which the CommitLog is durable
 * @param confirmedPosition      what dispatch may read: flushed (SYNC) or written (ASYNC)
 * @param dispatchedPosition     position below which every record has its consume-queue slot
 * @param dispatchLagBytes       confirmed minus dispatched position, 0 when caught up
 * @param dispatchLagMs          now minus the store time of the last record dispatched, while lagging
 * @param minPosition            the CommitLog's first position (older segments were deleted)
 * @param checkpointPosition     position of the last checkpoint written, -1 before the first
 * @param diskUsedRatio          used fraction of the CommitLog's file system at the last check, -1 if unknown
 * @param diskFull               appends are refused with DISK_FULL
 * @param writable               appends are accepted (open, no storage failure, disk not full)
 * @param appendedMessages       messages stored by this process (an unpacked batch counts its messages)
 * @param refusedAppends         appends refused or failed (any status other than PUT_OK/FLUSH_DISK_TIMEOUT)
 * @param indexedRecords         records dispatch gave a consume-queue slot (including recovery)
 * @param damagedLogPlaces       places where dispatch found no valid record below the confirmed position
 * @param unindexableRecords     valid records dispatch could not index (unknown topic, bad queue id or layout)
 * @param inconsistentRecords    records a consume queue refused as a gap or conflict
 * @param dispatchErrors         consume-queue I/O errors, listener failures and unexpected dispatch exceptions
 * @param deletedSegments        CommitLog segments deleted by retention
 * @param unreadBytesDeleted     CommitLog bytes forced retention deleted before every consumer group read them
 * @param checkpointFailures     checkpoints that could not be written
 * @param commitLogSegments      segments (files) of the CommitLog
 * @param commitLogMappedBytes   bytes of those segments, all mapped into memory
 * @param pageCacheReleasedBytes CommitLog bytes whose pages were handed back to the kernel
 *                               (docs/storage.md#commitlog-page-cache)
 */
public record StoreStats(
        long writtenPosition,
        long flushedPosition,
        long confirmedPosition,
        long dispatchedPosition,
        long dispatchLagBytes,
        long dispatchLagMs,
        long minPosition,
        long checkpointPosition,
        double diskUsedRatio,
        boolean diskFull,
        boolean writable,
        long appendedMessages,
        long refusedAppends,
        long indexedRecords,
        long damagedLogPlaces,
        long unindexableRecords,
        long inconsistentRecords,
        long dispatchErrors,
        long deletedSegments,
        long unreadBytesDeleted,
        long checkpointFailures,
        int commitLogSegments,
        long commitLogMappedBytes,
        long pageCacheReleasedBytes) {
}
