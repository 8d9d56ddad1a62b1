package io.sluice.store.index;

import static io.sluice.store.index.ConsumeQueueDescriptor.FILLER_SIZE;
import static io.sluice.store.index.ConsumeQueueDescriptor.POSITION_OFFSET;
import static io.sluice.store.index.ConsumeQueueDescriptor.SLOT_BYTES;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SimpleCQ: one 20-byte slot per message ({@link ConsumeQueueDescriptor}); slot index = queue offset, so a
 * lookup is O(1) arithmetic. Store times are not in the slot; time searches binary-search over offsets and read
 * each probe's store time through the {@link StoreTimeLookup} (a CommitLog read per probe).
 *
 * <p>Thread safety: as {@link ConsumeQueue}. {@code minOffset} and {@code firstRecordSlot} change only under the
 * log's structure lock.
 */
final class SimpleConsumeQueue implements ConsumeQueue {

    private static final Logger LOG = LoggerFactory.getLogger(SimpleConsumeQueue.class);
    private static final int[] CACHED_FIELDS = {POSITION_OFFSET};

    private final String topic;
    private final int queueId;
    private final SlotLog log;
    private final StoreTimeLookup storeTimes;

    /** First readable offset. Written under the structure lock; read by anyone. */
    private volatile long minOffset;
    /** Slots below this one are fillers (queue started at a non-zero offset). Written under the structure lock. */
    private volatile long firstRecordSlot;
    /** End of the last indexed record, for the conflict check. Writer thread. */
    private long lastRecordEnd;
    /** True while file creation keeps failing, so the failure is logged once. Writer thread. */
    private boolean ioFailing;

    private SimpleConsumeQueue(String topic, int queueId, SlotLog log, StoreTimeLookup storeTimes) {
        this.topic = topic;
        this.queueId = queueId;
        this.log = log;
        this.storeTimes = storeTimes;
    }

    /**
     * Opens (or prepares, if {@code directory} holds no file) the queue and recovers its tail: the last
     * {@code recoveryScanFiles} files are scanned and everything from the first invalid slot on is dropped (read and
     * zeroed to the end of the newest file after a {@link LastStop#CRASH}; see {@link LastStop}).
     *
     * @throws IOException naming the file if the files cannot be mapped or are inconsistent
     */
    static SimpleConsumeQueue open(String topic, int queueId, Path directory, int slotsPerFile,
                                   int recoveryScanFiles, StoreTimeLookup storeTimes, LastStop lastStop)
            throws IOException {
        SlotLog log = SlotLog.open(directory, SLOT_BYTES, slotsPerFile, CACHED_FIELDS);
        SimpleConsumeQueue queue = new SimpleConsumeQueue(topic, queueId, log, storeTimes);
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
        SlotSegment first = table.segment(0);
        long firstRecord = first.startSlot();
        while (firstRecord < first.endSlot()
                && ConsumeQueueDescriptor.isFiller(first.buffer(), first.byteIndex(firstRecord))) {
            firstRecord++;
        }
        long end = log.count();
        long slot = Math.max(firstRecord, table.segment(Math.max(0, table.size() - recoveryScanFiles)).startSlot());
        long previousEnd = -1;
        for (; slot < end; slot++) {
            SlotSegment segment = table.segment(table.indexOf(slot));
            int at = segment.byteIndex(slot);
            if (!ConsumeQueueDescriptor.isRecord(segment.buffer(), at)) {
                break;
            }
            long position = ConsumeQueueDescriptor.position(segment.buffer(), at);
            if (position < previousEnd) {
                break;
            }
            previousEnd = position + ConsumeQueueDescriptor.size(segment.buffer(), at);
        }
        if (log.recoverEnd(slot, lastStop)) {
            LOG.warn("consume queue {}-{}: valid slots end at offset {}: dropped stale or torn slots after it",
                    topic, queueId, slot);
        }
        firstRecordSlot = firstRecord;
        minOffset = Math.min(firstRecord, slot);
        lastRecordEnd = slot > firstRecord ? recordEnd(slot - 1) : 0L;
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
        return ConsumeQueueType.SIMPLE;
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
        Entries.requireValid(queueOffset, batchCount, position, sizeBytes);
        if (batchCount != 1) {
            throw new IllegalArgumentException("SimpleCQ " + topic + "-" + queueId
                    + " takes one message per record, got batchCount " + batchCount);
        }
        if (log.isClosed()) {
            log.releaseWriter();
            return SlotAppendStatus.CLOSED;
        }
        if (!log.hasFiles()) {
            return appendFirst(queueOffset, position, sizeBytes, tagsCode);
        }
        long next = log.writerCount();
        if (queueOffset != next) {
            return queueOffset < next ? duplicateOrConflict(queueOffset, position) : SlotAppendStatus.GAP;
        }
        if (position < lastRecordEnd) {
            return SlotAppendStatus.CONFLICT;
        }
        SlotSegment segment;
        try {
            segment = log.segmentForAppend(queueOffset);
        } catch (IOException e) {
            return ioError(e);
        }
        if (segment == null) {
            return SlotAppendStatus.CLOSED;
        }
        ioFailing = false;
        ConsumeQueueDescriptor.write(segment.buffer(), segment.byteIndex(queueOffset), position, sizeBytes, tagsCode);
        lastRecordEnd = position + sizeBytes;
        log.publish(queueOffset + 1);
        return SlotAppendStatus.APPENDED;
    }

    /** First append to a queue without files: it starts at {@code queueOffset}; fill its file's head. */
    private SlotAppendStatus appendFirst(long queueOffset, long position, int sizeBytes, long tagsCode) {
        SlotSegment segment;
        try {
            segment = log.startAt(queueOffset) ? log.segmentForAppend(queueOffset) : null;
        } catch (IOException e) {
            return ioError(e);
        }
        if (segment == null) {
            return SlotAppendStatus.CLOSED;
        }
        ioFailing = false;
        UnsafeBuffer buffer = segment.buffer();
        for (long slot = segment.startSlot(); slot < queueOffset; slot++) {
            ConsumeQueueDescriptor.writeFiller(buffer, segment.byteIndex(slot));
        }
        ConsumeQueueDescriptor.write(buffer, segment.byteIndex(queueOffset), position, sizeBytes, tagsCode);
        ReentrantLock lock = log.structureLock();
        lock.lock();
        try {
            firstRecordSlot = queueOffset;
            minOffset = queueOffset;
        } finally {
            lock.unlock();
        }
        lastRecordEnd = position + sizeBytes;
        log.publish(queueOffset + 1);
        return SlotAppendStatus.APPENDED;
    }

    private SlotAppendStatus duplicateOrConflict(long queueOffset, long position) {
        if (queueOffset < Math.max(firstRecordSlot, log.firstSlot())) {
            return SlotAppendStatus.DUPLICATE; // trimmed away or before the queue's start: nothing to compare
        }
        return log.readLong(queueOffset, POSITION_OFFSET) == position
                ? SlotAppendStatus.DUPLICATE : SlotAppendStatus.CONFLICT;
    }

    private SlotAppendStatus ioError(IOException e) {
        if (!ioFailing) {
            ioFailing = true;
            LOG.error("consume queue {}-{}: cannot create a file in {}; appends fail until it can",
                    topic, queueId, log.directory(), e);
        }
        return SlotAppendStatus.IO_ERROR;
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
            long from = Math.max(firstRecordSlot, log.firstSlot());
            long cut = log.lowerBound(from, count, POSITION_OFFSET, commitLogPosition, false);
            if (cut >= count) {
                return 0;
            }
            log.truncateTo(cut);
            if (minOffset > cut) {
                minOffset = cut;
            }
            lastRecordEnd = cut > from ? recordEnd(cut - 1) : 0L;
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
            long from = Math.max(Math.max(minOffset, firstRecordSlot), log.firstSlot());
            long newMin = log.lowerBound(from, log.count(), POSITION_OFFSET, minCommitLogPosition, false);
            if (newMin > minOffset) {
                minOffset = newMin; // raised before files go, so readers never search a deleted file for it
            }
            return log.trimHead(minCommitLogPosition, POSITION_OFFSET);
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
        }
    }

    @Override
    public void destroy() {
        log.destroy();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Readers

    @Override
    public long minOffset() {
        return minOffset;
    }

    @Override
    public long maxOffset() {
        return log.count();
    }

    @Override
    public SlotLookup lookup(long offset) {
        Entries.requireOffset(offset);
        long generation = log.beginRead();
        if (offset >= log.count()) {
            return SlotLookup.Absent.BEYOND_MAX;
        }
        if (offset < minOffset) {
            return SlotLookup.Absent.BELOW_MIN;
        }
        SlotSegment segment = SlotLog.hold(log.table(), offset);
        if (segment == null) {
            return offset < minOffset ? SlotLookup.Absent.BELOW_MIN : SlotLookup.Absent.UNAVAILABLE;
        }
        long position;
        int size;
        long tagsCode;
        try {
            UnsafeBuffer buffer = segment.buffer();
            int at = segment.byteIndex(offset);
            position = ConsumeQueueDescriptor.position(buffer, at);
            size = ConsumeQueueDescriptor.size(buffer, at);
            tagsCode = ConsumeQueueDescriptor.tagsCode(buffer, at);
        } finally {
            segment.release();
        }
        if (!log.endRead(generation) || size <= 0 || size == FILLER_SIZE) {
            return SlotLookup.Absent.UNAVAILABLE;
        }
        return new QueueSlot(position, size, tagsCode, offset, 1, QueueSlot.UNKNOWN_STORE_TIME);
    }

    @Override
    public SlotReadStatus read(long offset, SlotBatch into) {
        Entries.requireOffset(offset);
        into.clear();
        long generation = log.beginRead();
        long count = log.count();
        if (offset >= count) {
            return SlotReadStatus.BEYOND_MAX;
        }
        if (offset < minOffset) {
            return SlotReadStatus.BELOW_MIN;
        }
        SegmentTable table = log.table();
        long end = Math.min(count, offset + into.capacity());
        long slot = offset;
        boolean intact = true;
        while (intact && slot < end) {
            SlotSegment segment = SlotLog.hold(table, slot);
            if (segment == null) {
                break;
            }
            try {
                UnsafeBuffer buffer = segment.buffer();
                long limit = Math.min(end, segment.endSlot());
                for (; slot < limit; slot++) {
                    int at = segment.byteIndex(slot);
                    if (!ConsumeQueueDescriptor.isRecord(buffer, at)) {
                        intact = false;
                        break;
                    }
                    into.add(ConsumeQueueDescriptor.position(buffer, at), ConsumeQueueDescriptor.size(buffer, at),
                            ConsumeQueueDescriptor.tagsCode(buffer, at), slot, 1, QueueSlot.UNKNOWN_STORE_TIME);
                }
            } finally {
                segment.release();
            }
        }
        if (!log.endRead(generation)) {
            into.clear();
            return SlotReadStatus.UNAVAILABLE;
        }
        if (into.isEmpty()) {
            return offset < minOffset ? SlotReadStatus.BELOW_MIN : SlotReadStatus.UNAVAILABLE;
        }
        return SlotReadStatus.FOUND;
    }

    @Override
    public long offsetByTimestamp(long timestampMs, boolean firstAtOrAfter) {
        Entries.requireTimestamp(timestampMs);
        while (true) {
            long generation = log.beginRead();
            long max = log.count();
            long min = Math.min(minOffset, max);
            long low = min;
            long high = max;
            while (low < high) {
                long mid = (low + high) >>> 1;
                long time = storeTimeAt(mid);
                if (firstAtOrAfter ? time >= timestampMs : time > timestampMs) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            if (log.endRead(generation) || log.isClosed()) {
                return firstAtOrAfter ? low : Math.max(min, low - 1);
            }
        }
    }

    @Override
    public long earliestStoreTimeMs() {
        long min = minOffset;
        if (min >= log.count()) {
            return -1L;
        }
        long time = storeTimeAt(min);
        return time < 0 ? -1L : time;
    }

    /** Store time of the record in {@code slot}, negative if unreadable (file trimmed, record deleted). */
    private long storeTimeAt(long slot) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return -1L;
        }
        long position;
        int size;
        try {
            int at = segment.byteIndex(slot);
            position = ConsumeQueueDescriptor.position(segment.buffer(), at);
            size = ConsumeQueueDescriptor.size(segment.buffer(), at);
        } finally {
            segment.release();
        }
        if (size <= 0 || size == FILLER_SIZE) {
            return -1L;
        }
        return storeTimes.storeTimestampMs(position, size);
    }

    @Override
    public long maxPhysicalEnd() {
        while (true) {
            long generation = log.beginRead();
            long count = log.count();
            if (count <= firstRecordSlot || log.isClosed()) {
                return 0L;
            }
            SlotSegment segment = SlotLog.hold(log.table(), count - 1);
            if (segment == null) {
                return 0L;
            }
            long end;
            try {
                int at = segment.byteIndex(count - 1);
                end = ConsumeQueueDescriptor.position(segment.buffer(), at)
                        + ConsumeQueueDescriptor.size(segment.buffer(), at);
            } finally {
                segment.release();
            }
            if (log.endRead(generation)) {
                return end;
            }
        }
    }

    /** End of the record in a live slot; for the writer or a lock holder. */
    private long recordEnd(long slot) {
        SlotSegment segment = SlotLog.hold(log.table(), slot);
        if (segment == null) {
            return 0L;
        }
        try {
            int at = segment.byteIndex(slot);
            return ConsumeQueueDescriptor.position(segment.buffer(), at)
                    + ConsumeQueueDescriptor.size(segment.buffer(), at);
        } finally {
            segment.release();
        }
    }

    @Override
    public String toString() {
        return "SimpleCQ{" + topic + "-" + queueId + ", min=" + minOffset + ", max=" + maxOffset() + '}';
    }
}
