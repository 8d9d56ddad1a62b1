package io.sluice.store.dispatch;

import io.sluice.store.ArrivalListener;
import io.sluice.store.DispatchEntry;
import io.sluice.store.index.SlotAppendStatus;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.format.RecordDescriptor;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one dispatched record into its consume queue, applying the dispatch rules: PREPARED and ROLLBACK
 * transaction records get no slot; an existing slot is a success (idempotent re-dispatch); a record that cannot
 * be indexed is counted, logged with its position and skipped; only a failed file creation asks the caller to
 * retry. Remembers which queues grew so that arrival listeners hear about each once per pass.
 *
 * <p>Not thread-safe: owned by the one thread that writes consume queues (the dispatch thread, or recovery
 * before it starts).
 */
final class QueueIndexer {

    private static final Logger LOG = LoggerFactory.getLogger(QueueIndexer.class);

    /** What the caller does after {@link #index}. */
    enum Outcome {
        /** Move past the record (indexed, already indexed, or deliberately skipped). */
        NEXT,
        /** Stay at the record and try again later: a consume-queue file could not be created. */
        RETRY
    }

    private final ConsumeQueueTable queues;
    private final DispatchCounters counters;
    /** Queues that grew in this pass: the first {@link #RECENT} in an array (the common case), the rest in a set. */
    private static final int RECENT = 16;
    private final ConsumeQueue[] recent = new ConsumeQueue[RECENT];
    private int recentCount;
    private final Set<ConsumeQueue> overflow = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Records met so far, skipped ones included: the sequence number a shared BatchCQ slot's span is bounded by. */
    private long records;

    QueueIndexer(ConsumeQueueTable queues, DispatchCounters counters) {
        this.queues = queues;
        this.counters = counters;
    }

    /** Indexes one record; the next record gets the next sequence number unless this one is to be retried. */
    Outcome index(DispatchEntry entry) {
        Outcome outcome = index(entry, records);
        if (outcome != Outcome.RETRY) {
            records++;
        }
        return outcome;
    }

    private Outcome index(DispatchEntry entry, long record) {
        int tx = RecordDescriptor.transactionType(entry.sysFlag());
        if (tx == RecordDescriptor.TRANSACTION_PREPARED_TYPE || tx == RecordDescriptor.TRANSACTION_ROLLBACK_TYPE) {
            counters.onTransactionSkipped();
            return Outcome.NEXT;
        }
        ConsumeQueue queue;
        SlotAppendStatus status;
        try {
            queue = queues.getOrCreate(entry.topic(), entry.queueId());
            // The primitive overload: the queue was looked up by the entry's topic and queue id.
            status = queue.append(entry.queueOffset(), entry.batchCount(), entry.position(), entry.sizeBytes(),
                    entry.tagsCode(), entry.storeTimestampMs(), record);
        } catch (UncheckedIOException e) {
            return ioError(entry, e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // Unknown queue type (topic deleted), queue id beyond the index limit, batch the layout cannot hold.
            long n = counters.onUnindexable();
            if (DispatchCounters.shouldLog(n)) {
                LOG.error("dispatch skips the record at position {} ({}-{}, offset {}): {} [{} such records so far]",
                        entry.position(), entry.topic(), entry.queueId(), entry.queueOffset(), e.getMessage(), n);
            }
            return Outcome.NEXT;
        }
        switch (status) {
            case APPENDED -> {
                counters.onIndexed();
                touch(queue);
            }
            case DUPLICATE -> counters.onDuplicate();
            case GAP, CONFLICT -> {
                long n = counters.onInconsistent();
                if (DispatchCounters.shouldLog(n)) {
                    LOG.error("dispatch: consume queue {} refused the record at position {} (offset {}, {} messages)"
                                    + " as {}; skipped [{} such records so far]", queue, entry.position(),
                            entry.queueOffset(), entry.batchCount(), status, n);
                }
            }
            case IO_ERROR -> {
                return ioError(entry, null);
            }
            case CLOSED -> {
                // The topic was deleted while its records were still being dispatched: nothing to index into.
            }
            default -> throw new IllegalStateException("unhandled consume queue status " + status);
        }
        return Outcome.NEXT;
    }

    private Outcome ioError(DispatchEntry entry, UncheckedIOException e) {
        long n = counters.onIoError();
        if (DispatchCounters.shouldLog(n)) {
            LOG.error("dispatch cannot index the record at position {} ({}-{}): consume queue file creation failed;"
                    + " retrying [{} failures so far]", entry.position(), entry.topic(), entry.queueId(), n, e);
        }
        return Outcome.RETRY;
    }

    private void touch(ConsumeQueue queue) {
        for (int i = 0; i < recentCount; i++) {
            if (recent[i] == queue) {
                return;
            }
        }
        if (recentCount < RECENT) {
            recent[recentCount++] = queue;
        } else {
            overflow.add(queue);
        }
    }

    /** Tells every listener about every queue that grew since the last call, once each, then forgets them. */
    void notifyArrivals(List<ArrivalListener> listeners) {
        for (int i = 0; i < recentCount; i++) {
            notify(recent[i], listeners);
            recent[i] = null;
        }
        recentCount = 0;
        if (!overflow.isEmpty()) {
            for (ConsumeQueue queue : overflow) {
                notify(queue, listeners);
            }
            overflow.clear();
        }
    }

    private void notify(ConsumeQueue queue, List<ArrivalListener> listeners) {
        if (listeners.isEmpty()) {
            return;
        }
        long maxOffset = queue.maxOffset();
        for (ArrivalListener listener : listeners) {
            try {
                listener.onArrival(queue.topic(), queue.queueId(), maxOffset);
            } catch (RuntimeException e) {
                long n = counters.onListenerError();
                if (DispatchCounters.shouldLog(n)) {
                    LOG.error("arrival listener {} failed for {}-{} [{} failures so far]", listener,
                            queue.topic(), queue.queueId(), n, e);
                }
            }
        }
    }
}
