package io.sluice.store.log;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The end of the written log and the record boundary hints below it: where the appender hands records to readers
 * (pull, dispatch, replication; docs/storage.md#appending).
 *
 * <p>The rule: the writer writes a record's bytes, notes where its records start ({@link RecordBoundaryIndex}), and
 * only then stores the new end with release ({@link #publishRecord}, {@link #publishRecords}, {@link #publishCopy}).
 * A reader loads the end with acquire ({@link #visible()}) and may then read every byte below it; a boundary hint it
 * takes ({@link #knownRecordBoundary}) must lie at or below an end it loaded so. So no reader sees a position before
 * the bytes under it. Checked under jcstress by {@code RecordPublicationStress}.
 *
 * <p>Thread-safety: one writer, the CommitLog's append lock holder (or its single recovery caller); readers on any
 * thread.
 */
final class PublishedEnd {

    /** Position after the last byte written; stored with release, loaded with acquire by readers. */
    private final AtomicLong end = new AtomicLong();
    private final RecordBoundaryIndex boundaries;

    PublishedEnd(RecordBoundaryIndex boundaries) {
        this.boundaries = boundaries;
    }

    /** Writer: the end as the writer last set it. */
    long writerPosition() {
        return end.get();
    }

    /** Reader: the end (acquire); every byte below it is written and visible to the caller. */
    long visible() {
        return end.getAcquire();
    }

    /**
     * Writer: the bytes of one record (or a segment's blank end record) at {@code [start, newEnd)} are written; notes
     * its boundary, then publishes {@code newEnd}.
     */
    void publishRecord(long start, long newEnd) {
        boundaries.noteRecord(start, newEnd);
        end.setRelease(newEnd);
    }

    /**
     * Writer: the bytes of the records starting at {@code starts} (in order), which end at {@code newEnd}, are
     * written; notes their boundaries, then publishes {@code newEnd}.
     */
    void publishRecords(long[] starts, long newEnd) {
        for (int i = 0; i < starts.length; i++) {
            boundaries.noteRecord(starts[i], i + 1 < starts.length ? starts[i + 1] : newEnd);
        }
        end.setRelease(newEnd);
    }

    /**
     * Writer: whole records copied from another log are written up to {@code newEnd}; publishes it without hints
     * (the dispatcher walks the copied range).
     */
    void publishCopy(long newEnd) {
        end.setRelease(newEnd);
    }

    /** Writer: the log ends at {@code position}, a record boundary, after recovery (no hint is beyond it). */
    void restartAt(long position) {
        end.setRelease(position);
        boundaries.noteStart(position);
    }

    /** Writer: the log was truncated to {@code position}, a record boundary; hints beyond it are dropped. */
    void truncateTo(long position) {
        end.setRelease(position);
        boundaries.forgetAfter(position);
        boundaries.noteStart(position);
    }

    /** Any thread: see {@link RecordBoundaryIndex#chunkEnd}; {@code limit} at or below a {@link #visible()} end. */
    long knownRecordBoundary(long from, long limit, int maxBytes, int maxRecords) {
        return boundaries.chunkEnd(from, limit, maxBytes, maxRecords);
    }
}
