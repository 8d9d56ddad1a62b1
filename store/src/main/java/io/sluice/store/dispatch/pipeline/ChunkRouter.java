package io.sluice.store.dispatch.pipeline;

import java.util.concurrent.BlockingQueue;

/**
 * Where the reader sends a chunk it has cut. When the pipeline is idle (the chunk is the next one the writer will
 * take, so no worker is busy and the writer thread waits for it) and the chunk is small
 * ({@link PipelineSettings#inlineMaxBytes}), the reader decodes and writes it itself: a trickle of messages then
 * costs no thread hand-off at all, like the serial dispatcher, instead of two (reader to worker to writer), which
 * are most of the dispatch latency on a loaded machine. Any other chunk goes to the parse workers' queue. An
 * arrival listener told about an inline chunk runs on the reader, which cuts nothing meanwhile.
 *
 * <p>Used only by the holder of the reader's turn ({@link ChunkCutter}): the reader thread, or an appender that
 * assists; the turn guards the decode scratch.
 */
final class ChunkRouter implements ChunkCutter.Sink {

    private final ParseWorker inline;
    private final CqWriter writer;
    private final int inlineMaxBytes;
    private final BlockingQueue<Chunk> workQueue;
    private final OrderedRing<Chunk> ring;
    private final PipelineCounters counters;

    /**
     * @param inline    decodes on the calling thread (its {@link ParseWorker#parseNext()} is never run)
     * @param writer    writes an inline-decoded chunk on the calling thread ({@link CqWriter#writeInline})
     * @param inlineMaxBytes largest chunk handled inline ({@link PipelineSettings#inlineMaxBytes}; 0: none)
     * @param workQueue the parse workers' queue, never full (the reader reserved a ring slot for the chunk)
     */
    ChunkRouter(ParseWorker inline, CqWriter writer, int inlineMaxBytes, BlockingQueue<Chunk> workQueue,
                OrderedRing<Chunk> ring, PipelineCounters counters) {
        this.inline = inline;
        this.writer = writer;
        this.inlineMaxBytes = inlineMaxBytes;
        this.workQueue = workQueue;
        this.ring = ring;
        this.counters = counters;
    }

    @Override
    public void accept(Chunk chunk) throws InterruptedException {
        if (chunk.seq == ring.head() && chunk.lengthBytes() <= inlineMaxBytes) {
            // Every earlier chunk is written and released, so the writer thread waits for this one: stand in.
            inline.decode(chunk);
            counters.inlineChunks.incrementAndGet();
            writer.writeInline(chunk); // false only when halted: the pipeline is stopping anyway
        } else {
            workQueue.add(chunk);
        }
    }
}
