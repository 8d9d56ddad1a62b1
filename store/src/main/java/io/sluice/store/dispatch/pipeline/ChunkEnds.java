package io.sluice.store.dispatch.pipeline;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;

/**
 * Where the dispatch reader ends a chunk (docs/dispatch.md#chunk-cutter): the chunk starts at a record boundary and
 * may take only bytes below a limit the caller loaded with acquire (the log's confirmed position, or the segment end
 * below it), which the appender published after writing them. It ends at the last boundary the appender noted within
 * {@code chunkBytes} and {@code maxRecords}, else where a walk of TOTALSIZE and MAGICCODE from its start stops. So
 * a chunk holds only whole records below the limit. Checked under jcstress by {@code ChunkEndsStress}. The walk reads
 * a copy of the bytes (see {@link ChunkCutter}), so it takes the whole records the copy holds.
 *
 * <p>Thread-safety: one instance per reader, used by the reader's turn holder (it keeps the outcome of the last
 * walk).
 */
final class ChunkEnds {

    private static final int MIN_RECORD_BYTES =
            (int) RecordDescriptor.recordBytes(0, RecordDescriptor.MAGIC_V1, 0, 0, 0);

    /** The appender's record boundary hints ({@code CommitLog#knownRecordBoundary}). */
    @FunctionalInterface
    interface Hints {
        /** The largest noted boundary in {@code (from, min(limit, from + maxBytes)]} within maxRecords, else -1. */
        long knownRecordBoundary(long from, long limit, int maxBytes, int maxRecords);
    }

    private final Hints hints;
    private final int chunkBytes;
    private final int maxRecords;
    /** Why the last walk found no whole record at its start; meaningful only after a walk that took nothing. */
    private String broken = "";
    /** Whether the last {@link #hint} found one. */
    private boolean hinted;
    /** After a walk that took nothing: the size of the first record when the bytes read hold only part of it. */
    private int needBytes;
    /** What the last {@link #end} read. */
    private ByteBuffer bytes;

    ChunkEnds(Hints hints, int chunkBytes, int maxRecords) {
        this.hints = hints;
        this.chunkBytes = chunkBytes;
        this.maxRecords = maxRecords;
    }

    /** Reads bytes of the log for the walk (the cutter: into the chunk's own buffer). */
    @FunctionalInterface
    interface Reader {
        /**
         * The {@code length} bytes of the log from the chunk's start, position 0, limit {@code length}; or null
         * when the log no longer holds them.
         */
        ByteBuffer read(int length);
    }

    /**
     * The end of the chunk of whole records that starts at {@code pos}, a record boundary, and the bytes it covers,
     * read through {@code reader} ({@link #bytes()}): the appender's hint, when the log holds more than a chunk from
     * there; else where a walk of TOTALSIZE and MAGICCODE through the first {@code chunkBytes} read stops (a first
     * record longer than that is read whole).
     *
     * @param limit      the caller's acquire-loaded limit, at most {@code segmentEnd}
     * @param segmentEnd the end of {@code pos}'s segment
     * @return the end, in {@code (pos, limit]}; {@code pos} when no whole record starts there (see {@link #broken});
     *         -1 when {@code reader} found the bytes gone
     */
    long end(long pos, long limit, long segmentEnd, Reader reader) {
        long available = limit - pos;
        long hint = available > chunkBytes ? hints.knownRecordBoundary(pos, limit, chunkBytes, maxRecords) : -1;
        hinted = hint > pos;
        if (hinted) {
            bytes = reader.read((int) (hint - pos));
            return bytes == null ? -1 : hint;
        }
        bytes = reader.read((int) Math.min(available, chunkBytes));
        if (bytes == null) {
            return -1;
        }
        needBytes = 0;
        int taken = walk(bytes, pos, bytes.limit(), (int) available, segmentEnd);
        if (taken == 0 && needBytes > 0) {
            bytes = reader.read(needBytes);
            if (bytes == null) {
                return -1;
            }
            taken = walk(bytes, pos, bytes.limit(), (int) available, segmentEnd);
        }
        return pos + taken;
    }

    /** The bytes the last {@link #end} read, from its {@code pos}, covering at least up to the end it returned. */
    ByteBuffer bytes() {
        return bytes;
    }

    /** Whether the last end came from a hint (nothing was walked). */
    boolean wasHinted() {
        return hinted;
    }

    /** Why the last {@link #end} returned its start: the damage the walk found there. */
    String broken() {
        return broken;
    }

    /**
     * Bytes of the whole records the walk from {@code pos} takes within {@code readBytes}; 0 when it finds damage at
     * once or the first record is longer than {@code readBytes}.
     */
    private int walk(ByteBuffer view, long pos, int readBytes, int available, long segmentEnd) {
        int at = 0;
        int records = 0;
        while (at < available) {
            int remaining = available - at;
            if (remaining < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
                broken = remaining + " bytes left before the end of the readable data, too few for a record";
                break;
            }
            if (readBytes - at < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
                break; // the next record's header lies past the bytes read: the next chunk starts there
            }
            int size = view.getInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET);
            int magic = view.getInt(at + RecordDescriptor.MAGIC_OFFSET);
            if (magic == RecordDescriptor.MAGIC_BLANK) {
                if (size != remaining || pos + at + size != segmentEnd) {
                    broken = "blank record TOTALSIZE " + size + " does not reach the segment end " + segmentEnd;
                    break;
                }
            } else if (!RecordDescriptor.isMessageMagic(magic)) {
                broken = "illegal magic 0x" + Integer.toHexString(magic);
                break;
            } else if (size < MIN_RECORD_BYTES || size > remaining) {
                broken = "TOTALSIZE " + size + " outside [" + MIN_RECORD_BYTES + ", " + remaining + "]";
                break;
            }
            if (size > readBytes - at) {
                if (at == 0) {
                    needBytes = size;
                }
                break;
            }
            at += size;
            records++;
            if (magic == RecordDescriptor.MAGIC_BLANK || at >= chunkBytes || records >= maxRecords) {
                break;
            }
        }
        return at;
    }
}
