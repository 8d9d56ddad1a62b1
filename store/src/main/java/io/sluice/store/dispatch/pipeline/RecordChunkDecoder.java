package io.sluice.store.dispatch.pipeline;

import io.sluice.store.DispatchEntry;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.log.RecordParser;
import io.sluice.store.log.ScanResult;
import io.sluice.store.log.ScanStatus;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes a chunk record by record with {@link RecordParser}, applying the validation of recovery and the serial
 * dispatcher and the same dispatch rules (docs/dispatch.md#parse-workers); the allocation-free
 * {@link FastRecordReader} reads common records first and leaves everything it does not accept to the parser.
 *
 * <p>Per record: valid and NOT or COMMIT: an entry (queue offset, batch count, position, size, tags code, store time);
 * a queue that fails to resolve as invalid counts the record unindexable, any other failure leaves the queue for the
 * writer to resolve in order. Valid PREPARED or ROLLBACK: counted, never indexed. The blank record ends the chunk.
 * Anything else is damage: decoding stops and the chunk records position and reason, so the writer skips the rest of
 * the segment. A parser exception counts as damage, so decoding cannot fail on bad bytes; this decoder is also the
 * writer's fallback after a worker failed.
 *
 * <p>Thread-safe and stateless; per-thread state is in the {@link DecodeScratch}.
 */
final class RecordChunkDecoder implements ChunkDecoder {

    /** What the scratch buffer wraps between chunks, so it does not keep a mapping reachable. */
    private static final byte[] NO_BYTES = new byte[0];

    private final QueueResolver resolver;
    private final boolean checkCrc;
    private final boolean fastPath;

    RecordChunkDecoder(QueueResolver resolver, boolean checkCrc) {
        this(resolver, checkCrc, true);
    }

    /**
     * @param fastPath read common records with the allocation-free {@link FastRecordReader} first (ignored, i.e.
     *                 off, when {@code checkCrc}); false makes every record go through {@link RecordParser}
     */
    RecordChunkDecoder(QueueResolver resolver, boolean checkCrc, boolean fastPath) {
        this.resolver = resolver;
        this.checkCrc = checkCrc;
        this.fastPath = fastPath && !checkCrc;
    }

    @Override
    public void decode(Chunk chunk, DecodeScratch scratch) {
        chunk.clearEntries(); // the scratch's queue set and cache were cleared when the last decode ended
        UnsafeBuffer buffer = scratch.buffer;
        buffer.wrap(chunk.view);
        try {
            long end = chunk.endPosition;
            long position = chunk.startPosition;
            FastRecordReader fast = scratch.fast;
            // The chunk's bytes are the reader's copy, read moments ago: no read-ahead.
            while (position < end) {
                int index = (int) (position - chunk.viewPosition);
                int readable = (int) (end - position);
                int toSegmentEnd = (int) (chunk.segmentEndPosition - position);
                if (fastPath) {
                    int size = readFast(fast, buffer, index, readable, toSegmentEnd, position);
                    if (size > 0) {
                        add(chunk, scratch, fast.topic, fast.queueId, fast.queueOffset, fast.batchCount, position,
                                size, fast.tagsCode, fast.storeTimestampMs, fast.sysFlag);
                        position += size;
                        continue;
                    }
                }
                ScanResult r;
                try {
                    r = RecordParser.parse(buffer, index, readable, toSegmentEnd, position, checkCrc);
                } catch (RuntimeException e) {
                    chunk.markDamage(position, "the record parser failed: " + e);
                    return;
                }
                if (r.status() == ScanStatus.VALID) {
                    DispatchEntry e = r.entry();
                    add(chunk, scratch, e.topic(), e.queueId(), e.queueOffset(), e.batchCount(), e.position(),
                            e.sizeBytes(), e.tagsCode(), e.storeTimestampMs(), e.sysFlag());
                    position = r.nextPosition();
                } else if (r.status() == ScanStatus.END_OF_SEGMENT) {
                    position = r.nextPosition();
                } else {
                    chunk.markDamage(position, r.reason().isEmpty() ? r.status().toString() : r.reason());
                    return;
                }
            }
        } finally {
            buffer.wrap(NO_BYTES);
            // Cleared here, not at the start: every decode ends here, and no queue stays reachable between chunks.
            scratch.queues.clear();
            scratch.touched.clear();
        }
    }

    /** The fast reader's answer; a bug there (an exception) only sends the record to the parser. */
    private static int readFast(FastRecordReader fast, UnsafeBuffer buffer, int index, int readable, int toSegmentEnd,
                                long position) {
        try {
            return fast.read(buffer, index, readable, toSegmentEnd, position);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private void add(Chunk chunk, DecodeScratch scratch, String topic, int queueId, long queueOffset, int batchCount,
                     long position, int sizeBytes, long tagsCode, long storeTimestampMs, int sysFlag) {
        int recordIndex = chunk.records++;
        int tx = RecordDescriptor.transactionType(sysFlag);
        if (tx == RecordDescriptor.TRANSACTION_PREPARED_TYPE || tx == RecordDescriptor.TRANSACTION_ROLLBACK_TYPE) {
            chunk.transactionSkipped++;
            return;
        }
        ConsumeQueue queue = scratch.queues.get(topic, queueId);
        if (queue == null) {
            try {
                queue = resolver.resolve(topic, queueId);
            } catch (IllegalArgumentException | IllegalStateException invalid) {
                chunk.addUnindexable(position, topic + "-" + queueId + ": " + invalid.getMessage());
                return;
            } catch (RuntimeException retryable) {
                queue = null; // e.g. leftover queue files that cannot be loaded: the writer resolves it again, in order
            }
            if (queue != null) {
                scratch.queues.put(topic, queueId, queue);
                if (scratch.touched.add(queue)) {
                    chunk.addTouched(queue);
                }
            }
        }
        chunk.addEntry(queue, topic, queueId, queueOffset, batchCount, position, sizeBytes, tagsCode,
                storeTimestampMs, recordIndex);
    }
}
