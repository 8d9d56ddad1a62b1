package io.sluice.store.keyindex;

/**
 * A snapshot of the key index's position and counters.
 *
 * @param indexedPosition    position after the last record whose keys are indexed
 * @param files              index files on disk
 * @param keys               keys indexed since the store opened
 * @param skippedKeys        keys left out of records carrying more than the per-record maximum
 * @param skippedDamage      damaged places in the CommitLog skipped (as dispatch skips them)
 * @param filesDeleted       files deleted after retention removed their records
 * @param damagedFilesAtOpen files found damaged at open and rebuilt from the CommitLog
 * @param failures           duty cycles that failed (I/O)
 */
public record KeyIndexStats(long indexedPosition, int files, long keys, long skippedKeys,
                            long skippedDamage, long filesDeleted, int damagedFilesAtOpen, long failures) {
}
