package io.sluice.store.dispatch.pipeline;

import java.util.concurrent.BlockingQueue;

/**
 * Where the reader sends a chunk it has cut. When the pipeline is idle (the chunk is the next one the writer will
 * take, so no worker is busy) and the chunk is small, the reader decodes it itself and puts it straight into the
 * ring: a trickle of messages then costs one thread hand-off (reader to writer) instead of two, which is most of
 * the dispatch latency on a loaded machine. Any other chunk goes to the parse workers' queue.
 *
 * <p>Reader thread only (it owns the decode scratch).
 */
final class ChunkRouter implements ChunkCutter.Sink {

    /** Largest chunk the reader decodes itself: about a millisecond of decoding. */
    static final int INLINE_MAX_BYTES = 256 * 1024;

    private final ParseWorker inline;
    private final BlockingQueue<Chunk> workQueue;
    private final OrderedRing<Chunk> ring;
    private final PipelineCounters counters;

    /**
     * @param inline    decodes on the calling thread (its {@link ParseWorker#run()} is never started)
     * @param workQueue the parse workers' queue, never full (the reader reserved a ring slot for the chunk)
     */
    ChunkRouter(ParseWorker inline, BlockingQueue<Chunk> workQueue, OrderedRing<Chunk> ring,
                PipelineCounters counters) {
        this.inline = inline;
        this.workQueue = workQueue;
        this.ring = ring;
        this.counters = counters;
    }

    @Override
    public void accept(Chunk chunk) throws InterruptedException {
        if (chunk.seq == ring.head() && chunk.lengthBytes() <= INLINE_MAX_BYTES) {
            inline.decode(chunk);
            counters.inlineChunks.incrementAndGet();
            ring.offer(chunk.seq, chunk, Long.MAX_VALUE); // its window is open: never waits
        } else {
            workQueue.add(chunk);
        }
    }
}
