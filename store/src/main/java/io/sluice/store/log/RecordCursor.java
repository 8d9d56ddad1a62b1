package io.sluice.store.log;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Walks the CommitLog record by record for dispatch, never past {@link CommitLog#confirmedPosition()}.
 *
 * <p>{@link #next()} returns VALID (and moves past the record), END_OF_SEGMENT (and moves to the next segment's
 * start), NO_MORE_DATA (stays; call again later), CORRUPT or POSITION_DELETED (stays; the caller decides).
 *
 * <p>A cursor reads the log either through its mapping or, when made with a window
 * ({@link CommitLog#copyingCursor}), from a copy it refills a window at a time with positional reads of the file: a
 * reader that follows the whole log then touches no page of the mapping, whose first touch of each page costs more
 * than the copy (docs/storage.md#reading). A window only ever holds bytes that were confirmed when it was read, and is
 * dropped when the log has been truncated since, or the cursor seeks.
 *
 * <p>Not thread-safe: owned by one dispatching thread.
 */
public final class RecordCursor {

    private final CommitLog log;
    private final boolean checkCrc;
    private final TopicCache topics = new TopicCache();
    private long position;

    /** Copying cursors: the smallest window read at a time; 0 for a cursor that reads the mapping. */
    private final int windowBytes;
    /** The copy, grown for a record longer than {@link #windowBytes}; empty until the first read. */
    private ByteBuffer window = ByteBuffer.allocate(0);
    private final UnsafeBuffer windowView = new UnsafeBuffer(new byte[0]);
    /** The log's bytes {@code [windowStart, windowEnd)} are in the window. */
    private long windowStart;
    private long windowEnd;
    /** The log's truncation count when the window was read ({@link CommitLog#truncations()}). */
    private long windowTruncations;
    /** The last VALID record, as an index into the window, and its size; -1 when there is none. */
    private int lastIndex = -1;
    private int lastSize;

    RecordCursor(CommitLog log, long position, boolean checkCrc, int windowBytes) {
        if (windowBytes < 0) {
            throw new IllegalArgumentException("windowBytes must be >= 0, was " + windowBytes);
        }
        this.log = log;
        this.position = position;
        this.checkCrc = checkCrc;
        this.windowBytes = windowBytes;
    }

    /** Examines the record at {@link #position()} and advances past it when it is VALID or a blank. */
    public ScanResult next() {
        lastIndex = -1;
        ScanResult r = windowBytes == 0 ? log.scan(position, checkCrc, topics) : scanCopy();
        if (r.status() == ScanStatus.VALID || r.status() == ScanStatus.END_OF_SEGMENT) {
            position = r.nextPosition();
        }
        return r;
    }

    /**
     * The bytes of the record the last {@link #next()} found VALID, position 0 and limit its size: a view of the
     * copy (valid until the next call) for a copying cursor, else of the mapping.
     *
     * @throws IllegalStateException when the last {@link #next()} found no record
     */
    public ByteBuffer record() {
        if (windowBytes == 0) {
            throw new IllegalStateException("a cursor on the mapping keeps no record: read it from the log");
        }
        if (lastIndex < 0) {
            throw new IllegalStateException("the last step found no record at " + position);
        }
        return window.duplicate().position(lastIndex).limit(lastIndex + lastSize).slice();
    }

    private ScanResult scanCopy() {
        int segmentBytes = log.settings().segmentBytes();
        long segmentEnd = position - position % segmentBytes + segmentBytes;
        long confirmed = log.confirmedPosition();
        if (log.truncations() != windowTruncations || position < windowStart || position > windowEnd) {
            dropWindow(); // truncated since the window was read (bytes it holds may differ now), or moved away
        }
        long inLog = Math.min(confirmed, segmentEnd) - position;
        if (inLog < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
            return position < log.minPosition() ? ScanResult.positionDeleted(position)
                    : ScanResult.noMoreData(position);
        }
        if (windowEnd - position < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
            Optional<ScanResult> failed = fill((int) Math.min(inLog, windowBytes));
            if (failed.isPresent()) {
                return failed.get();
            }
        }
        int index = (int) (position - windowStart);
        int size = window.getInt(index + RecordDescriptor.TOTAL_SIZE_OFFSET);
        int magic = window.getInt(index + RecordDescriptor.MAGIC_OFFSET);
        if (magic != RecordDescriptor.MAGIC_BLANK && size > windowEnd - position && size <= inLog) {
            Optional<ScanResult> failed = fill((int) Math.min(inLog, Math.max(windowBytes, size)));
            if (failed.isPresent()) {
                return failed.get();
            }
            index = 0;
        }
        ScanResult r = RecordParser.parse(windowView, index, (int) (windowEnd - position),
                (int) (segmentEnd - position), position, checkCrc, topics);
        if (r.status() == ScanStatus.VALID) {
            lastIndex = index;
            lastSize = r.entry().sizeBytes();
        }
        return r;
    }

    /**
     * Reads {@code bytes} of the log from the cursor's position into the window.
     *
     * @return empty when read; else what the step found instead: POSITION_DELETED, or NO_MORE_DATA when a
     *         truncation ran during the read (try again)
     */
    private Optional<ScanResult> fill(int bytes) {
        if (window.capacity() < bytes) {
            window = ByteBuffer.allocateDirect(Math.max(bytes, windowBytes)).order(ByteOrder.BIG_ENDIAN);
        }
        window.clear().limit(bytes);
        long truncationsBefore = log.truncations();
        ReadStatus status = log.read(position, window);
        if (status != ReadStatus.FOUND || log.truncations() != truncationsBefore) {
            dropWindow();
            return Optional.of(status == ReadStatus.POSITION_DELETED ? ScanResult.positionDeleted(position)
                    : ScanResult.noMoreData(position));
        }
        window.flip();
        windowView.wrap(window, 0, bytes);
        windowStart = position;
        windowEnd = position + bytes;
        windowTruncations = truncationsBefore;
        return Optional.empty();
    }

    private void dropWindow() {
        windowStart = position;
        windowEnd = position;
    }

    /** Where the next record is expected. */
    public long position() {
        return position;
    }

    /** Moves to {@code newPosition}, which must be a record boundary. */
    public void seek(long newPosition) {
        this.position = newPosition;
        dropWindow();
        lastIndex = -1;
    }
}
