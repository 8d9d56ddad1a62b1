package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The flush meter: each fsync that makes bytes durable is counted once, in the right latency and size buckets. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MeteredFlushTargetTest {

    private final FlushAgentTest.FakeTarget log = new FlushAgentTest.FakeTarget();
    private final CachedNanoClock clock = new CachedNanoClock();
    /** Each fsync of the fake log "takes" the time set here. */
    private long fsyncNs;
    private final MeteredFlushTarget metered = new MeteredFlushTarget(log, clock);

    MeteredFlushTargetTest() {
        log.afterForce = () -> clock.advance(fsyncNs);
    }

    @Test
    void countsEachFsyncWithItsBytesAndDuration() throws IOException {
        log.written = 3_000;
        fsyncNs = 70_000; // second latency bucket: (50 µs, 100 µs]
        metered.flushTo(3_000);
        log.written = 3_000 + (1 << 20);
        fsyncNs = 2_000_000_000L; // (1 s, 5 s]
        metered.flushTo(log.written);

        FlushStats stats = metered.stats();
        assertEquals(2, stats.flushes());
        assertEquals(3_000 + (1 << 20), stats.flushedBytes());
        assertEquals(2_000_070_000L, stats.flushNanos());
        long[] latency = new long[FlushStats.LATENCY_BOUNDS_NS.length + 1];
        latency[1] = 1;
        latency[FlushStats.LATENCY_BOUNDS_NS.length - 1] = 1;
        assertArrayEquals(latency, stats.latencyBucketCounts());
        long[] size = new long[FlushStats.SIZE_BOUNDS_BYTES.length + 1];
        size[0] = 1; // 3,000 bytes: up to a page
        size[4] = 1; // exactly 1 MiB: the bound is inclusive
        assertArrayEquals(size, stats.sizeBucketCounts());
        assertEquals(log.written, log.flushedPosition(), "the wrapped log was forced");
    }

    @Test
    void nothingToForceAndFailedFsyncsAreNotCounted() throws IOException {
        log.written = 100;
        log.flushed = 100;
        metered.flushTo(100);
        assertEquals(0, metered.stats().flushes(), "nothing to force");
        log.written = 200;
        log.failure = new IOException("disk gone");
        assertThrows(IOException.class, () -> metered.flushTo(200));
        assertEquals(0, metered.stats().flushes());
        assertEquals(0, metered.stats().flushedBytes());
    }

    @Test
    void valuesAboveTheLastBoundGoToTheOverflowBucket() {
        assertEquals(FlushStats.SIZE_BOUNDS_BYTES.length, FlushStats.bucketOf(FlushStats.SIZE_BOUNDS_BYTES,
                Long.MAX_VALUE));
        assertEquals(0, FlushStats.bucketOf(FlushStats.LATENCY_BOUNDS_NS, 0));
    }

    @Test
    void aSnapshotIsNotChangedByLaterFsyncsNorByItsReader() throws IOException {
        log.written = 10;
        metered.flushTo(10);
        FlushStats before = metered.stats();
        before.sizeBucketCounts()[0] = 99;
        log.written = 20;
        metered.flushTo(20);
        assertEquals(1, before.sizeBucketCounts()[0]);
        assertEquals(2, metered.stats().sizeBucketCounts()[0]);
    }
}
