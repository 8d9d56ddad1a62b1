package io.sluice.store.log;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts the fsyncs of a flush agent ({@link MeteredFlushTarget}) for {@link FlushStats}: metrics read it when
 * they are scraped, and the append path does no work for it.
 *
 * <p>Written by one thread at a time, the one flushing (the agent's thread, or the closing thread after the agent
 * stopped); read by any thread. Each figure is published on its own, so a reader may see a flush counted in one
 * and not yet in another.
 */
final class FlushMeter {

    private static final int FLUSHES = 0;
    private static final int BYTES = 1;
    private static final int NANOS = 2;

    private final AtomicLongArray totals = new AtomicLongArray(3);
    private final AtomicLongArray latencyCounts = new AtomicLongArray(FlushStats.LATENCY_BOUNDS_NS.length + 1);
    private final AtomicLongArray sizeCounts = new AtomicLongArray(FlushStats.SIZE_BOUNDS_BYTES.length + 1);

    /** Counts one fsync of {@code bytes} that took {@code durationNs}. */
    void record(long bytes, long durationNs) {
        // Single writer: a plain read and an ordered write publish each figure without a read-modify-write.
        increase(totals, FLUSHES, 1);
        increase(totals, BYTES, bytes);
        increase(totals, NANOS, durationNs);
        increase(latencyCounts, FlushStats.bucketOf(FlushStats.LATENCY_BOUNDS_NS, durationNs), 1);
        increase(sizeCounts, FlushStats.bucketOf(FlushStats.SIZE_BOUNDS_BYTES, bytes), 1);
    }

    private static void increase(AtomicLongArray array, int index, long delta) {
        array.lazySet(index, array.get(index) + delta);
    }

    /** The counts so far. Any thread. */
    FlushStats snapshot() {
        return new FlushStats(totals.get(FLUSHES), totals.get(BYTES), totals.get(NANOS), copy(latencyCounts),
                copy(sizeCounts));
    }

    private static long[] copy(AtomicLongArray array) {
        long[] copy = new long[array.length()];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = array.get(i);
        }
        return copy;
    }
}
