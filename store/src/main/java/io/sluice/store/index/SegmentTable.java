package io.sluice.store.index;

import java.util.Arrays;

/**
 * An immutable snapshot of a queue's files, in slot order, with a cache of selected fields of each file's first
 * slot (for BatchCQ: position, store time and base offset), so that a search picks its file from heap memory
 * without touching the mappings of older, possibly cold, files.
 *
 * <p>Files are contiguous: file {@code i} starts at slot {@code firstStartSlot + i * slotsPerSegment}. Every file
 * but the last is full.
 *
 * <p>Immutable; thread-safe. Published by {@link SlotLog} through a volatile field.
 */
final class SegmentTable {

    private final SlotSegment[] segments;
    private final int slotsPerSegment;
    private final int[] cachedFieldOffsets;
    /** {@code firstSlotValues[i * cachedFieldOffsets.length + f]}: field {@code f} of file {@code i}'s first slot. */
    private final long[] firstSlotValues;

    private SegmentTable(SlotSegment[] segments, int slotsPerSegment, int[] cachedFieldOffsets,
                         long[] firstSlotValues) {
        this.segments = segments;
        this.slotsPerSegment = slotsPerSegment;
        this.cachedFieldOffsets = cachedFieldOffsets;
        this.firstSlotValues = firstSlotValues;
    }

    static SegmentTable empty(int slotsPerSegment, int[] cachedFieldOffsets) {
        return new SegmentTable(new SlotSegment[0], slotsPerSegment, cachedFieldOffsets, new long[0]);
    }

    /**
     * Builds a snapshot, reading the cached fields from each file's first slot. Called by the log's owner with
     * the structure lock held, so every file is live. The first slot of a file that has none written yet reads
     * as zeros; the log rebuilds the table when that slot is published.
     */
    static SegmentTable of(SlotSegment[] segments, int slotsPerSegment, int[] cachedFieldOffsets) {
        long[] values = new long[segments.length * cachedFieldOffsets.length];
        for (int i = 0; i < segments.length; i++) {
            readFirstSlot(segments, i, cachedFieldOffsets, values);
        }
        return new SegmentTable(segments, slotsPerSegment, cachedFieldOffsets, values);
    }

    int size() {
        return segments.length;
    }

    boolean isEmpty() {
        return segments.length == 0;
    }

    SlotSegment segment(int index) {
        return segments[index];
    }

    SlotSegment last() {
        return segments[segments.length - 1];
    }

    /** Start slot of the first file; 0 for an empty table. */
    long firstStartSlot() {
        return segments.length == 0 ? 0L : segments[0].startSlot();
    }

    /** End slot of the last file; 0 for an empty table. */
    long endSlot() {
        return segments.length == 0 ? 0L : segments[segments.length - 1].endSlot();
    }

    /** Index of the file holding {@code slot}, or -1 if no file of this snapshot holds it. */
    int indexOf(long slot) {
        if (segments.length == 0) {
            return -1;
        }
        long relative = slot - segments[0].startSlot();
        if (relative < 0) {
            return -1;
        }
        // A 32-bit division when it fits (always, short of 2^31 slots on disk): cheaper than a 64-bit one.
        long index = relative <= Integer.MAX_VALUE ? (int) relative / slotsPerSegment : relative / slotsPerSegment;
        return index < segments.length ? (int) index : -1;
    }

    /** Cached value of field number {@code field} (an index into the log's cached offsets) of file {@code index}. */
    long firstSlotValue(int index, int field) {
        return firstSlotValues[index * cachedFieldOffsets.length + field];
    }

    /** Position of {@code fieldOffset} in the cached-field list, or -1 if that field is not cached. */
    int cachedFieldIndex(int fieldOffset) {
        for (int f = 0; f < cachedFieldOffsets.length; f++) {
            if (cachedFieldOffsets[f] == fieldOffset) {
                return f;
            }
        }
        return -1;
    }

    /** This table plus {@code segment} at the end; reads only the new file's first slot. */
    SegmentTable withLast(SlotSegment segment) {
        SlotSegment[] grown = Arrays.copyOf(segments, segments.length + 1);
        grown[segments.length] = segment;
        long[] values = Arrays.copyOf(firstSlotValues, grown.length * cachedFieldOffsets.length);
        readFirstSlot(grown, segments.length, cachedFieldOffsets, values);
        return new SegmentTable(grown, slotsPerSegment, cachedFieldOffsets, values);
    }

    /** This table with the last file's first-slot values read again (its first slot was just written). */
    SegmentTable withLastReread() {
        long[] values = firstSlotValues.clone();
        readFirstSlot(segments, segments.length - 1, cachedFieldOffsets, values);
        return new SegmentTable(segments, slotsPerSegment, cachedFieldOffsets, values);
    }

    private static void readFirstSlot(SlotSegment[] files, int index, int[] cachedFieldOffsets, long[] values) {
        for (int f = 0; f < cachedFieldOffsets.length; f++) {
            values[index * cachedFieldOffsets.length + f] =
                    files[index].buffer().getLong(cachedFieldOffsets[f], BatchConsumeQueueDescriptor.ORDER);
        }
    }

    /** This table without its first {@code keepFrom} files; reads no mapping (older files may be cold). */
    SegmentTable withFirst(int keepFrom) {
        int k = cachedFieldOffsets.length;
        return new SegmentTable(Arrays.copyOfRange(segments, keepFrom, segments.length), slotsPerSegment,
                cachedFieldOffsets, Arrays.copyOfRange(firstSlotValues, keepFrom * k, segments.length * k));
    }

    /** The first {@code count} files; re-reads the new last one, whose slots a truncation may have zeroed. */
    SegmentTable withPrefix(int count) {
        SlotSegment[] kept = Arrays.copyOf(segments, count);
        long[] values = Arrays.copyOf(firstSlotValues, count * cachedFieldOffsets.length);
        if (count > 0) {
            readFirstSlot(kept, count - 1, cachedFieldOffsets, values);
        }
        return new SegmentTable(kept, slotsPerSegment, cachedFieldOffsets, values);
    }

}
