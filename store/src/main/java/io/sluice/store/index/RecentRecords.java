package io.sluice.store.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The newest records of one BatchCQ queue, in memory: each record's first queue offset, message count, CommitLog
 * position and size, for the last {@link #capacity()} records appended. A pull that wants records among them learns
 * where they lie without reading the log: a slot that spans other queues' records would otherwise make it read
 * every record header in the span, and the first read of each page through the mapping costs more than anything
 * else a pull does (docs/storage.md#reading).
 *
 * <p>Threads: one writer (the queue's writer: {@link #add}, {@link #clear}); any number of readers
 * ({@link #find}), lock-free. The writer fills the next entry, then publishes the count of entries written
 * (release); a reader loads the count (acquire), reads entries, then loads the count again and keeps only the
 * entries that the writer cannot have begun to overwrite meanwhile, and none below the last {@link #clear}.
 */
final class RecentRecords {

    private static final VarHandle WRITTEN;
    private static final VarHandle FLOOR;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WRITTEN = lookup.findVarHandle(RecentRecords.class, "written", long.class);
            FLOOR = lookup.findVarHandle(RecentRecords.class, "floor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    /** One more than {@link #capacity}: the entry the writer may be filling is never one a reader may use. */
    private final int slots;
    private final long[] baseOffsets;
    private final int[] counts;
    private final long[] positions;
    private final int[] sizes;
    /** Entries ever written; entry {@code s} lives at index {@code s % slots}. Written with release. */
    @SuppressWarnings("unused")
    private long written;
    /** Entries below this sequence number were cleared. Written with release. */
    @SuppressWarnings("unused")
    private long floor;

    RecentRecords(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        this.capacity = capacity;
        this.slots = capacity + 1;
        this.baseOffsets = new long[slots];
        this.counts = new int[slots];
        this.positions = new long[slots];
        this.sizes = new int[slots];
    }

    int capacity() {
        return capacity;
    }

    /**
     * Notes a record appended to the queue: its messages follow the last record's. Writer only.
     */
    void add(long baseOffset, int count, long position, int sizeBytes) {
        long s = (long) WRITTEN.getOpaque(this);
        int i = (int) (s % slots);
        baseOffsets[i] = baseOffset;
        counts[i] = count;
        positions[i] = position;
        sizes[i] = sizeBytes;
        WRITTEN.setRelease(this, s + 1);
    }

    /**
     * A copy of this memory with room for {@code newCapacity} records, holding the same records under the same
     * sequence numbers; the writer goes on with the copy once it has published it. Writer only.
     */
    RecentRecords grownTo(int newCapacity) {
        if (newCapacity < capacity) {
            throw new IllegalArgumentException("cannot shrink " + capacity + " records to " + newCapacity);
        }
        RecentRecords grown = new RecentRecords(newCapacity);
        long w = (long) WRITTEN.getOpaque(this);
        // Only what this memory keeps is copied: the copy's floor says so, rather than leaving empty entries.
        long floor = Math.max((long) FLOOR.getOpaque(this), w - capacity);
        for (long s = floor; s < w; s++) {
            int from = (int) (s % slots);
            int to = (int) (s % grown.slots);
            grown.baseOffsets[to] = baseOffsets[from];
            grown.counts[to] = counts[from];
            grown.positions[to] = positions[from];
            grown.sizes[to] = sizes[from];
        }
        grown.written = w;
        grown.floor = floor;
        return grown;
    }

    /**
     * Whether {@code from} lies below the oldest record kept, when this memory is full: a pull there needed more of
     * it. Any thread; a hint, read without checking for a concurrent overwrite.
     */
    boolean isBelowKept(long from) {
        long w = (long) WRITTEN.getAcquire(this);
        long oldest = w - capacity;
        return oldest >= (long) FLOOR.getAcquire(this) && from < baseOffsets[(int) (oldest % slots)];
    }

    /** Forgets every record noted so far (the queue was truncated). Writer only. */
    void clear() {
        FLOOR.setRelease(this, (long) WRITTEN.getOpaque(this));
    }

    /**
     * Gives {@code sink} the records whose messages lie in {@code [from, endOffset)}: the record holding
     * {@code from} and every later one starting below {@code endOffset}, all of them inside the byte range
     * {@code [rangeStart, rangeEnd)}; records back to back are given as one. Gives nothing unless every such record
     * is known here. Any thread.
     *
     * @param scratch the caller's, at least {@code 4 * capacity()} long
     * @return the first offset of the first record given, or -1 when nothing was given (ask the log)
     */
    long find(long from, long endOffset, long rangeStart, long rangeEnd, RecordRangeSink sink, long[] scratch) {
        long w1 = (long) WRITTEN.getAcquire(this);
        long oldest = Math.max((long) FLOOR.getAcquire(this), w1 - capacity);
        // Newest first, to the record holding from; scratch keeps {position, size, base, count} per record.
        int found = 0;
        long first = -1;
        for (long s = w1 - 1; s >= oldest && found < scratch.length / 4; s--) {
            int i = (int) (s % slots);
            long base = baseOffsets[i];
            int count = counts[i];
            scratch[found * 4] = positions[i];
            scratch[found * 4 + 1] = sizes[i];
            scratch[found * 4 + 2] = base;
            scratch[found * 4 + 3] = count;
            found++;
            if (base <= from) {
                first = base;
                if (from >= base + count) {
                    return -1; // from lies past every noted record: not ours to answer
                }
                break;
            }
        }
        if (first < 0) {
            return -1;
        }
        VarHandle.acquireFence(); // the entries were read before the count and floor below
        long w2 = (long) WRITTEN.getAcquire(this);
        long floor = (long) FLOOR.getAcquire(this);
        long oldestFound = w1 - found;
        // While the count is w2 the writer may be filling entry w2, over entry w2 - slots: older ones are suspect.
        if (oldestFound < floor || oldestFound <= w2 - slots) {
            return -1; // cleared or overwritten while read
        }
        // The records wanted: found-1 (holding from) up to the last starting below endOffset, which must reach it.
        int last = found - 1;
        long expectedBase = first;
        for (int k = found - 1; k >= 0 && scratch[k * 4 + 2] < endOffset; k--) {
            long position = scratch[k * 4];
            long size = scratch[k * 4 + 1];
            if (scratch[k * 4 + 2] != expectedBase || position < rangeStart || position + size > rangeEnd) {
                return -1; // not the queue's contiguous records inside the range: read the log instead
            }
            expectedBase += scratch[k * 4 + 3];
            last = k;
        }
        if (expectedBase < endOffset) {
            return -1; // the newest records are not noted yet
        }
        long runStart = scratch[(found - 1) * 4];
        long runEnd = runStart;
        for (int k = found - 1; k >= last; k--) {
            long position = scratch[k * 4];
            if (position != runEnd) {
                sink.record(runStart, (int) (runEnd - runStart));
                runStart = position;
            }
            runEnd = position + scratch[k * 4 + 1];
        }
        sink.record(runStart, (int) (runEnd - runStart));
        return first;
    }
}
