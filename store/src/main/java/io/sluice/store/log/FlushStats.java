package io.sluice.store.log;

import java.util.Arrays;

/**
 * What the flush agent's fsyncs did: how many, how many bytes they made durable and how long they took, with the
 * latency and size of each counted in fixed buckets ({@link #LATENCY_BOUNDS_NS}, {@link #SIZE_BOUNDS_BYTES}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param flushes              fsyncs done by the flush agent
 * @param flushedBytes         bytes those fsyncs made durable
 * @param flushNanos           time spent in them
 * @param latencyBucketCounts  per bucket of {@link #LATENCY_BOUNDS_NS} (not cumulative), the last counting the
 *                             slower ones; {@code LATENCY_BOUNDS_NS.length + 1} entries
 * @param sizeBucketCounts     per bucket of {@link #SIZE_BOUNDS_BYTES} (not cumulative), the last counting the
 *                             larger ones; {@code SIZE_BOUNDS_BYTES.length + 1} entries
 */
public record FlushStats(long flushes, long flushedBytes, long flushNanos, long[] latencyBucketCounts,
                         long[] sizeBucketCounts) {

    /** Inclusive upper bounds of the latency buckets, in nanoseconds: 50 µs to 5 s. */
    public static final long[] LATENCY_BOUNDS_NS = {50_000L, 100_000L, 250_000L, 500_000L, 1_000_000L,
        2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L, 100_000_000L, 250_000_000L,
        500_000_000L, 1_000_000_000L, 5_000_000_000L};

    /** Inclusive upper bounds of the size buckets, in bytes: 4 KiB (a page) to 256 MiB. */
    public static final long[] SIZE_BOUNDS_BYTES = {4L << 10, 16L << 10, 64L << 10, 256L << 10, 1L << 20,
        4L << 20, 16L << 20, 64L << 20, 256L << 20};

    /** Copies the bucket arrays, so that the record stays immutable. */
    public FlushStats {
        latencyBucketCounts = latencyBucketCounts.clone();
        sizeBucketCounts = sizeBucketCounts.clone();
    }

    /** A copy of the latency bucket counts. */
    @Override
    public long[] latencyBucketCounts() {
        return latencyBucketCounts.clone();
    }

    /** A copy of the size bucket counts. */
    @Override
    public long[] sizeBucketCounts() {
        return sizeBucketCounts.clone();
    }

    /** Index of the bucket of {@code bounds} that {@code value} falls in; {@code bounds.length} above them all. */
    static int bucketOf(long[] bounds, long value) {
        int i = Arrays.binarySearch(bounds, value);
        return i >= 0 ? i : -i - 1;
    }
}
