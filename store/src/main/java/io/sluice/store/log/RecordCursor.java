package io.sluice.store.log;

/**
 * Walks the CommitLog record by record for dispatch, never past {@link CommitLog#confirmedPosition()}.
 *
 * <p>{@link #next()} returns VALID (and moves past the record), END_OF_SEGMENT (and moves to the next segment's
 * start), NO_MORE_DATA (stays; call again later), CORRUPT or POSITION_DELETED (stays; the caller decides).
 *
 * <p>Not thread-safe: owned by one dispatching thread.
 */
public final class RecordCursor {

    private final CommitLog log;
    private final boolean checkCrc;
    private final TopicCache topics = new TopicCache();
    private long position;

    RecordCursor(CommitLog log, long position, boolean checkCrc) {
        this.log = log;
        this.position = position;
        this.checkCrc = checkCrc;
    }

    /** Examines the record at {@link #position()} and advances past it when it is VALID or a blank. */
    public ScanResult next() {
        ScanResult r = log.scan(position, checkCrc, topics);
        if (r.status() == ScanStatus.VALID || r.status() == ScanStatus.END_OF_SEGMENT) {
            position = r.nextPosition();
        }
        return r;
    }

    /** Where the next record is expected. */
    public long position() {
        return position;
    }

    /** Moves to {@code newPosition}, which must be a record boundary. */
    public void seek(long newPosition) {
        this.position = newPosition;
    }
}
