package io.sluice.store.dispatch;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What dispatch did, as monotonically increasing counts.
 *
 * <p>Single writer (the thread that dispatches; recovery before the dispatcher starts), any number of readers:
 * each count is written with an ordered store of its previous value plus one, which is cheap and safe because
 * only one thread ever writes.
 */
final class DispatchCounters {

    private final AtomicLong indexed = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong transactionSkipped = new AtomicLong();
    private final AtomicLong corrupt = new AtomicLong();
    private final AtomicLong unindexable = new AtomicLong();
    private final AtomicLong inconsistent = new AtomicLong();
    private final AtomicLong ioErrors = new AtomicLong();
    private final AtomicLong listenerErrors = new AtomicLong();
    private final AtomicLong unexpectedErrors = new AtomicLong();

    /** Records that got a consume-queue slot. */
    public long indexed() {
        return indexed.get();
    }

    /** Records whose slot already existed (re-dispatch after recovery). */
    public long duplicates() {
        return duplicates.get();
    }

    /** PREPARED and ROLLBACK transaction records, which never get a slot. */
    public long transactionSkipped() {
        return transactionSkipped.get();
    }

    /**
     * Places where the log held no valid record below the confirmed position (bad magic, lengths, position, or a
     * hole of zeros); dispatch skipped to the next segment each time.
     */
    public long corrupt() {
        return corrupt.get();
    }

    /**
     * Valid records that cannot be indexed and were skipped: the topic has no known queue type (deleted), the
     * queue id is beyond the index's limit, or the record does not fit the queue's layout.
     */
    public long unindexable() {
        return unindexable.get();
    }

    /** Records the consume queue refused as a gap or a conflict with what it holds; skipped. */
    public long inconsistent() {
        return inconsistent.get();
    }

    /** Consume-queue file creations that failed; the record was retried later. */
    public long ioErrors() {
        return ioErrors.get();
    }

    /** Exceptions thrown by arrival listeners. */
    public long listenerErrors() {
        return listenerErrors.get();
    }

    /** Unexpected exceptions caught by the dispatch loop (a bug); the loop went on. */
    public long unexpectedErrors() {
        return unexpectedErrors.get();
    }

    void onIndexed() {
        bump(indexed);
    }

    void onDuplicate() {
        bump(duplicates);
    }

    void onTransactionSkipped() {
        bump(transactionSkipped);
    }

    long onCorrupt() {
        return bump(corrupt);
    }

    long onUnindexable() {
        return bump(unindexable);
    }

    long onInconsistent() {
        return bump(inconsistent);
    }

    long onIoError() {
        return bump(ioErrors);
    }

    long onListenerError() {
        return bump(listenerErrors);
    }

    long onUnexpectedError() {
        return bump(unexpectedErrors);
    }

    /** Single writer: an ordered store of the incremented value. Returns the new count. */
    private static long bump(AtomicLong counter) {
        long next = counter.get() + 1;
        counter.lazySet(next);
        return next;
    }

    /** True for 1, 2, 4, 8, ...: log the first occurrences of a repeated problem, then ever more rarely. */
    static boolean shouldLog(long count) {
        return (count & (count - 1)) == 0;
    }

    @Override
    public String toString() {
        return "DispatchCounters{indexed=" + indexed() + ", duplicates=" + duplicates() + ", transactionSkipped="
                + transactionSkipped() + ", corrupt=" + corrupt() + ", unindexable=" + unindexable()
                + ", inconsistent=" + inconsistent() + ", ioErrors=" + ioErrors() + ", listenerErrors="
                + listenerErrors() + ", unexpectedErrors=" + unexpectedErrors() + '}';
    }
}
