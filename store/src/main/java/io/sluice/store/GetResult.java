package io.sluice.store;

import io.sluice.store.log.FileSpan;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What {@link MessageStore#getMessages} returns.
 *
 * <p>Immutable (the list is unmodifiable and every buffer is a read-only view); thread-safe. The buffers are
 * views of the CommitLog mapping, not copies: the bytes are the stored records, unchanged, ready to be sent as a
 * pull response body. They stay valid even if retention deletes the segment meanwhile.
 *
 * @param status       the outcome
 * @param nextOffset   where the consumer continues (the next pull's offset)
 * @param minOffset    the queue's min offset when the read started (0 for a missing queue)
 * @param maxOffset    the queue's max offset when the read started (0 for a missing queue)
 * @param records      the records, in queue order, each position 0 and limit = its TOTALSIZE
 * @param messageCount messages returned: BatchCQ records count their inner messages
 * @param totalBytes   sum of the records' sizes
 * @param spans        the same records as ranges of their segment files, one per record, for sending them from
 *                     the files (docs/storage.md#reading); empty when some record's file could not be opened
 */
public record GetResult(GetStatus status, long nextOffset, long minOffset, long maxOffset, List<ByteBuffer> records,
                        int messageCount, int totalBytes, List<FileSpan> spans) {

    public GetResult {
        records = List.copyOf(records);
        spans = List.copyOf(spans);
        if (!spans.isEmpty() && spans.size() != records.size()) {
            throw new IllegalArgumentException(spans.size() + " file spans for " + records.size() + " records");
        }
    }

    /** A result whose records are only views of the mapping. */
    public GetResult(GetStatus status, long nextOffset, long minOffset, long maxOffset, List<ByteBuffer> records,
                     int messageCount, int totalBytes) {
        this(status, nextOffset, minOffset, maxOffset, records, messageCount, totalBytes, List.of());
    }

    /** A result without records. */
    static GetResult empty(GetStatus status, long nextOffset, long minOffset, long maxOffset) {
        return new GetResult(status, nextOffset, minOffset, maxOffset, List.of(), 0, 0);
    }
}
