package io.sluice.store.index;

import static io.sluice.store.index.BatchConsumeQueueDescriptor.BASE_OFFSET_OFFSET;
import static io.sluice.store.index.BatchConsumeQueueDescriptor.MAX_BATCH_COUNT;
import static io.sluice.store.index.BatchConsumeQueueDescriptor.POSITION_OFFSET;
import static io.sluice.store.index.BatchConsumeQueueDescriptor.SLOT_BYTES;
import static io.sluice.store.index.BatchConsumeQueueDescriptor.STORE_TIME_OFFSET;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BatchCQ: one 46-byte slot per CommitLog record, or per run of records ({@link BatchConsumeQueueDescriptor}),
 * carrying base offset, message count and store time. Lookups are O(log n): a binary search over the heap-cached first
 * slot of each file picks the file, another inside it picks the slot.
 *
 * <p>Shared slots ({@link IndexSettings#batchCqUnitMaxBytes()} above 0): a record that continues the last slot's
 * offsets and tags code joins it until it reaches the limit, so a consumer behind gets a unit per pull
 * (docs/storage.md#shared-batchcq-slots). It joins when it starts where the slot ends, or, with
 * {@link IndexSettings#batchCqSpanMaxBytes()} set, a bounded distance after it ({@link SlotSharing}): the slot's
 * size then covers other queues' records too, which readers skip ({@code SlotRecords}). The writer stores the
 * size, then (release fence) the count; readers load the count, then (acquire fence) the size, and return only the
 * records the count covers.
 *
 * <p>Thread safety: as {@link ConsumeQueue}. The writer publishes the slot count, then {@code maxOffset}, with
 * release stores; readers load {@code maxOffset}, then the count, with acquire. {@code min} changes only under the
 * log's structure lock.
 */
final class BatchConsumeQueue implements ConsumeQueue {

    /**
     * Records kept in memory per queue for pulls ({@link #findRecent}) at first: a consumer that keeps up asks for
     * the newest one or two, and a spanning slot holds at most {@link SlotSharing#SPAN_MAX_MESSAGES} messages. 16
     * entries of 24 bytes, about 4 MB for 10,000 queues.
     */
    static final int RECENT_RECORDS = 16;
    /**
     * Records kept at most per queue: the memory doubles, from the table's {@link RecentRecordsBudget}, each time a
     * pull wants a record older than it keeps. 2,048 records of 32 KiB are 64 MiB of a queue's log, a backlog of
     * seconds at the rates one queue takes.
     */
    static final int MAX_RECENT_RECORDS = 2048;

    private static final Logger LOG = LoggerFactory.getLogger(BatchConsumeQueue.class);
    private static final int[] CACHED_FIELDS = {POSITION_OFFSET, STORE_TIME_OFFSET, BASE_OFFSET_OFFSET};
    private static final VarHandle MAX_OFFSET;

    static {
        try {
            MAX_OFFSET = MethodHandles.lookup().findVarHandle(BatchConsumeQueue.class, "maxOffset", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** First readable slot and its base offset ({@code slot == count} and {@code offset == max} when empty). */
    private record MinMark(long slot, long offset) {
    }

    private final String topic;
    private final int queueId;
    private final SlotLog log;

    /** Written under the structure lock; read by anyone. */
    private volatile MinMark min = new MinMark(0, 0);
    /** Next offset to write. Writer stores with release; readers load with acquire. */
    private long maxOffset;
    /** End of the last indexed record, for the conflict check. Writer thread. */
    private long lastRecordEnd;
    /** The newest records, for pulls (writer adds and replaces it by a larger copy, anyone reads). */
    private volatile RecentRecords recent = new RecentRecords(RECENT_RECORDS);
    /** Set by a pull that wanted a record older than {@link #recent} keeps; the writer grows it and clears this. */
    private volatile boolean recentTooShort;
    /** Where more {@link #recent} memory comes from, and how much of it this queue holds (given back once). */
    private final RecentRecordsBudget recentBudget;
    private final AtomicInteger recentTaken = new AtomicInteger();
    /** True while file creation keeps failing, so the failure is logged once. Writer thread. */
    private boolean ioFailing;
    /** When records join the last slot. */
    private final SlotSharing sharing;
    // The last slot, while records may still join it (see the class comment). Writer thread.
    private boolean growable;
    private long lastSlotPosition;
    /** The slot's size: from its first record's start to its last record's end. */
    private int lastSlotSize;
    /** Bytes of the slot's own records (less than its size when it spans other queues' records). */
    private int lastSlotOwnBytes;
    private long lastSlotTagsCode;
    private int lastSlotCount;
    /** Dispatch sequence number of the slot's first record; negative when unknown. */
    private long lastSlotFirstRecord;

    private BatchConsumeQueue(String topic, int queueId, SlotLog log, SlotSharing sharing,
                              RecentRecordsBudget recentBudget) {
        this.topic = topic;
        this.queueId = queueId;
        this.log = log;
        this.sharing = sharing;
        this.recentBudget = recentBudget;
    }

    /**
     * Opens (or prepares, if {@code directory} holds no file) the queue and recovers its tail: the last
     * {@code recoveryScanFiles} files are scanned and everything from the first invalid slot on is dropped (read and
     * zeroed to the end of the newest file after a {@link LastStop#CRASH}; see {@link LastStop}).
     *
     * @throws IOException naming the file if the files cannot be mapped or are inconsistent
     */
    static BatchConsumeQueue open(String topic, int queueId, Path directory, int slotsPerFile,
                                  int recoveryScanFiles, SlotSharing sharing, RecentRecordsBudget recentBudget,
                                  LastStop lastStop) throws IOException {
        SlotLog log = SlotLog.open(directory, SLOT_BYTES, slotsPerFile, CACHED_FIELDS);
        BatchConsumeQueue queue = new BatchConsumeQueue(topic, queueId, log, sharing, recentBudget);
        try {
            queue.recover(recoveryScanFiles, lastStop);
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
        return queue;
    }

    private void recover(int recoveryScanFiles, LastStop lastStop) {
        if (!log.hasFiles()) {
            return;
        }
        SegmentTable table = log.table();
        long end = log.count();
        long slot = table.segment(Math.max(0, table.size() - recoveryScanFiles)).startSlot();
        long expectedBase = -1;
        long previousEnd = -1;
        for (; slot < end; slot++) {
            SlotSegment segment = table.segment(table.indexOf(slot));
            UnsafeBuffer buffer = segment.buffer();
            int at = segment.byteIndex(slot);
            if (!BatchConsumeQueueDescriptor.isWellFormed(buffer, at)) {
                break;
            }
            long base = BatchConsumeQueueDescriptor.baseOffset(buffer, at);
            long position = BatchConsumeQueueDescriptor.position(buffer, at);
            if ((expectedBase >= 0 && base != expectedBase) || position < previousEnd) {
                break;
            }
            expectedBase = base + BatchConsumeQueueDescriptor.batchCount(buffer, at);
            previousEnd = position + BatchConsumeQueueDescriptor.size(buffer, at);
        }
        if (log.recoverEnd(slot, lastStop)) {
            LOG.warn("batch consume queue {}-{}: valid slots end at slot {}: dropped stale or torn slots after it",
                    topic, queueId, slot);
        }
        long first = log.firstSlot();
        if (slot > first) {
            MAX_OFFSET.setRelease(this, slotEndOffset(slot - 1));
            min = new MinMark(first, log.readLong(first, BASE_OFFSET_OFFSET));
            lastRecordEnd = recordEnd(slot - 1);
        } else {
            min = new MinMark(first, 0);
        }
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public int queueId() {
        return queueId;
    }

    @Override
    public ConsumeQueueType type() {
        return ConsumeQueueType.BATCH;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writer

    @Override
    public SlotAppendStatus append(DispatchEntry entry) {
        Entries.requireThisQueue(entry, topic, queueId);
        return append(entry.queueOffset(), entry.batchCount(), entry.position(), entry.sizeBytes(),
                entry.tagsCode(), entry.storeTimestampMs());
    }

    @Override
    public SlotAppendStatus append(long queueOffset, int batchCount, long position, int sizeBytes, long tagsCode,
                               long storeTimestampMs) {
        return append(queueOffset, batchCount, position, sizeBytes, tagsCode, storeTimestampMs, -1);
    }

    @Override
    public SlotAppendStatus append(long queueOffset, int batchCount, long position, int sizeBytes, long tagsCode,
                               long storeTimestampMs, long record) {
        Entries.requireValid(queueOffset, batchCount, position, sizeBytes);
        if (batchCount > MAX_BATCH_COUNT) {
            throw new IllegalArgumentException("BatchCQ " + topic + "-" + queueId + " holds at most "
                    + MAX_BATCH_COUNT + " messages per record, got batchCount " + batchCount);
        }
        if (log.isClosed()) {
            log.releaseWriter();
            return SlotAppendStatus.CLOSED;
        }
        long next = (long) MAX_OFFSET.get(this);
        long slot = log.writerCount();
        boolean empty = slot == log.firstSlot();
        if (empty) {
            if (queueOffset < next) {
                return SlotAppendStatus.DUPLICATE; // below a queue emptied by truncation: nothing left to compare
            }
        } else if (queueOffset != next) {
            if (queueOffset > next) {
                return SlotAppendStatus.GAP;
            }
            return queueOffset + batchCount <= next
                    ? duplicateOrConflict(queueOffset, batchCount, position, sizeBytes)
                    : SlotAppendStatus.CONFLICT; // the batch straddles the current end
        }
        if (position < lastRecordEnd) {
            return SlotAppendStatus.CONFLICT;
        }
        if (growable && !empty && sharing.joins(lastSlotTagsCode, lastSlotPosition, lastSlotPosition + lastSlotSize,
                lastSlotOwnBytes, lastSlotCount, lastSlotFirstRecord, tagsCode, position, sizeBytes, batchCount,
                record)) {
            return grow(slot - 1, position, sizeBytes, batchCount, queueOffset);
        }
        SlotAppendStatus written = writeSlot(position, sizeBytes, tagsCode, storeTimestampMs, queueOffset, batchCount);
        if (written == SlotAppendStatus.APPENDED) {
            growable = sizeBytes < sharing.unitMaxBytes();
            lastSlotPosition = position;
            lastSlotSize = sizeBytes;
            lastSlotOwnBytes = sizeBytes;
            lastSlotTagsCode = tagsCode;
            lastSlotCount = batchCount;
            lastSlotFirstRecord = record;
        }
        return written;
    }

    /** Adds a record to the last slot, in the order the class comment gives. */
    private SlotAppendStatus grow(long slot, long position, int sizeBytes, int batchCount, long queueOffset) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            growable = false;
            return SlotAppendStatus.CLOSED;
        }
        try {
            lastSlotSize = (int) (position + sizeBytes - lastSlotPosition);
            lastSlotOwnBytes += sizeBytes;
            lastSlotCount += batchCount;
            BatchConsumeQueueDescriptor.grow(segment.buffer(), segment.byteIndex(slot), lastSlotSize, lastSlotCount);
        } finally {
            segment.release();
        }
        lastRecordEnd = lastSlotPosition + lastSlotSize;
        noteRecent(queueOffset, batchCount, position, sizeBytes); // before readers can see the offsets
        MAX_OFFSET.setRelease(this, queueOffset + batchCount);
        return SlotAppendStatus.APPENDED;
    }

    /** Notes a record in {@link #recent}, first growing it when a pull asked for more. Writer thread. */
    private void noteRecent(long queueOffset, int batchCount, long position, int sizeBytes) {
        RecentRecords current = recent;
        if (recentTooShort) {
            recentTooShort = false;
            int capacity = current.capacity();
            if (capacity < MAX_RECENT_RECORDS && recentBudget.take(capacity)) {
                recentTaken.addAndGet(capacity);
                RecentRecords old = current;
                current = old.grownTo(capacity * 2);
                recent = current; // publishes the copy's entries
                old.clear(); // a reader still on the old copy asks the log: a truncation clears only the new one
                if (log.isClosed()) {
                    giveBackRecent(); // closed meanwhile: the closer may have given back before this take
                }
            }
        }
        current.add(queueOffset, batchCount, position, sizeBytes);
    }

    private SlotAppendStatus writeSlot(long position, int sizeBytes, long tagsCode, long storeTimestampMs,
                                   long queueOffset, int batchCount) {
        long slot = log.writerCount();
        boolean empty = slot == log.firstSlot();
        SlotSegment segment;
        try {
            segment = log.hasFiles() || log.startAt(0) ? log.segmentForAppend(slot) : null;
        } catch (IOException e) {
            return ioError(e);
        }
        if (segment == null) {
            return SlotAppendStatus.CLOSED;
        }
        ioFailing = false;
        BatchConsumeQueueDescriptor.write(segment.buffer(), segment.byteIndex(slot), position, sizeBytes, tagsCode,
                storeTimestampMs, queueOffset, batchCount);
        lastRecordEnd = position + sizeBytes;
        if (empty) {
            setMin(new MinMark(slot, queueOffset));
        }
        noteRecent(queueOffset, batchCount, position, sizeBytes); // before readers can see the slot
        log.publish(slot + 1);
        MAX_OFFSET.setRelease(this, queueOffset + batchCount); // after the count: readers load max first
        return SlotAppendStatus.APPENDED;
    }

    /**
     * An entry below the end: a duplicate when a slot already covers exactly its offsets and bytes, alone or as
     * part of a shared slot (re-dispatch may meet records that a shared slot holds together), or when it lies below
     * what retention or truncation left.
     */
    private SlotAppendStatus duplicateOrConflict(long queueOffset, int batchCount, long position, int sizeBytes) {
        long first = log.firstSlot();
        long count = log.writerCount();
        long slot = log.lowerBound(first, count, BASE_OFFSET_OFFSET, queueOffset, false);
        if (slot >= count || log.readLong(slot, BASE_OFFSET_OFFSET) != queueOffset) {
            slot--; // the slot that starts below the offset may hold it
        }
        if (slot >= first && slot < count) {
            long base = log.readLong(slot, BASE_OFFSET_OFFSET);
            long slotPosition = log.readLong(slot, POSITION_OFFSET);
            long endOffset = slotEndOffset(slot);
            long end = recordEnd(slot);
            // Inside the slot's offsets and bytes, starting at its start exactly when it starts at its first record,
            // and ending at its end exactly when it ends at its last.
            boolean covered = base <= queueOffset && queueOffset + batchCount <= endOffset
                    && slotPosition <= position && position + sizeBytes <= end
                    && (base == queueOffset) == (slotPosition == position)
                    && (queueOffset + batchCount == endOffset) == (position + sizeBytes == end);
            if (base <= queueOffset && queueOffset < endOffset) {
                return covered ? SlotAppendStatus.DUPLICATE : SlotAppendStatus.CONFLICT;
            }
        }
        return queueOffset < min.offset() ? SlotAppendStatus.DUPLICATE : SlotAppendStatus.CONFLICT;
    }

    private SlotAppendStatus ioError(IOException e) {
        if (!ioFailing) {
            ioFailing = true;
            LOG.error("batch consume queue {}-{}: cannot create a file in {}; appends fail until it can",
                    topic, queueId, log.directory(), e);
        }
        return SlotAppendStatus.IO_ERROR;
    }

    @Override
    public long startOfSlotReachingPast(long commitLogPosition) {
        Entries.requirePosition(commitLogPosition);
        if (sharing.unitMaxBytes() == 0 || log.isClosed() || !log.hasFiles()) {
            return Long.MAX_VALUE;
        }
        long cut = firstSlotToCut(commitLogPosition);
        long start = cut < log.writerCount() ? log.readLong(cut, POSITION_OFFSET) : Long.MAX_VALUE;
        return start < commitLogPosition ? start : Long.MAX_VALUE; // only a slot that starts before reaches past
    }

    /**
     * The first slot {@link #truncateFromPosition} drops: the first whose record starts at or after the position,
     * or, with shared slots, the one before it when it reaches past the position (its later records are gone, and
     * recovery re-dispatches from its first record).
     */
    private long firstSlotToCut(long commitLogPosition) {
        long first = log.firstSlot();
        long cut = log.lowerBound(first, log.writerCount(), POSITION_OFFSET, commitLogPosition, false);
        return sharing.unitMaxBytes() > 0 && cut > first && recordEnd(cut - 1) > commitLogPosition ? cut - 1 : cut;
    }

    @Override
    public long truncateFromPosition(long commitLogPosition) {
        Entries.requirePosition(commitLogPosition);
        ReentrantLock lock = log.structureLock();
        lock.lock();
        try {
            if (log.isClosed() || !log.hasFiles()) {
                return 0;
            }
            long count = log.writerCount();
            long first = log.firstSlot();
            growable = false;
            recent.clear(); // before any slot goes: what it noted may be written again differently
            long cut = firstSlotToCut(commitLogPosition);
            if (cut >= count) {
                return 0;
            }
            long newMax = log.readLong(cut, BASE_OFFSET_OFFSET);
            log.truncateTo(cut);
            MAX_OFFSET.setRelease(this, newMax);
            if (min.slot() >= cut) {
                min = new MinMark(cut, newMax);
            }
            lastRecordEnd = cut > first ? recordEnd(cut - 1) : 0L;
            return count - cut;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Control

    @Override
    public int trimBelowPosition(long minCommitLogPosition) {
        Entries.requirePosition(minCommitLogPosition);
        ReentrantLock lock = log.structureLock();
        lock.lock();
        try {
            if (log.isClosed() || !log.hasFiles()) {
                return 0;
            }
            MinMark current = min;
            long count = log.count();
            long from = Math.max(current.slot(), log.firstSlot());
            long slot = log.lowerBound(from, count, POSITION_OFFSET, minCommitLogPosition, false);
            if (slot > current.slot()) {
                // Raised before files go, so readers never search a deleted file for it.
                long offset = slot < count ? log.readLong(slot, BASE_OFFSET_OFFSET) : slotEndOffset(slot - 1);
                min = new MinMark(slot, offset);
            }
            return log.trimHead(minCommitLogPosition, POSITION_OFFSET);
        } finally {
            lock.unlock();
        }
    }

    private void setMin(MinMark mark) {
        ReentrantLock lock = log.structureLock();
        lock.lock();
        try {
            min = mark;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void flush() {
        log.flush();
    }

    @Override
    public void close() {
        try {
            log.flush();
        } finally {
            log.close();
            giveBackRecent();
        }
    }

    @Override
    public void destroy() {
        log.destroy();
        giveBackRecent();
    }

    /**
     * Returns what {@link #recent} took from the budget, once: the closing thread and the writer (which re-checks
     * {@code isClosed} after it takes) may both call it.
     */
    private void giveBackRecent() {
        int taken = recentTaken.getAndSet(0);
        if (taken > 0) {
            recentBudget.giveBack(taken);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Readers

    @Override
    public long minOffset() {
        return min.offset();
    }

    @Override
    public long maxOffset() {
        return (long) MAX_OFFSET.getAcquire(this);
    }

    /**
     * The slot holding {@code offset}, or a negative {@link SlotReadStatus} code: {@code -1 - status.ordinal()}.
     * Call between {@link SlotLog#beginRead} and {@link SlotLog#endRead}.
     */
    private long findSlot(long offset) {
        if (offset >= (long) MAX_OFFSET.getAcquire(this)) {
            return missing(SlotReadStatus.BEYOND_MAX);
        }
        MinMark floor = min;
        if (offset < floor.offset()) {
            return missing(SlotReadStatus.BELOW_MIN);
        }
        long count = log.count();
        long above = log.lowerBound(floor.slot(), count, BASE_OFFSET_OFFSET, offset, true);
        if (above <= floor.slot()) {
            return missing(offset < min.offset() ? SlotReadStatus.BELOW_MIN : SlotReadStatus.UNAVAILABLE);
        }
        return above - 1;
    }

    private static long missing(SlotReadStatus status) {
        return -1L - status.ordinal();
    }

    private static SlotReadStatus missingStatus(long code) {
        return SlotReadStatus.values()[(int) (-1L - code)];
    }

    @Override
    public SlotLookup lookup(long offset) {
        Entries.requireOffset(offset);
        long generation = log.beginRead();
        long slot = findSlot(offset);
        if (slot < 0) {
            return absent(missingStatus(slot));
        }
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return SlotLookup.Absent.UNAVAILABLE;
        }
        QueueSlot found;
        try {
            UnsafeBuffer buffer = segment.buffer();
            int at = segment.byteIndex(slot);
            long countAndSize = BatchConsumeQueueDescriptor.countThenSize(buffer, at);
            found = new QueueSlot(BatchConsumeQueueDescriptor.position(buffer, at), (int) countAndSize,
                    BatchConsumeQueueDescriptor.tagsCode(buffer, at),
                    BatchConsumeQueueDescriptor.baseOffset(buffer, at), (int) (countAndSize >> 32),
                    BatchConsumeQueueDescriptor.storeTimestampMs(buffer, at));
        } finally {
            segment.release();
        }
        if (!log.endRead(generation) || found.sizeBytes() <= 0 || found.batchCount() <= 0
                || offset < found.baseOffset() || offset >= found.nextOffset()) {
            return SlotLookup.Absent.UNAVAILABLE;
        }
        return found;
    }

    private static SlotLookup.Absent absent(SlotReadStatus status) {
        return switch (status) {
            case BELOW_MIN -> SlotLookup.Absent.BELOW_MIN;
            case BEYOND_MAX -> SlotLookup.Absent.BEYOND_MAX;
            default -> SlotLookup.Absent.UNAVAILABLE;
        };
    }

    @Override
    public int recentScratchLongs() {
        return 4 * recent.capacity();
    }

    @Override
    public long findRecent(long from, long endOffset, long rangeStart, long rangeEnd, RecordRangeSink sink,
                           long[] scratch) {
        RecentRecords current = recent;
        long first = current.find(from, endOffset, rangeStart, rangeEnd, sink, scratch);
        if (first < 0 && !recentTooShort && current.isBelowKept(from)) {
            recentTooShort = true;
        }
        return first;
    }

    @Override
    public SlotReadStatus read(long offset, SlotBatch into) {
        Entries.requireOffset(offset);
        into.clear();
        long generation = log.beginRead();
        long first = findSlot(offset);
        if (first < 0) {
            return missingStatus(first);
        }
        long count = log.count();
        SegmentTable table = log.table();
        long slot = first;
        long expectedBase = -1;
        boolean intact = true;
        while (intact && slot < count && !into.isFull()) {
            SlotSegment segment = SlotLog.hold(table, slot);
            if (segment == null) {
                break;
            }
            try {
                UnsafeBuffer buffer = segment.buffer();
                long limit = Math.min(count, Math.min(segment.endSlot(), slot + into.capacity() - into.size()));
                for (; slot < limit; slot++) {
                    int at = segment.byteIndex(slot);
                    long base = BatchConsumeQueueDescriptor.baseOffset(buffer, at);
                    long countAndSize = BatchConsumeQueueDescriptor.countThenSize(buffer, at);
                    int batchCount = (int) (countAndSize >> 32);
                    int size = (int) countAndSize;
                    if (size <= 0 || batchCount <= 0 || (expectedBase >= 0 && base != expectedBase)) {
                        intact = false;
                        break;
                    }
                    expectedBase = base + batchCount;
                    into.add(BatchConsumeQueueDescriptor.position(buffer, at), size,
                            BatchConsumeQueueDescriptor.tagsCode(buffer, at), base, batchCount,
                            BatchConsumeQueueDescriptor.storeTimestampMs(buffer, at));
                }
            } finally {
                segment.release();
            }
        }
        if (!log.endRead(generation) || into.isEmpty() || offset < into.baseOffset(0)
                || offset >= into.baseOffset(0) + into.batchCount(0)) {
            into.clear();
            return SlotReadStatus.UNAVAILABLE;
        }
        return SlotReadStatus.FOUND;
    }

    @Override
    public long offsetByTimestamp(long timestampMs, boolean firstAtOrAfter) {
        Entries.requireTimestamp(timestampMs);
        while (true) {
            long generation = log.beginRead();
            long max = (long) MAX_OFFSET.getAcquire(this);
            MinMark floor = min;
            long count = log.count();
            if (floor.slot() >= count || floor.offset() >= max) {
                return firstAtOrAfter ? max : Math.min(floor.offset(), max);
            }
            long result;
            if (firstAtOrAfter) {
                long slot = log.lowerBound(floor.slot(), count, STORE_TIME_OFFSET, timestampMs, false);
                result = slot < 0 ? -1 : slot == count ? max : readLongOrMinus1(slot, BASE_OFFSET_OFFSET);
            } else {
                long slot = log.lowerBound(floor.slot(), count, STORE_TIME_OFFSET, timestampMs, true);
                result = slot < 0 ? -1 : slot == floor.slot() ? floor.offset() : slotEndOffsetOrMinus1(slot - 1) - 1;
            }
            if (result >= 0 && log.endRead(generation)) {
                return result;
            }
            if (log.isClosed()) {
                return firstAtOrAfter ? max : floor.offset();
            }
        }
    }

    @Override
    public long earliestStoreTimeMs() {
        MinMark floor = min;
        if (floor.slot() >= log.count()) {
            return -1L;
        }
        return Math.max(-1L, readLongOrMinus1(floor.slot(), STORE_TIME_OFFSET));
    }

    @Override
    public long maxPhysicalEnd() {
        while (true) {
            long generation = log.beginRead();
            long count = log.count();
            if (count <= log.firstSlot() || log.isClosed()) {
                return 0L;
            }
            long end = recordEnd(count - 1);
            if (log.endRead(generation)) {
                return end;
            }
        }
    }

    /** Field of a slot, or -1 if its file is gone. */
    private long readLongOrMinus1(long slot, int fieldOffset) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return -1L;
        }
        try {
            return segment.buffer().getLong(segment.byteIndex(slot) + fieldOffset, SlotLog.ORDER);
        } finally {
            segment.release();
        }
    }

    /** {@code baseOffset + batchCount} of a slot, or -1 if its file is gone. */
    private long slotEndOffsetOrMinus1(long slot) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return -1L;
        }
        try {
            int at = segment.byteIndex(slot);
            return BatchConsumeQueueDescriptor.baseOffset(segment.buffer(), at)
                    + BatchConsumeQueueDescriptor.batchCount(segment.buffer(), at);
        } finally {
            segment.release();
        }
    }

    /** {@code baseOffset + batchCount} of a live slot (writer or lock holder). */
    private long slotEndOffset(long slot) {
        long end = slotEndOffsetOrMinus1(slot);
        if (end < 0) {
            throw new IllegalStateException("slot " + slot + " of " + this + " is gone");
        }
        return end;
    }

    /** {@code position + sizeBytes} of a slot, 0 if its file is gone. */
    private long recordEnd(long slot) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return 0L;
        }
        try {
            int at = segment.byteIndex(slot);
            return BatchConsumeQueueDescriptor.position(segment.buffer(), at)
                    + BatchConsumeQueueDescriptor.size(segment.buffer(), at);
        } finally {
            segment.release();
        }
    }

    @Override
    public String toString() {
        return "BatchCQ{" + topic + "-" + queueId + ", min=" + minOffset() + ", max=" + maxOffset() + '}';
    }
}
