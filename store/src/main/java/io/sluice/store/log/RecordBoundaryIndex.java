package io.sluice.store.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Where records start, noted by the appender, so that the pipelined dispatcher's reader can cut chunks without
 * walking every record header (docs/storage.md#appending). Memory only: after a restart the recovered part of the
 * log is walked.
 *
 * <p>Granule {@code g} ({@code granuleBytes}, a power of two) lives in slot {@code g mod slots}, so the index covers
 * the newest {@code slots × granuleBytes} of the log ({@link #SLOTS} slots in the CommitLog; fewer in tests that
 * need the ring to wrap):
 * <pre>
 *   slot:    tag       granule number g, or -1 (empty, or being rewritten)
 *            start     first record boundary at or after g * granuleBytes
 *            before    records appended since the log was opened, before the record at start (never undercounts)
 * </pre>
 *
 * <p>Thread-safety: one writer, the appender holding the CommitLog's append lock ({@link #noteRecord},
 * {@link #noteStart}, {@link #forgetAfter}); truncation happens while nothing dispatches. Any thread may call
 * {@link #chunkEnd}: each slot is a seqlock (tag emptied, fields written, tag stored with release; a reader takes the
 * fields only if it read the same tag before and after them). A hint says nothing about visibility: callers accept
 * only boundaries at or below a position they read with acquire.
 */
final class RecordBoundaryIndex {

    /** Slots in the CommitLog's ring: its index covers the newest {@code SLOTS × granuleBytes} bytes of the log. */
    static final int SLOTS = 1 << 15;
    private static final long EMPTY = -1;
    private static final VarHandle TAGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int granuleShift;
    private final int slotMask;
    private final long[] tags;
    private final long[] starts;
    private final long[] before;
    /** Records noted since the log was opened. Writer only. */
    private long records;

    /** @param granuleBytes a power of two ({@link LogSettings#boundaryGranuleBytes()}) */
    RecordBoundaryIndex(int granuleBytes) {
        this(granuleBytes, SLOTS);
    }

    /**
     * @param granuleBytes a power of two
     * @param slots        a power of two: granules the index remembers
     */
    RecordBoundaryIndex(int granuleBytes, int slots) {
        if (Integer.bitCount(granuleBytes) != 1) {
            throw new IllegalArgumentException("granuleBytes must be a power of two, was " + granuleBytes);
        }
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, was " + slots);
        }
        this.granuleShift = Integer.numberOfTrailingZeros(granuleBytes);
        this.slotMask = slots - 1;
        this.tags = new long[slots];
        this.starts = new long[slots];
        this.before = new long[slots];
        Arrays.fill(tags, EMPTY);
    }

    /** Writer: appends continue at {@code position}, a record boundary (after recovery or truncation). */
    void noteStart(long position) {
        if ((position & granuleMask()) == 0) {
            put(position >>> granuleShift, position, records);
        }
    }

    /** Writer: a record (or a segment's blank end record) now covers {@code [start, end)}. */
    void noteRecord(long start, long end) {
        records++;
        // Every granule that begins in (start, end] has its first boundary at end.
        for (long g = (start >>> granuleShift) + 1; g <= end >>> granuleShift; g++) {
            put(g, end, records);
        }
    }

    /** Writer: the log was truncated to {@code position}; hints beyond it point at nothing now. */
    void forgetAfter(long position) {
        for (int slot = 0; slot < tags.length; slot++) {
            if (tags[slot] != EMPTY && starts[slot] > position) {
                TAGS.setOpaque(tags, slot, EMPTY); // a reader that read the old tag fails its second look
            }
        }
    }

    private void put(long granule, long start, long recordsBefore) {
        int slot = (int) (granule & slotMask);
        TAGS.setOpaque(tags, slot, EMPTY);
        VarHandle.storeStoreFence();
        starts[slot] = start;
        before[slot] = recordsBefore;
        TAGS.setRelease(tags, slot, granule);
    }

    /**
     * The largest known record boundary {@code e} with {@code from < e <= min(limit, from + maxBytes)} such that
     * {@code [from, e)} holds at most {@code maxRecords} records; -1 when the index cannot tell (granules not
     * noted, or already overwritten). Any thread.
     *
     * @param from  a record boundary
     * @param limit a record boundary the caller knows is written and visible
     */
    long chunkEnd(long from, long limit, int maxBytes, int maxRecords) {
        long first = from >>> granuleShift;
        int firstSlot = (int) (first & slotMask);
        long tag = (long) TAGS.getAcquire(tags, firstSlot);
        long base = before[firstSlot];
        long start = starts[firstSlot];
        VarHandle.acquireFence();
        // The first granule's boundary is at or before from (from is a boundary in it), so base bounds from below
        // the records before from.
        if (tag != first || (long) TAGS.getOpaque(tags, firstSlot) != first || start > from) {
            return -1;
        }
        long target = Math.min(limit, from + maxBytes);
        for (long g = target >>> granuleShift; g > first; g--) {
            int slot = (int) (g & slotMask);
            long t = (long) TAGS.getAcquire(tags, slot);
            long e = starts[slot];
            long n = before[slot];
            VarHandle.acquireFence();
            if (t != g || (long) TAGS.getOpaque(tags, slot) != g) {
                return -1;
            }
            if (e <= from) {
                return -1; // cannot happen with a consistent slot (e >= this granule's start > from); defensive
            }
            if (e <= target && n - base <= maxRecords) {
                return e;
            }
        }
        return -1;
    }

    private long granuleMask() {
        return (1L << granuleShift) - 1;
    }
}
