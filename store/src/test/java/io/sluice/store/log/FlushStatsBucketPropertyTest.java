package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * The bucket a flush's latency or size is counted in: the first whose inclusive upper bound is not below the value,
 * the extra last bucket above every bound; and the stats record is a copy its holders cannot change.
 */
class FlushStatsBucketPropertyTest {

    @Property(tries = 500)
    void aLatencyFallsInTheFirstBucketWhoseBoundHoldsIt(@ForAll @LongRange(min = 0, max = 10_000_000_000L) long ns) {
        checkBucket(FlushStats.LATENCY_BOUNDS_NS, ns);
    }

    @Property(tries = 500)
    void aSizeFallsInTheFirstBucketWhoseBoundHoldsIt(@ForAll @LongRange(min = 0, max = 1L << 30) long bytes) {
        checkBucket(FlushStats.SIZE_BOUNDS_BYTES, bytes);
    }

    private static void checkBucket(long[] bounds, long value) {
        int bucket = FlushStats.bucketOf(bounds, value);
        assertTrue(bucket >= 0 && bucket <= bounds.length, "bucket " + bucket);
        if (bucket < bounds.length) {
            assertTrue(value <= bounds[bucket], value + " <= " + bounds[bucket]);
        }
        if (bucket > 0) {
            assertTrue(value > bounds[bucket - 1], value + " > " + bounds[bucket - 1]);
        }
    }

    @Example
    void boundsAreInclusiveAndAscending() {
        for (long[] bounds : new long[][] {FlushStats.LATENCY_BOUNDS_NS, FlushStats.SIZE_BOUNDS_BYTES}) {
            long[] sorted = bounds.clone();
            Arrays.sort(sorted);
            assertTrue(Arrays.equals(sorted, bounds) && Arrays.stream(bounds).distinct().count() == bounds.length);
            for (int i = 0; i < bounds.length; i++) {
                assertEquals(i, FlushStats.bucketOf(bounds, bounds[i]), "a bound belongs to its own bucket");
                assertEquals(i + 1, FlushStats.bucketOf(bounds, bounds[i] + 1));
            }
            assertEquals(0, FlushStats.bucketOf(bounds, 0));
            assertEquals(bounds.length, FlushStats.bucketOf(bounds, Long.MAX_VALUE));
        }
    }

    @Example
    void theRecordKeepsItsOwnCopiesOfTheBuckets() {
        long[] latency = new long[FlushStats.LATENCY_BOUNDS_NS.length + 1];
        long[] size = new long[FlushStats.SIZE_BOUNDS_BYTES.length + 1];
        latency[0] = 3;
        FlushStats stats = new FlushStats(3, 12_288, 90_000, latency, size);
        latency[0] = 99;
        assertEquals(3, stats.latencyBucketCounts()[0], "changing the array given does not change the record");
        stats.latencyBucketCounts()[0] = 42;
        stats.sizeBucketCounts()[0] = 42;
        assertEquals(3, stats.latencyBucketCounts()[0], "changing an array read does not change the record");
        assertEquals(0, stats.sizeBucketCounts()[0]);
    }
}
