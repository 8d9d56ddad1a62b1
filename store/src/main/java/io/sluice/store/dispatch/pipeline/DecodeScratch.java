package io.sluice.store.dispatch.pipeline;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reusable per-thread state for decoding chunks, so that decoding allocates nothing per chunk.
 *
 * <p>Not thread-safe: one per decoding thread, and created on that thread. Its fields are written for every record,
 * so two decoders' scratches must not share cache lines; objects a thread allocates come from its own allocation
 * buffer, far from another thread's.
 */
final class DecodeScratch {

    /** Re-wrapped over each chunk's view. */
    final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    /** The queues touched by the chunk being decoded. */
    final QueueSet touched = new QueueSet();
    /** The queues resolved for the chunk being decoded, by topic and queue id. */
    final ChunkQueueCache queues = new ChunkQueueCache();
    /** Reads common records without allocating. */
    final FastRecordReader fast = new FastRecordReader();
}
