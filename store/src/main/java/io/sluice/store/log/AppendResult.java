package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import java.util.Objects;

/**
 * What an append did. For a refused append only {@link #status()} is meaningful (numbers are 0, ids empty).
 *
 * <p>Immutable; thread-safe ({@link #msgIds()} is computed on first use; a race computes the same string twice).
 */
public final class AppendResult {

    private static final long[] NO_POSITIONS = new long[0];
    private static final byte[] NO_HOST = new byte[0];

    private final AppendStatus status;
    private final long position;
    private final int wroteBytes;
    private final long queueOffset;
    private final int messageCount;
    private final long storeTimestampMs;
    private final byte[] storeHostBytes;
    /** Position of every record written; {@code null} when exactly one record was written, at {@link #position}. */
    private final long[] recordPositions;
    private String msgIds;

    private AppendResult(AppendStatus status, long position, int wroteBytes, long queueOffset, int messageCount,
                         long storeTimestampMs, byte[] storeHostBytes, long[] recordPositions) {
        this.status = Objects.requireNonNull(status, "status");
        this.position = position;
        this.wroteBytes = wroteBytes;
        this.queueOffset = queueOffset;
        this.messageCount = messageCount;
        this.storeTimestampMs = storeTimestampMs;
        this.storeHostBytes = storeHostBytes;
        this.recordPositions = recordPositions;
    }

    /** A refused append: nothing was written. Public so that the store façade can refuse before the log. */
    public static AppendResult refused(AppendStatus status) {
        return new AppendResult(status, 0, 0, 0, 0, 0, NO_HOST, NO_POSITIONS);
    }

    /**
     * A stored append.
     *
     * @param recordPositions one position per record written for an unpacked batch; {@code null} when the append
     *                        wrote one record (at {@code position}), which saves an array per append
     */
    static AppendResult stored(long position, int wroteBytes, long queueOffset, int messageCount,
                               long storeTimestampMs, byte[] storeHostBytes, long[] recordPositions) {
        return new AppendResult(AppendStatus.PUT_OK, position, wroteBytes, queueOffset, messageCount,
                storeTimestampMs, storeHostBytes, recordPositions);
    }

    /** The same result with another status (used to report the fsync outcome of a stored append). */
    AppendResult withStatus(AppendStatus newStatus) {
        return newStatus == status ? this : new AppendResult(newStatus, position, wroteBytes, queueOffset,
                messageCount, storeTimestampMs, storeHostBytes, recordPositions);
    }

    /** The outcome. */
    public AppendStatus status() {
        return status;
    }

    /** CommitLog position of the first record written. */
    public long position() {
        return position;
    }

    /** Bytes written, all records together. */
    public int wroteBytes() {
        return wroteBytes;
    }

    /** Position after the last record written. */
    public long nextPosition() {
        return position + wroteBytes;
    }

    /** Queue offset of the first message (the base offset of a batch). */
    public long queueOffset() {
        return queueOffset;
    }

    /** Messages stored: 1, the batch size, or an inner batch's INNER_NUM. */
    public int messageCount() {
        return messageCount;
    }

    /** Number of records written: 1, or the batch size for an unpacked batch. */
    public int recordCount() {
        return recordPositions == null ? 1 : recordPositions.length;
    }

    /**
     * Position of the {@code i}-th record written.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < recordCount()}
     */
    public long recordPosition(int i) {
        if (recordPositions == null) {
            Objects.checkIndex(i, 1);
            return position;
        }
        return recordPositions[i];
    }

    /** The STORETIMESTAMP written (shared by every record of a batch). */
    public long storeTimestampMs() {
        return storeTimestampMs;
    }

    /**
     * The offset message ids of the records written, comma-joined in order (one id unless unpacked batch);
     * empty for a refused append. This is the {@code msgId} of the send response.
     */
    public String msgIds() {
        String ids = msgIds;
        if (ids == null) {
            ids = recordPositions == null ? MessageIdDescriptor.offsetMsgId(storeHostBytes, position)
                    : MessageIdDescriptor.joinOffsetMsgIds(storeHostBytes, recordPositions);
            msgIds = ids;
        }
        return ids;
    }

    @Override
    public String toString() {
        return "AppendResult{" + status + ", position=" + position + ", wroteBytes=" + wroteBytes
                + ", queueOffset=" + queueOffset + ", messageCount=" + messageCount
                + ", storeTimestampMs=" + storeTimestampMs + '}';
    }
}
