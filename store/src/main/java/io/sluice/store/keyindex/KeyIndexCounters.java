package io.sluice.store.keyindex;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the key index has done, for stats and metrics. Written by the index thread, read by any thread.
 */
final class KeyIndexCounters {

    private final LongAdder keys = new LongAdder();
    private final LongAdder skippedKeys = new LongAdder();
    private final LongAdder skippedDamage = new LongAdder();
    private final LongAdder filesDeleted = new LongAdder();
    private final AtomicLong failures = new AtomicLong();

    void onIndexed(int indexedKeys, int skipped) {
        keys.add(indexedKeys);
        skippedKeys.add(skipped);
    }

    void onSkippedDamage() {
        skippedDamage.increment();
    }

    void onFilesDeleted(int n) {
        filesDeleted.add(n);
    }

    /** Counts a failure; returns the count so far. */
    long onFailure() {
        return failures.incrementAndGet();
    }

    KeyIndexStats snapshot(long indexedPosition, int files, int damagedFilesAtOpen) {
        return new KeyIndexStats(indexedPosition, files, keys.sum(), skippedKeys.sum(),
                skippedDamage.sum(), filesDeleted.sum(), damagedFilesAtOpen, failures.get());
    }
}
