package io.sluice.store;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.SlotReadStatus;
import io.sluice.store.index.SlotBatch;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.FileSpan;
import io.sluice.store.log.ReadResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.agrona.BufferUtil;

/**
 * The pull read path (docs/storage.md#reading): consume-queue slots from the requested offset, filtered by tags code,
 * each resolved to a read-only view of its CommitLog record and to its range of the segment file, until the count or
 * byte budget is spent.
 *
 * <p>Thread-safe: any number of pull threads; each thread reuses its own slot buffer.
 */
final class MessageReader {

    /**
     * Slots scanned at most per read when few match the filter (Apache: 16000 bytes of 20-byte slots), unless
     * {@code maxCount} is larger. Keeps a selective tag filter from walking a whole queue in one request.
     */
    static final int MAX_FILTER_SCAN_SLOTS = 800;
    private static final int SLOTS_PER_READ = 32;
    private static final ThreadLocal<SlotBatch> SLOTS = ThreadLocal.withInitial(() -> new SlotBatch(SLOTS_PER_READ));
    private static final ThreadLocal<long[]> RECENT_SCRATCH = ThreadLocal.withInitial(() -> new long[0]);

    private final CommitLog log;
    private final ConsumeQueueTable queues;

    MessageReader(CommitLog log, ConsumeQueueTable queues) {
        this.log = log;
        this.queues = queues;
    }

    GetResult get(String topic, int queueId, long offset, int maxCount, int maxBytes, LongPredicate tagsCodeFilter) {
        if (maxCount < 1) {
            throw new IllegalArgumentException("maxCount must be >= 1, was " + maxCount);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, was " + maxBytes);
        }
        Optional<ConsumeQueue> found = find(topic, queueId);
        if (found.isEmpty()) {
            return GetResult.empty(GetStatus.NO_MATCHED_LOGIC_QUEUE, 0, 0, 0);
        }
        ConsumeQueue queue = found.get();
        long min = queue.minOffset();
        long max = queue.maxOffset();
        if (max == 0) {
            return GetResult.empty(GetStatus.NO_MESSAGE_IN_QUEUE, 0, min, max);
        }
        if (offset < min) {
            return GetResult.empty(GetStatus.OFFSET_TOO_SMALL, min, min, max);
        }
        if (offset == max) {
            return GetResult.empty(GetStatus.OFFSET_OVERFLOW_ONE, offset, min, max);
        }
        if (offset > max) {
            return GetResult.empty(GetStatus.OFFSET_OVERFLOW_BADLY, max, min, max);
        }
        return collect(queue, offset, maxCount, maxBytes, tagsCodeFilter, min, max);
    }

    private Optional<ConsumeQueue> find(String topic, int queueId) {
        if (!TopicNames.isValid(topic) || queueId < 0 || queueId >= queues.settings().maxQueuesPerTopic()) {
            return Optional.empty();
        }
        return queues.find(topic, queueId);
    }

    private GetResult collect(ConsumeQueue queue, long offset, int maxCount, int maxBytes, LongPredicate filter,
                              long min, long max) {
        SlotBatch slots = SLOTS.get();
        boolean batchQueue = queue.type() == ConsumeQueueType.BATCH;
        List<ByteBuffer> records = new ArrayList<>(Math.min(maxCount, SLOTS_PER_READ));
        // Each record's log position, parallel to records: for the file spans.
        long[] positions = new long[Math.min(maxCount, SLOTS_PER_READ)];
        long scanLimit = Math.max(MAX_FILTER_SCAN_SLOTS, maxCount);
        long scanned = 0;
        int count = 0;
        int bytes = 0;
        long next = offset;
        GetStatus status = GetStatus.NO_MATCHED_MESSAGE;
        scan:
        while (true) {
            SlotReadStatus read = queue.read(next, slots);
            if (read != SlotReadStatus.FOUND) {
                if (scanned == 0) {
                    // The queue changed between the bounds check and the read (trim, truncation, close).
                    if (read == SlotReadStatus.BELOW_MIN) {
                        long newMin = queue.minOffset();
                        return GetResult.empty(GetStatus.OFFSET_TOO_SMALL, newMin, min, max);
                    }
                    return GetResult.empty(GetStatus.OFFSET_FOUND_NULL, offset, min, max);
                }
                break;
            }
            for (int i = 0; i < slots.size(); i++) {
                int size = slots.sizeBytes(i);
                int batchCount = slots.batchCount(i);
                if (scanned >= scanLimit) {
                    break scan;
                }
                // "Batch full" is never true for the first message: it is returned whatever its size.
                if (count > 0 && (count + batchCount > maxCount || (long) bytes + size > maxBytes)) {
                    break scan;
                }
                scanned++;
                long wanted = next;
                next = slots.baseOffset(i) + batchCount;
                if (filter != null && !filter.test(slots.tagsCode(i))) {
                    continue;
                }
                ReadResult record = log.readRecord(slots.position(i), size);
                if (!record.isFound()) {
                    if (record.status() == io.sluice.store.log.ReadStatus.POSITION_DELETED) {
                        if (count == 0) {
                            status = GetStatus.MESSAGE_WAS_REMOVING;
                        }
                        continue;
                    }
                    // The slot points where the log holds nothing (never after a correct recovery): stop here.
                    if (count == 0) {
                        return GetResult.empty(GetStatus.OFFSET_FOUND_NULL, slots.baseOffset(i), min, max);
                    }
                    next = wanted;
                    break scan;
                }
                ByteBuffer buffer = record.buffer();
                int messages = batchCount;
                if (batchQueue) {
                    // A shared slot holds several records, maybe with other queues' between them: the own records
                    // its count covers (a growing slot's size may run ahead), from the one holding the offset
                    // wanted next (a slot that grew after it was read once is met again at an offset inside it).
                    int before = records.size();
                    long endOffset = slots.baseOffset(i) + batchCount;
                    long slotPosition = slots.position(i);
                    // The queue's newest records are known in memory: no header of the span is read.
                    long firstOffset = queue.findRecent(wanted, endOffset, slotPosition, slotPosition + size,
                            (at, length) -> records.add(buffer.slice((int) (at - slotPosition), length)),
                            recentScratch(queue));
                    if (firstOffset < 0) {
                        firstOffset = SlotRecords.collect(buffer, queue.topic(), queue.queueId(), wanted, endOffset,
                                records);
                    }
                    if (firstOffset < 0) {
                        // No record of this queue where the slot points (never after a correct recovery).
                        if (count == 0) {
                            return GetResult.empty(GetStatus.OFFSET_FOUND_NULL, slots.baseOffset(i), min, max);
                        }
                        next = wanted;
                        break scan;
                    }
                    messages = (int) (endOffset - firstOffset);
                    size = 0;
                    positions = room(positions, records.size());
                    for (int r = before; r < records.size(); r++) {
                        ByteBuffer own = records.get(r);
                        size += own.remaining();
                        positions[r] = slotPosition + viewOffset(buffer, own);
                    }
                } else {
                    positions = room(positions, records.size() + 1);
                    positions[records.size()] = slots.position(i);
                    records.add(buffer);
                }
                count += messages;
                bytes += size;
                status = GetStatus.FOUND;
            }
        }
        return new GetResult(status, next, min, max, records, count, bytes, spans(records, positions));
    }

    /** Where {@code part}, a slice of {@code whole}, starts in it (no byte of either is read). */
    private static int viewOffset(ByteBuffer whole, ByteBuffer part) {
        return (int) (BufferUtil.address(part) - BufferUtil.address(whole));
    }

    private static long[] recentScratch(ConsumeQueue queue) {
        long[] scratch = RECENT_SCRATCH.get();
        if (scratch.length < queue.recentScratchLongs()) {
            scratch = new long[queue.recentScratchLongs()];
            RECENT_SCRATCH.set(scratch);
        }
        return scratch;
    }

    /** {@code positions} with room for {@code size} entries. */
    private static long[] room(long[] positions, int size) {
        return size <= positions.length ? positions : Arrays.copyOf(positions, Math.max(size, positions.length * 2));
    }

    /**
     * The records as ranges of their segment files, so that a plain connection sends them from the files and
     * nothing touches their pages in the mapping (docs/storage.md#reading); empty when one cannot be had (a segment
     * deleted before its file was opened for reading), and the views are sent instead.
     */
    private List<FileSpan> spans(List<ByteBuffer> records, long[] positions) {
        List<FileSpan> spans = new ArrayList<>(records.size());
        for (int r = 0; r < records.size(); r++) {
            Optional<FileSpan> span = log.fileSpan(positions[r], records.get(r).remaining());
            if (span.isEmpty()) {
                return List.of();
            }
            spans.add(span.get());
        }
        return spans;
    }
}
