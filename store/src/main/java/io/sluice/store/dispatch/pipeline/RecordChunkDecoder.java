package io.sluice.store.dispatch.pipeline;

import io.sluice.store.DispatchEntry;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.log.RecordDescriptor;
import io.sluice.store.log.RecordParser;
import io.sluice.store.log.ScanResult;
import io.sluice.store.log.ScanStatus;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes a chunk record by record with {@link RecordParser}: the validation the serial dispatcher and recovery
 * apply (magic, lengths, recomputed size, position, and the body CRC when configured), and the same dispatch rules.
 *
 * <p>Per record:
 * <ul>
 *   <li>VALID, transaction type NOT or COMMIT: its queue is resolved and an entry added (queue offset, batch count,
 *       position, size, tags code, store time). A resolution that fails as invalid (bad topic or queue id, no known
 *       queue type) counts the record as unindexable; any other failure leaves the queue for the writer to resolve
 *       in order, which retries a consume-queue file that cannot be created, as the serial dispatcher does;</li>
 *   <li>VALID, transaction PREPARED or ROLLBACK: counted, never indexed (as upstream);</li>
 *   <li>the segment's blank record: ends the chunk;</li>
 *   <li>anything else is damage: decoding stops and the chunk records the position and the reason. The writer
 *       then skips the rest of the segment, the serial dispatcher's (and upstream's master) rule, so both
 *       dispatchers build identical consume queues from the same damaged log.</li>
 * </ul>
 * An exception from the parser counts as damage at that record, so this decoder cannot fail on bad bytes; it is
 * also the writer's fallback after a parse worker failed.
 *
 * <p>Thread-safe and stateless; per-thread state is in the {@link DecodeScratch}.
 */
final class RecordChunkDecoder implements ChunkDecoder {

    /** What the scratch buffer wraps between chunks, so it does not keep a mapping reachable. */
    private static final byte[] NO_BYTES = new byte[0];

    private final QueueResolver resolver;
    private final boolean checkCrc;

    RecordChunkDecoder(QueueResolver resolver, boolean checkCrc) {
        this.resolver = resolver;
        this.checkCrc = checkCrc;
    }

    @Override
    public void decode(Chunk chunk, DecodeScratch scratch) {
        chunk.clearEntries();
        scratch.touched.clear();
        UnsafeBuffer buffer = scratch.buffer;
        buffer.wrap(chunk.view);
        try {
            long end = chunk.endPosition;
            long position = chunk.startPosition;
            while (position < end) {
                ScanResult r;
                try {
                    r = RecordParser.parse(buffer, (int) (position - chunk.viewPosition), (int) (end - position),
                            (int) (chunk.segmentEndPosition - position), position, checkCrc);
                } catch (RuntimeException e) {
                    chunk.markDamage(position, "the record parser failed: " + e);
                    return;
                }
                if (r.status() == ScanStatus.VALID) {
                    add(chunk, scratch, r.entry());
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
        }
    }

    private void add(Chunk chunk, DecodeScratch scratch, DispatchEntry e) {
        int tx = RecordDescriptor.transactionType(e.sysFlag());
        if (tx == RecordDescriptor.TRANSACTION_PREPARED_TYPE || tx == RecordDescriptor.TRANSACTION_ROLLBACK_TYPE) {
            chunk.transactionSkipped++;
            return;
        }
        ConsumeQueue queue;
        try {
            queue = resolver.resolve(e.topic(), e.queueId());
        } catch (IllegalArgumentException | IllegalStateException invalid) {
            chunk.addUnindexable(e.position(), e.topic() + "-" + e.queueId() + ": " + invalid.getMessage());
            return;
        } catch (RuntimeException retryable) {
            queue = null; // e.g. leftover queue files that cannot be loaded: the writer resolves it again, in order
        }
        chunk.addEntry(queue, e.topic(), e.queueId(), e.queueOffset(), e.batchCount(), e.position(), e.sizeBytes(),
                e.tagsCode(), e.storeTimestampMs());
        if (queue != null && scratch.touched.add(queue)) {
            chunk.addTouched(queue);
        }
    }
}
