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

    private final MappedSegment[] segments;
    private final int slotsPerSegment;
    private final int[] cachedFieldOffsets;
    /** {@code firstSlotValues[i * cachedFieldOffsets.length + f]}: field {@code f} of file {@code i}'s first slot. */
    private final long[] firstSlotValues;

    private SegmentTable(MappedSegment[] segments, int slotsPerSegment, int[] cachedFieldOffsets,
                         long[] firstSlotValues) {
        this.segments = segments;
        this.slotsPerSegment = slotsPerSegment;
        this.cachedFieldOffsets = cachedFieldOffsets;
        this.firstSlotValues = firstSlotValues;
    }

    static SegmentTable empty(int slotsPerSegment, int[] cachedFieldOffsets) {
        return new SegmentTable(new MappedSegment[0], slotsPerSegment, cachedFieldOffsets, new long[0]);
    }

    /**
     * Builds a snapshot, reading the cached fields from each file's first slot. Called by the log's owner with
     * the structure lock held, so every file is live. The first slot of a file that has none written yet reads
     * as zeros; the log rebuilds the table when that slot is published.
     */
    static SegmentTable of(MappedSegment[] segments, int slotsPerSegment, int[] cachedFieldOffsets) {
        long[] values = new long[segments.length * cachedFieldOffsets.length];
        for (int i = 0; i < segments.length; i++) {
            for (int f = 0; f < cachedFieldOffsets.length; f++) {
                values[i * cachedFieldOffsets.length + f] =
                        segments[i].buffer().getLong(cachedFieldOffsets[f], BatchConsumeQueueDescriptor.ORDER);
            }
        }
        return new SegmentTable(segments, slotsPerSegment, cachedFieldOffsets, values);
    }

    int size() {
        return segments.length;
    }

    boolean isEmpty() {
        return segments.length == 0;
    }

    MappedSegment segment(int index) {
        return segments[index];
    }

    MappedSegment last() {
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
        long index = relative / slotsPerSegment;
        return index < segments.length ? (int) index : -1;
    }

    /** Cached value of cached field number {@code field} (an index into the log's cached offsets) of file {@code index}. */
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

    SegmentTable withLast(MappedSegment segment) {
        MappedSegment[] grown = Arrays.copyOf(segments, segments.length + 1);
        grown[segments.length] = segment;
        return of(grown, slotsPerSegment, cachedFieldOffsets);
    }

    SegmentTable withFirst(int keepFrom) {
        return of(Arrays.copyOfRange(segments, keepFrom, segments.length), slotsPerSegment, cachedFieldOffsets);
    }

    SegmentTable withPrefix(int count) {
        return of(Arrays.copyOf(segments, count), slotsPerSegment, cachedFieldOffsets);
    }

    MappedSegment[] toArray() {
        return segments.clone();
    }
}
