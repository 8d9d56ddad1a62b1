package io.sluice.store.index;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many {@link RecentRecords} entries the BatchCQ queues of one table may hold beyond their first
 * {@link BatchConsumeQueue#RECENT_RECORDS} each: a queue whose consumers fall behind its memory grows it from here,
 * and gives it back when it closes. Bounds the memory a table of many busy, lagging queues can take.
 *
 * <p>Thread-safe: queue writers take, closing queues give back.
 */
final class RecentRecordsBudget {

    /** Entries beyond the first 16 per queue, for a whole table: 24 bytes each, 12 MiB in all. */
    static final long DEFAULT_ENTRIES = 512 * 1024;

    private final AtomicLong remaining;

    RecentRecordsBudget(long entries) {
        if (entries < 0) {
            throw new IllegalArgumentException("entries must be >= 0, was " + entries);
        }
        this.remaining = new AtomicLong(entries);
    }

    /** Takes {@code entries}; false, taking nothing, when fewer remain. */
    boolean take(int entries) {
        long left = remaining.get();
        while (left >= entries) {
            if (remaining.compareAndSet(left, left - entries)) {
                return true;
            }
            left = remaining.get();
        }
        return false;
    }

    /** Returns entries taken before. */
    void giveBack(int entries) {
        remaining.addAndGet(entries);
    }

    long remaining() {
        return remaining.get();
    }
}
