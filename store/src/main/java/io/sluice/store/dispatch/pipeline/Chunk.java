package io.sluice.store.dispatch.pipeline;

import io.sluice.store.index.ConsumeQueue;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One piece of the CommitLog on its way through the pipeline, and the slot its decoded entries live in.
 *
 * <p>A chunk covers {@code [startPosition, endPosition)}, which begins and ends on record boundaries and never
 * crosses a segment; when it ends with a segment's blank record, {@code endPosition} is the next segment's start.
 * A {@link Kind#SKIP} chunk covers bytes that are not dispatched (the damaged rest of a segment, or a range
 * retention deleted first): it carries no entries and only moves the dispatched position past them, in order.
 * A RECORDS chunk whose decoding met damage carries the entries before the damage and its position.
 *
 * <p>Entries are kept as parallel primitive arrays (no object per record) that grow on demand up to
 * {@link PipelineSettings#maxRecordsPerChunk()} and are reused for every chunk that passes through this slot.
 *
 * <p>Not thread-safe: owned by one thread at a time, handed over through synchronizing structures. The
 * {@link ChunkCutter} fills the descriptor, a {@link ParseWorker} (or the {@link CqWriter}'s fallback) fills the
 * entries, the {@link CqWriter} reads them (on the writer thread, or on the reader for a small chunk it handles
 * itself); the next cut into this slot happens only after the chunk was released or passed.
 */
final class Chunk {

    enum Kind {
        /** Records to decode and index. */
        RECORDS,
        /** Bytes to step over without indexing. */
        SKIP
    }

    private static final int INITIAL_CAPACITY = 64;
    /** Smallest copy buffer: an inline chunk of a few batches. */
    static final int MIN_COPY_BYTES = 64 * 1024;

    // ---- descriptor, written by the cutter
    long seq;
    Kind kind = Kind.RECORDS;
    long startPosition;
    long endPosition;
    long segmentEndPosition;
    /** RECORDS: the log's bytes from {@link #viewPosition}, covering at least up to endPosition. */
    ByteBuffer view;
    long viewPosition;
    /** This slot's copy of the log, which {@link #view} usually is ({@link #bytes}); grows, never shrinks. */
    private ByteBuffer copy;
    /** SKIP: why the bytes are skipped. */
    String skipReason = "";
    /** SKIP: the range starts at damage the cutter found (counted and logged by the writer). */
    boolean skipForDamage;

    // ---- decoded entries, written by the decoding thread
    int count;
    /**
     * Entries already appended by an inline write that gave the chunk to the writer thread
     * ({@link CqWriter#writeInline}); the writer goes on from there.
     */
    int appendedCount;
    ConsumeQueue[] queues = new ConsumeQueue[INITIAL_CAPACITY];
    long[] queueOffsets = new long[INITIAL_CAPACITY];
    int[] batchCounts = new int[INITIAL_CAPACITY];
    long[] positions = new long[INITIAL_CAPACITY];
    int[] sizes = new int[INITIAL_CAPACITY];
    long[] tagsCodes = new long[INITIAL_CAPACITY];
    long[] storeTimestamps = new long[INITIAL_CAPACITY];
    /** Each entry's index among the chunk's valid records (see {@link #records}). */
    int[] recordIndexes = new int[INITIAL_CAPACITY];
    /** Topic and queue id of each entry: the writer resolves the queue itself where {@code queues[i]} is null. */
    String[] topics = new String[INITIAL_CAPACITY];
    int[] queueIds = new int[INITIAL_CAPACITY];
    /** Distinct queues of the entries, in first-touch order: each is notified once for this chunk. */
    ConsumeQueue[] touched = new ConsumeQueue[INITIAL_CAPACITY];
    int touchedCount;
    /** Where decoding met the first invalid record, or -1; nothing at or after it was decoded. */
    long damagePosition = -1;
    /** Why the record at {@link #damagePosition} is invalid. */
    String damageReason = "";
    /**
     * Valid records decoded, the skipped ones included: a spanning BatchCQ slot is bounded by records met, whether
     * or not they got an entry, the same count the serial dispatcher keeps.
     */
    int records;
    /** Valid records not indexed by design: transaction PREPARED or ROLLBACK. */
    int transactionSkipped;
    /** Valid records that cannot be indexed (invalid topic or queue id, unknown queue type). */
    int unindexable;
    /** The first unindexable record of the chunk and why, for the log. */
    long unindexablePosition = -1;
    String unindexableReason = "";
    /** Set by a worker whose decoding threw; the writer then decodes the chunk again itself. */
    Throwable failure;

    /** Records that decoding met damage at {@code position}: the chunk's entries end before it. */
    void markDamage(long position, String reason) {
        damagePosition = position;
        damageReason = reason;
    }

    /** Counts a valid record that cannot be indexed, remembering the first one. */
    void addUnindexable(long position, String reason) {
        if (unindexable++ == 0) {
            unindexablePosition = position;
            unindexableReason = reason;
        }
    }

    boolean isDamaged() {
        return damagePosition >= 0;
    }

    /**
     * This slot's buffer for {@code length} bytes of the log, position 0 and limit {@code length}: direct memory, so
     * that a positional read fills it without a bounce copy; grown to the next power of two when too small, at least
     * {@link #MIN_COPY_BYTES}. Cutter only, before it describes the chunk.
     */
    ByteBuffer bytes(int length) {
        if (copy == null || copy.capacity() < length) {
            int capacity = Math.max(MIN_COPY_BYTES, length > 1 << 30 ? length : Integer.highestOneBit(length - 1) << 1);
            copy = ByteBuffer.allocateDirect(capacity);
        }
        return copy.clear().limit(length);
    }

    void describeRecords(long newSeq, long start, long end, long segmentEnd, ByteBuffer newView,
                         long newViewPosition) {
        seq = newSeq;
        kind = Kind.RECORDS;
        startPosition = start;
        endPosition = end;
        segmentEndPosition = segmentEnd;
        view = newView;
        viewPosition = newViewPosition;
        skipReason = "";
        skipForDamage = false;
        clearEntries();
    }

    void describeSkip(long newSeq, long start, long end, String reason, boolean damage) {
        seq = newSeq;
        kind = Kind.SKIP;
        startPosition = start;
        endPosition = end;
        segmentEndPosition = end;
        view = null;
        viewPosition = 0;
        skipReason = reason;
        skipForDamage = damage;
        clearEntries();
    }

    /** Forgets decoded entries and outcomes (before a first or a repeated decode). */
    void clearEntries() {
        Arrays.fill(queues, 0, count, null);
        Arrays.fill(topics, 0, count, null);
        Arrays.fill(touched, 0, touchedCount, null);
        count = 0;
        appendedCount = 0;
        touchedCount = 0;
        damagePosition = -1;
        damageReason = "";
        records = 0;
        transactionSkipped = 0;
        unindexable = 0;
        unindexablePosition = -1;
        unindexableReason = "";
        failure = null;
    }

    /** Drops the references that would keep a segment mapping or queues reachable while the slot is idle. */
    void releaseReferences() {
        clearEntries();
        view = null;
    }

    /** Adds an entry; {@code queue} is null when the writer must resolve it (a retryable failure). */
    void addEntry(ConsumeQueue queue, String topic, int queueId, long queueOffset, int batchCount, long position,
                  int sizeBytes, long tagsCode, long storeTimestampMs, int recordIndex) {
        if (count == queues.length) {
            grow();
        }
        int i = count++;
        queues[i] = queue;
        topics[i] = topic;
        queueIds[i] = queueId;
        queueOffsets[i] = queueOffset;
        batchCounts[i] = batchCount;
        positions[i] = position;
        sizes[i] = sizeBytes;
        tagsCodes[i] = tagsCode;
        storeTimestamps[i] = storeTimestampMs;
        recordIndexes[i] = recordIndex;
    }

    void addTouched(ConsumeQueue queue) {
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touched.length * 2);
        }
        touched[touchedCount++] = queue;
    }

    private void grow() {
        int capacity = queues.length * 2;
        queues = Arrays.copyOf(queues, capacity);
        topics = Arrays.copyOf(topics, capacity);
        queueIds = Arrays.copyOf(queueIds, capacity);
        queueOffsets = Arrays.copyOf(queueOffsets, capacity);
        batchCounts = Arrays.copyOf(batchCounts, capacity);
        positions = Arrays.copyOf(positions, capacity);
        sizes = Arrays.copyOf(sizes, capacity);
        tagsCodes = Arrays.copyOf(tagsCodes, capacity);
        storeTimestamps = Arrays.copyOf(storeTimestamps, capacity);
        recordIndexes = Arrays.copyOf(recordIndexes, capacity);
    }

    long lengthBytes() {
        return endPosition - startPosition;
    }

    @Override
    public String toString() {
        return "chunk " + seq + " " + kind + " [" + startPosition + ", " + endPosition + ")";
    }
}
