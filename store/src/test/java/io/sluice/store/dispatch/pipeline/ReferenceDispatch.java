package io.sluice.store.dispatch.pipeline;

import io.sluice.store.DispatchEntry;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.RecordDescriptor;
import io.sluice.store.log.ScanResult;

/**
 * The serial dispatch rules in a dozen lines, on the caller's thread: every valid record of transaction type NOT or
 * COMMIT gets its slot in CommitLog order; damage skips to the next segment; invalid queues are skipped.
 */
final class ReferenceDispatch {

    private ReferenceDispatch() {
    }

    /** Dispatches from {@code from} up to the confirmed position; returns where it stopped. */
    static long run(CommitLog log, ConsumeQueueTable queues, long from) {
        return run(log, queues, from, false);
    }

    /** Same, optionally verifying each record's body CRC (a mismatch is damage). */
    static long run(CommitLog log, ConsumeQueueTable queues, long from, boolean checkCrc) {
        long segmentBytes = log.settings().segmentBytes();
        long position = from;
        while (true) {
            long confirmed = log.confirmedPosition();
            ScanResult r = log.scan(position, checkCrc);
            switch (r.status()) {
                case VALID -> {
                    index(queues, r.entry());
                    position = r.nextPosition();
                }
                case END_OF_SEGMENT -> position = r.nextPosition();
                case NO_MORE_DATA, CORRUPT -> {
                    if (r.position() >= confirmed) {
                        return position;
                    }
                    position = r.position() - r.position() % segmentBytes + segmentBytes;
                }
                case POSITION_DELETED -> position = log.minPosition();
                default -> throw new IllegalStateException("unhandled " + r.status());
            }
        }
    }

    private static void index(ConsumeQueueTable queues, DispatchEntry e) {
        int tx = RecordDescriptor.transactionType(e.sysFlag());
        if (tx == RecordDescriptor.TRANSACTION_PREPARED_TYPE || tx == RecordDescriptor.TRANSACTION_ROLLBACK_TYPE) {
            return;
        }
        try {
            ConsumeQueue queue = queues.getOrCreate(e.topic(), e.queueId());
            queue.append(e);
        } catch (IllegalArgumentException | IllegalStateException skipped) {
            // Unindexable records are skipped by both dispatchers.
        }
    }
}
