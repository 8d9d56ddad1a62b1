package io.sluice.store.dispatch.pipeline;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A parse worker: takes chunks in the order they were cut, decodes each into its entries and offers it to the
 * {@link OrderedRing} under its sequence number. Workers finish in any order; the ring restores it.
 *
 * <p>A decoder failure never loses the chunk: it is logged with the chunk's range, recorded in the chunk, and the
 * chunk is offered anyway; the writer decodes it again record by record. The offer never waits, because the cutter
 * reserved the chunk's place in the ring before cutting it.
 *
 * <p>Thread-safety: {@link #parseNext()} on the worker's own thread (or, for the reader's inline worker,
 * {@link #decode} on the reader's); that thread owns the {@link DecodeScratch} and each chunk between taking it from
 * the queue and offering it to the ring.
 */
final class ParseWorker {

    private static final Logger LOG = LoggerFactory.getLogger(ParseWorker.class);

    private final BlockingQueue<Chunk> chunks;
    private final ChunkDecoder decoder;
    private final OrderedRing<Chunk> ring;
    private final PipelineControl control;
    /** Created by the first {@link #decode} call, on the thread that owns this worker (see {@link DecodeScratch}). */
    private DecodeScratch scratch;

    ParseWorker(BlockingQueue<Chunk> chunks, ChunkDecoder decoder, OrderedRing<Chunk> ring,
                PipelineControl control) {
        this.chunks = chunks;
        this.decoder = decoder;
        this.ring = ring;
        this.control = control;
    }

    /**
     * The worker thread's duty cycle: waits for the next chunk (at most {@link ChunkCutter#WAIT_SLICE_NS}, so a
     * stop is noticed), decodes it and offers it to the ring. Once halted it takes no chunk and only waits.
     *
     * @return 1 if a chunk was parsed, else 0
     */
    int parseNext() throws InterruptedException {
        if (control.isHalted()) {
            LockSupport.parkNanos(this, ChunkCutter.WAIT_SLICE_NS); // until the owner ends this thread
            return 0;
        }
        Chunk chunk = chunks.poll(ChunkCutter.WAIT_SLICE_NS, TimeUnit.NANOSECONDS);
        if (chunk == null) {
            return 0;
        }
        decode(chunk);
        ring.offer(chunk.seq, chunk, Long.MAX_VALUE);
        return 1;
    }

    /** Decodes one chunk; a failure is recorded in the chunk instead of thrown. */
    void decode(Chunk chunk) {
        if (scratch == null) {
            scratch = new DecodeScratch();
        }
        try {
            decoder.decode(chunk, scratch);
        } catch (RuntimeException | Error e) {
            // Even an Error: a chunk that never reaches the ring would stop dispatch for good.
            chunk.clearEntries();
            chunk.failure = e;
            LOG.warn("parse worker failed on {}; the writer decodes it again", chunk, e);
        }
    }
}
