package io.sluice.store.dispatch.pipeline;

/**
 * A snapshot of the {@link PipelinedDispatcher}'s position, lag and counters. Counters that the serial dispatcher
 * also keeps have the same names and meaning.
 *
 * <p>Immutable; thread-safe. Counters are cumulative since the dispatcher was created and are read one by one, so
 * a snapshot taken while dispatch runs is not an atomic cut across them.
 *
 * @param dispatchedPosition everything below this CommitLog position is in the consume queues (or was skipped)
 * @param lagBytes           confirmed position − dispatched position, never negative
 * @param lagMs              now − store time of the last record dispatched while {@code lagBytes > 0}, else 0
 * @param chunks             chunks written, skipped ranges included
 * @param indexed            records that got a consume-queue slot
 * @param duplicates         records whose slot already existed (re-dispatch after recovery)
 * @param transactionSkipped PREPARED and ROLLBACK transaction records, which never get a slot
 * @param corrupt            places below the confirmed position without a valid record; each made dispatch skip
 *                           the rest of its segment (logged with the position)
 * @param skippedBytes       bytes stepped over without indexing: damaged segment rests and retention jumps
 * @param unindexable        valid records that cannot be indexed (invalid topic or queue id, unknown queue type,
 *                           a batch the queue's layout cannot hold); skipped and logged
 * @param inconsistent       records a consume queue refused as a gap or a conflict; skipped and logged
 * @param ioErrors           consume-queue file creations that failed; the record was retried
 * @param listenerErrors     exceptions thrown by arrival listeners
 * @param workerFailures     chunks whose parse worker failed; each was decoded again by the writer
 * @param unexpectedErrors   exceptions caught by the pipeline's loops (a bug); the pipeline went on
 * @param inlineChunks       chunks the reader decoded and wrote itself, the pipeline being idle (a lower-latency path)
 * @param hintedChunks       chunks the reader cut at a record boundary the appender noted
 *                           ({@link io.sluice.store.log.CommitLog#knownRecordBoundary}), without walking their records
 * @param assistedChunks     chunks an appending thread cut (and, when small, dispatched) itself, the pipeline
 *                           being idle ({@link PipelineSettings#appenderAssist})
 */
record PipelineStats(
        long dispatchedPosition,
        long lagBytes,
        long lagMs,
        long chunks,
        long indexed,
        long duplicates,
        long transactionSkipped,
        long corrupt,
        long skippedBytes,
        long unindexable,
        long inconsistent,
        long ioErrors,
        long listenerErrors,
        long workerFailures,
        long unexpectedErrors,
        long inlineChunks,
        long hintedChunks,
        long assistedChunks) {
}
