package io.sluice.store.dispatch.pipeline;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;

/**
 * Where the dispatch reader ends a chunk (docs/dispatch.md#chunk-cutter): the chunk starts at a record boundary and
 * may take only bytes below a limit the caller loaded with acquire (the log's confirmed position, or the segment end
 * below it), which the appender published after writing them. It ends at the last boundary the appender noted within
 * {@code chunkBytes} and {@code maxRecords}, else where a walk of TOTALSIZE and MAGICCODE from its start stops. So
 * a chunk holds only whole records below the limit. Checked under jcstress by {@code ChunkEndsStress}.
 *
 * <p>Thread-safety: one instance per reader, used by the reader's turn holder (it keeps the touch-ahead sink and the
 * reason of the last broken walk).
 */
final class ChunkEnds {

    private static final int MIN_RECORD_BYTES =
            (int) RecordDescriptor.recordBytes(0, RecordDescriptor.MAGIC_V1, 0, 0, 0);
    /**
     * How far ahead of the walk a byte is read. Each TOTALSIZE read depends on the previous one, so the walk
     * waits for one cache miss (and page walk) per record; an independent read 8 KiB ahead lets the processor
     * fetch later records in parallel.
     */
    static final int TOUCH_AHEAD_BYTES = 8192;

    /** The appender's record boundary hints ({@code CommitLog#knownRecordBoundary}). */
    @FunctionalInterface
    interface Hints {
        /** The largest noted boundary in {@code (from, min(limit, from + maxBytes)]} within maxRecords, else -1. */
        long knownRecordBoundary(long from, long limit, int maxBytes, int maxRecords);
    }

    private final Hints hints;
    private final int chunkBytes;
    private final int maxRecords;
    /** Why the last walk found no whole record at its start; meaningful only after {@link #end} returned its start. */
    private String broken = "";
    /** Whether the last {@link #end} came from a hint. */
    private boolean hinted;
    /** Sink for the touch-ahead reads, so that the compiler cannot drop them. */
    private int touched;

    ChunkEnds(Hints hints, int chunkBytes, int maxRecords) {
        this.hints = hints;
        this.chunkBytes = chunkBytes;
        this.maxRecords = maxRecords;
    }

    /**
     * The end of the chunk of whole records that starts at {@code pos}, a record boundary.
     *
     * @param view       the bytes from {@code pos} up to {@code limit}; read at its absolute indexes
     * @param limit      the caller's acquire-loaded limit, at most {@code segmentEnd}
     * @param segmentEnd the end of {@code pos}'s segment
     * @return the end, in {@code (pos, limit]}; or {@code pos} when no whole record starts there (see {@link #broken})
     */
    long end(ByteBuffer view, long pos, long limit, long segmentEnd) {
        int available = (int) (limit - pos);
        long hint = available > chunkBytes ? hints.knownRecordBoundary(pos, limit, chunkBytes, maxRecords) : -1;
        hinted = hint > pos;
        return hinted ? hint : pos + walk(view, pos, available, segmentEnd);
    }

    /** Whether the last {@link #end} came from a hint (the walk read nothing). */
    boolean wasHinted() {
        return hinted;
    }

    /** Why the last {@link #end} returned its start: the damage the walk found there. */
    String broken() {
        return broken;
    }

    /** Bytes of the whole records the walk from {@code pos} takes; 0 when it finds damage at once. */
    private int walk(ByteBuffer view, long pos, int available, long segmentEnd) {
        int at = 0;
        int records = 0;
        int touch = touched;
        while (at < available) {
            touch += view.get(Math.min(at + TOUCH_AHEAD_BYTES, available - 1));
            int remaining = available - at;
            if (remaining < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
                broken = remaining + " bytes left before the end of the readable data, too few for a record";
                break;
            }
            int size = view.getInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET);
            int magic = view.getInt(at + RecordDescriptor.MAGIC_OFFSET);
            if (magic == RecordDescriptor.MAGIC_BLANK) {
                if (size != remaining || pos + at + size != segmentEnd) {
                    broken = "blank record TOTALSIZE " + size + " does not reach the segment end " + segmentEnd;
                    break;
                }
                at += size;
                records++;
                break;
            }
            if (!RecordDescriptor.isMessageMagic(magic)) {
                broken = "illegal magic 0x" + Integer.toHexString(magic);
                break;
            }
            if (size < MIN_RECORD_BYTES || size > remaining) {
                broken = "TOTALSIZE " + size + " outside [" + MIN_RECORD_BYTES + ", " + remaining + "]";
                break;
            }
            at += size;
            records++;
            if (at >= chunkBytes || records >= maxRecords) {
                break;
            }
        }
        touched = touch;
        return at;
    }
}
