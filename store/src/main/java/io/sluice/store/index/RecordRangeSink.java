package io.sluice.store.index;

/** Receives byte ranges of the CommitLog that hold records, in log order ({@link ConsumeQueue#findRecent}). */
@FunctionalInterface
public interface RecordRangeSink {

    /** The records in {@code [position, position + sizeBytes)}. */
    void record(long position, int sizeBytes);
}
