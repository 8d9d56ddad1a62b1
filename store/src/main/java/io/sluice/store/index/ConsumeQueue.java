package io.sluice.store.index;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;

/**
 * The index of one queue (topic, queueId): queue offset → CommitLog record, SimpleCQ (20-byte slot per message,
 * O(1) lookup) or BatchCQ (46-byte slot per record or run of records, O(log n) lookup); see
 * docs/storage.md#consume-queues. Obtain instances from {@link ConsumeQueueTable}. {@link #minOffset()} is the first
 * readable offset, {@link #maxOffset()} the next to be written; both only grow, except through
 * {@link #truncateFromPosition}.
 *
 * <p>Threads: {@link #append} and {@link #truncateFromPosition} by one writer at a time (the dispatcher, or recovery
 * while dispatch is stopped); reads by any thread, lock-free, seeing a slot only once all its bytes are written
 * (release/acquire on the published slot count); {@link #trimBelowPosition}, {@link #flush()}, {@link #close()} and
 * {@link #destroy()} by any thread, serialised with the writer's file creation on one internal lock.
 *
 * <p>Errors: expected outcomes are statuses ({@link SlotAppendStatus}, {@link SlotReadStatus}); bad arguments throw
 * {@link IllegalArgumentException} naming the value; a storage failure on a control path throws
 * {@link java.io.UncheckedIOException}.
 */
public interface ConsumeQueue {

    String topic();

    int queueId();

    ConsumeQueueType type();

    /**
     * Indexes one dispatched record. Allocation-free. The caller indexes only records consumers may see
     * (not transaction PREPARED or ROLLBACK records).
     *
     * @throws IllegalArgumentException if the entry belongs to another queue, or carries a batch this layout
     *                                  cannot hold (SimpleCQ: {@code batchCount != 1}; BatchCQ: above 32767)
     */
    SlotAppendStatus append(DispatchEntry entry);

    /**
     * Same as {@link #append(DispatchEntry)} for a dispatcher that decoded the record into primitives
     * (the topic and queue are this queue's).
     */
    SlotAppendStatus append(long queueOffset, int batchCount, long position, int sizeBytes, long tagsCode,
                        long storeTimestampMs);

    /**
     * Same as the primitive {@code append}, with the record's dispatch sequence number: how many records the
     * dispatcher has met before it, the other queues' included. A shared BatchCQ slot spans a bounded number of
     * records by it ({@link SlotSharing}); other queues ignore it.
     */
    default SlotAppendStatus append(long queueOffset, int batchCount, long position, int sizeBytes, long tagsCode,
                                    long storeTimestampMs, long record) {
        return append(queueOffset, batchCount, position, sizeBytes, tagsCode, storeTimestampMs);
    }

    /**
     * The slot holding {@code offset}; for BatchCQ an offset inside a batch returns the whole batch's slot.
     *
     * @throws IllegalArgumentException if {@code offset < 0}
     */
    SlotLookup lookup(long offset);

    /**
     * Reads consecutive slots starting with the one holding {@code offset}, up to {@code into.capacity()} slots
     * or the end of the written data. {@code into} is cleared first.
     *
     * @return {@link SlotReadStatus#FOUND} with at least one slot in {@code into}, or why there is none
     * @throws IllegalArgumentException if {@code offset < 0}
     */
    SlotReadStatus read(long offset, SlotBatch into);

    /** How many longs {@link #findRecent}'s scratch needs; 0 for a queue that keeps no recent records. */
    default int recentScratchLongs() {
        return 0;
    }

    /**
     * Where this queue's newest records lie, from memory, for a pull that would otherwise read their headers in the
     * log: gives {@code sink} the records whose messages lie in {@code [from, endOffset)} (the record holding
     * {@code from} and every later one starting below {@code endOffset}), all inside {@code [rangeStart, rangeEnd)},
     * records back to back as one range; or nothing, when they are not all known. Any thread.
     *
     * @param scratch the caller's, {@link #recentScratchLongs()} long
     * @return the first offset of the first record given, or -1 when nothing was given (read the log)
     */
    default long findRecent(long from, long endOffset, long rangeStart, long rangeEnd, RecordRangeSink sink,
                            long[] scratch) {
        return -1;
    }

    /** First readable offset. Equal to {@link #maxOffset()} when the queue holds nothing readable. */
    long minOffset();

    /** The next offset to be written (one past the last message indexed); 0 for a queue never written. */
    long maxOffset();

    /**
     * Offset search by store time, assuming store times do not decrease along the queue.
     *
     * @param firstAtOrAfter true: the first offset whose message was stored at or after {@code timestampMs}, or
     *                       {@link #maxOffset()} if none; false: the last offset stored at or before it, or
     *                       {@link #minOffset()} if none
     * @throws IllegalArgumentException if {@code timestampMs < 0}
     */
    long offsetByTimestamp(long timestampMs, boolean firstAtOrAfter);

    /** Store time of the message at {@link #minOffset()}, or -1 if the queue holds nothing readable. */
    long earliestStoreTimeMs();

    /**
     * End ({@code position + sizeBytes}) in the CommitLog of the last record indexed, 0 if none: recovery
     * re-dispatches CommitLog records from here.
     */
    long maxPhysicalEnd();

    /**
     * Where the slot that starts before {@code commitLogPosition} but reaches past it begins, or
     * {@link Long#MAX_VALUE} when there is none. Only a shared BatchCQ slot can (see
     * {@link IndexSettings#batchCqUnitMaxBytes()}): {@link #truncateFromPosition} drops it whole, so recovery
     * re-dispatches from its start. Writer thread only.
     */
    default long startOfSlotReachingPast(long commitLogPosition) {
        return Long.MAX_VALUE;
    }

    /**
     * Drops every slot whose record starts at or after {@code commitLogPosition} (the CommitLog was cut back to
     * it), so {@link #maxOffset()} becomes the offset of the first dropped message; with shared BatchCQ slots, also
     * the slot that reaches past it. Writer thread only.
     *
     * @return the number of slots dropped
     * @throws IllegalArgumentException if {@code commitLogPosition < 0}
     */
    long truncateFromPosition(long commitLogPosition);

    /**
     * Deletes whole leading files (never the newest) whose records all start below {@code minCommitLogPosition}
     * and raises {@link #minOffset()} to the first record at or above it ({@link #maxOffset()} if none). Any thread.
     *
     * @return the number of files deleted
     * @throws IllegalArgumentException if {@code minCommitLogPosition < 0}
     */
    int trimBelowPosition(long minCommitLogPosition);

    /** Forces written slots to the storage device. Any thread. */
    void flush();

    /**
     * Flushes, then unmaps the files; later appends return {@link SlotAppendStatus#CLOSED}, reads UNAVAILABLE.
     * Idempotent. The files are unmapped even if the flush fails (its exception is then thrown).
     */
    void close();

    /** Closes the queue and deletes its files and directory. */
    void destroy();
}
