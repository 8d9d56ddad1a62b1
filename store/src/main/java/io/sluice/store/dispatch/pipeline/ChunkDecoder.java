package io.sluice.store.dispatch.pipeline;

/**
 * Turns a {@link Chunk.Kind#RECORDS} chunk into consume-queue entries ({@link Chunk#addEntry}) and the list of
 * queues it touches.
 *
 * <p>A decoder may throw: the parse worker then marks the chunk failed and the writer decodes it again with the
 * record-by-record {@link RecordChunkDecoder}. Tests substitute failing decoders here.
 *
 * <p>Implementations must be thread-safe (one instance serves every worker); per-thread state goes in the
 * {@link DecodeScratch}.
 */
@FunctionalInterface
interface ChunkDecoder {

    void decode(Chunk chunk, DecodeScratch scratch);
}
