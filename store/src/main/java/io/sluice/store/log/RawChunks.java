package io.sluice.store.log;

import io.sluice.format.RecordDescriptor;
import java.nio.ByteBuffer;

/**
 * Cuts a stretch of the log into a chunk of whole records for replication, by their TOTALSIZE fields alone (the
 * source log's own records below its written position are trusted; the copy verifies them when it recovers).
 *
 * <p>Stateless; thread-safe.
 */
final class RawChunks {

    private RawChunks() {
    }

    /**
     * Bytes of the whole records at the start of {@code view}: as many as fit {@code maxBytes}, and at least the
     * first one when it fits {@code availableBytes}; 0 when not even that (a TOTALSIZE that is not positive or runs
     * past the readable bytes).
     */
    static int wholeRecordBytes(ByteBuffer view, int availableBytes, int maxBytes) {
        int at = 0;
        while (availableBytes - at >= Integer.BYTES) {
            int size = view.getInt(at + RecordDescriptor.TOTAL_SIZE_OFFSET);
            if (size <= 0 || size > availableBytes - at || (at > 0 && at + size > maxBytes)) {
                break;
            }
            at += size;
            if (at >= maxBytes) {
                break;
            }
        }
        return at;
    }
}
