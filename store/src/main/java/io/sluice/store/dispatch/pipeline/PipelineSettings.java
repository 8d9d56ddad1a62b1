package io.sluice.store.dispatch.pipeline;

/**
 * Settings of the {@link PipelinedDispatcher}, validated once at construction (the exception names the bad value).
 * They alone bound the pipeline's memory, whatever the producer rate: {@code ringSlots × maxRecordsPerChunk} decoded
 * entries of about 60 bytes; chunk bytes are views of the CommitLog mapping (docs/dispatch.md#chunk-cutter).
 *
 * <p>Immutable; thread-safe.
 *
 * @param chunkBytes         a chunk ends at the first record boundary at or after this many bytes, or the last noted
 *                           one before it (4 MiB); earlier at a segment end, at {@code maxRecordsPerChunk}, or at the
 *                           confirmed position while the pipeline is idle
 * @param maxRecordsPerChunk a chunk is cut after this many records (8192), bounding the decoded-entry memory
 * @param parseThreads       parse workers (default: one per processor; the reader and the writer cost a fraction of a
 *                           worker per record, so they share the processors)
 * @param ringSlots          chunks in flight between the reader and the writer (16); the reader waits beyond it
 * @param checkCrc           verify each record's BODYCRC while parsing (false, as Apache's reput); a mismatch is damage
 * @param inlineMaxBytes     largest chunk the reader decodes and writes itself while the pipeline is idle (256 KiB), so
 *                           a trickle of messages waits for no hand-off; 0 turns it off
 * @param appenderAssist     the appending thread dispatches its own records while the pipeline is idle and they fit
 *                           {@code inlineMaxBytes} (true), instead of waking a reader that would wait for a processor
 */
public record PipelineSettings(int chunkBytes, int maxRecordsPerChunk, int parseThreads, int ringSlots,
                               boolean checkCrc, int inlineMaxBytes, boolean appenderAssist) {

    public static final int DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
    public static final int DEFAULT_MAX_RECORDS_PER_CHUNK = 8192;
    public static final int DEFAULT_RING_SLOTS = 16;
    public static final int DEFAULT_INLINE_MAX_BYTES = 256 * 1024;
    /** Largest chunk accepted: 1 GiB, Apache's default segment size (a chunk never crosses a segment anyway). */
    public static final int MAX_CHUNK_BYTES = 1 << 30;
    /** Bounds the entry memory of one chunk (about 60 MB at this value). */
    public static final int MAX_RECORDS_PER_CHUNK_LIMIT = 1 << 20;
    public static final int MAX_PARSE_THREADS = 256;
    public static final int MAX_RING_SLOTS = 1024;

    public PipelineSettings {
        requireRange("chunkBytes", chunkBytes, 1, MAX_CHUNK_BYTES);
        requireRange("maxRecordsPerChunk", maxRecordsPerChunk, 1, MAX_RECORDS_PER_CHUNK_LIMIT);
        requireRange("parseThreads", parseThreads, 1, MAX_PARSE_THREADS);
        requireRange("ringSlots", ringSlots, 1, MAX_RING_SLOTS);
        requireRange("inlineMaxBytes", inlineMaxBytes, 0, MAX_CHUNK_BYTES);
    }

    /** With the default {@code appenderAssist} (on). */
    public PipelineSettings(int chunkBytes, int maxRecordsPerChunk, int parseThreads, int ringSlots,
                            boolean checkCrc, int inlineMaxBytes) {
        this(chunkBytes, maxRecordsPerChunk, parseThreads, ringSlots, checkCrc, inlineMaxBytes, true);
    }

    /** With the default {@code inlineMaxBytes} and {@code appenderAssist}. */
    public PipelineSettings(int chunkBytes, int maxRecordsPerChunk, int parseThreads, int ringSlots,
                            boolean checkCrc) {
        this(chunkBytes, maxRecordsPerChunk, parseThreads, ringSlots, checkCrc, DEFAULT_INLINE_MAX_BYTES);
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], was " + value);
        }
    }

    /** The defaults, with one parse worker per available processor. */
    public static PipelineSettings defaults() {
        return new PipelineSettings(DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORDS_PER_CHUNK, defaultParseThreads(),
                DEFAULT_RING_SLOTS, false);
    }

    /** One per available processor (at most {@value #MAX_PARSE_THREADS}). */
    public static int defaultParseThreads() {
        return Math.max(1, Math.min(MAX_PARSE_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    public PipelineSettings withChunkBytes(int value) {
        return new PipelineSettings(value, maxRecordsPerChunk, parseThreads, ringSlots, checkCrc, inlineMaxBytes,
                appenderAssist);
    }

    public PipelineSettings withMaxRecordsPerChunk(int value) {
        return new PipelineSettings(chunkBytes, value, parseThreads, ringSlots, checkCrc, inlineMaxBytes,
                appenderAssist);
    }

    public PipelineSettings withParseThreads(int value) {
        return new PipelineSettings(chunkBytes, maxRecordsPerChunk, value, ringSlots, checkCrc, inlineMaxBytes,
                appenderAssist);
    }

    public PipelineSettings withRingSlots(int value) {
        return new PipelineSettings(chunkBytes, maxRecordsPerChunk, parseThreads, value, checkCrc, inlineMaxBytes,
                appenderAssist);
    }

    public PipelineSettings withInlineMaxBytes(int value) {
        return new PipelineSettings(chunkBytes, maxRecordsPerChunk, parseThreads, ringSlots, checkCrc, value,
                appenderAssist);
    }

    public PipelineSettings withAppenderAssist(boolean value) {
        return new PipelineSettings(chunkBytes, maxRecordsPerChunk, parseThreads, ringSlots, checkCrc, inlineMaxBytes,
                value);
    }

    public PipelineSettings withCheckCrc(boolean value) {
        return new PipelineSettings(chunkBytes, maxRecordsPerChunk, parseThreads, ringSlots, value, inlineMaxBytes,
                appenderAssist);
    }
}
