package io.sluice.store.log;

import java.nio.ByteBuffer;

/**
 * The bytes of a record, or why there are none.
 *
 * <p>Immutable; thread-safe. The buffer is a read-only view of the segment mapping (no copy); it stays valid
 * even if retention deletes the segment afterwards (see {@link MappedSegment}).
 *
 * @param status FOUND or the reason
 * @param buffer FOUND: the bytes, position 0, limit = size; otherwise an empty buffer
 */
public record ReadResult(ReadStatus status, ByteBuffer buffer) {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    static ReadResult found(ByteBuffer buffer) {
        return new ReadResult(ReadStatus.FOUND, buffer);
    }

    static ReadResult missing(ReadStatus status) {
        return new ReadResult(status, EMPTY);
    }

    /** True when the bytes are returned. */
    public boolean isFound() {
        return status == ReadStatus.FOUND;
    }
}
