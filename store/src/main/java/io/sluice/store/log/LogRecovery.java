package io.sluice.store.log;

import io.sluice.format.RecordDescriptor;
import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the end of the valid data and cuts everything after it.
 *
 * <p>Used only by {@link CommitLog#recover} under the append lock; stateless.
 */
final class LogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

    private LogRecovery() {
    }

    /**
     * Scans from {@code fromPosition} (a record boundary) record by record, handing every valid record to
     * {@code visitor} and raising the queue offsets it implies, until the first position that does not hold a
     * valid record. Returns that position.
     */
    static long scan(SegmentChain chain, long fromPosition, boolean checkCrc, Consumer<DispatchEntry> visitor,
                     QueueOffsetTable offsets) {
        long position = fromPosition;
        long records = 0;
        TopicCache topics = new TopicCache();
        while (true) {
            MappedSegment segment = chain.find(position);
            if (segment == null) {
                break;
            }
            int offset = (int) (position - segment.startPosition());
            int toEnd = segment.sizeBytes() - offset;
            ScanResult r = RecordParser.parse(segment.buffer(), offset, toEnd, toEnd, position, checkCrc, topics);
            if (r.status() == ScanStatus.VALID) {
                DispatchEntry e = r.entry();
                visitor.accept(e);
                if (assignsQueueOffset(e.sysFlag())) {
                    offsets.advanceTo(e.topic(), e.queueId(), e.nextQueueOffset());
                }
                segment.noteStoreTimestamp(e.storeTimestampMs());
                records++;
            } else if (r.status() == ScanStatus.CORRUPT) {
                LOG.warn("recovery stops at position {}: {}", position, r.reason());
                break;
            } else if (r.status() != ScanStatus.END_OF_SEGMENT) {
                break;
            }
            position = r.nextPosition();
        }
        LOG.info("recovery scanned {} records from position {}; valid data ends at {}", records, fromPosition,
                position);
        return position;
    }

    /**
     * Makes {@code endPosition} the end of the log: zeros whatever non-zero bytes follow it in its segment
     * (a torn tail of unknown length), forces them, and deletes every later segment.
     */
    static void cutAfter(SegmentChain chain, long endPosition) throws IOException {
        MappedSegment segment = chain.find(endPosition);
        long keepBelow = endPosition;
        if (segment != null) {
            int offset = (int) (endPosition - segment.startPosition());
            // Recovery does not know how far a torn tail reaches: every non-zero page to the segment end goes.
            int dirtyEnd = segment.zeroNonZero(offset, segment.sizeBytes());
            if (dirtyEnd > offset) {
                LOG.warn("recovery zeroed {} bytes of torn tail after position {} in {}", dirtyEnd - offset,
                        endPosition, segment);
                segment.force(offset, dirtyEnd);
            }
            keepBelow = segment.endPosition();
        }
        for (MappedSegment dropped : chain.removeFrom(keepBelow)) {
            LOG.warn("recovery deletes {}: it follows the end of valid data at {}", dropped, endPosition);
            dropped.delete();
        }
    }

    /** Transaction PREPARED and ROLLBACK records do not take a queue offset. */
    static boolean assignsQueueOffset(int sysFlag) {
        int tx = RecordDescriptor.transactionType(sysFlag);
        return tx != RecordDescriptor.TRANSACTION_PREPARED_TYPE && tx != RecordDescriptor.TRANSACTION_ROLLBACK_TYPE;
    }
}
