package io.sluice.store;

/**
 * What start-up recovery found and did.
 *
 * <p>Immutable; thread-safe.
 *
 * @param crashed               the abort marker was present: the previous run did not stop cleanly
 * @param checkpointPosition    the checkpoint read, -1 when there was none (or it was damaged)
 * @param fromPosition          where the CommitLog scan and the re-dispatch started
 * @param endPosition           end of the valid CommitLog data, now the log's written position
 * @param scannedRecords        valid records scanned from {@code fromPosition} to {@code endPosition}
 * @param truncatedSlots        consume-queue slots dropped because they pointed at or beyond {@code endPosition}
 * @param redispatchedRecords   records that got a consume-queue slot during recovery (slots the queues lacked)
 * @param durationMs            wall time of the recovery
 */
public record RecoveryReport(boolean crashed, long checkpointPosition, long fromPosition, long endPosition,
                             long scannedRecords, long truncatedSlots, long redispatchedRecords, long durationMs) {
}
