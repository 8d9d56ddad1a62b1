package io.sluice.store.dispatch.pipeline;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reusable per-thread state for decoding chunks, so that decoding allocates nothing per chunk.
 *
 * <p>Not thread-safe: one per decoding thread.
 */
final class DecodeScratch {

    /** Re-wrapped over each chunk's view. */
    final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);
    /** The queues touched by the chunk being decoded. */
    final QueueSet touched = new QueueSet();
    /** Sink for read-ahead touches, so that the compiler keeps them. */
    int touchSink;
    /** Reads common records without allocating. */
    final FastRecordReader fast = new FastRecordReader();
}
