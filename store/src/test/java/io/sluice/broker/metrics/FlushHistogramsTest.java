package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.store.log.FlushStats;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CommitLog's fsyncs as two Prometheus histograms built at scrape time: the latency in seconds and the size in
 * bytes, each with the store's bucket bounds and +Inf, per-bucket counts as counted, the count of fsyncs, the sum,
 * and the broker's constant labels; every scrape reads the counts afresh.
 */
@Timeout(10)
class FlushHistogramsTest {

    @Test
    void bothHistogramsCarryTheStoresBucketsCountsAndSums() {
        long[] latency = new long[FlushStats.LATENCY_BOUNDS_NS.length + 1];
        latency[0] = 3;
        latency[4] = 2;
        latency[latency.length - 1] = 1;
        long[] sizes = new long[FlushStats.SIZE_BOUNDS_BYTES.length + 1];
        sizes[1] = 5;
        sizes[sizes.length - 1] = 1;
        FlushStats stats = new FlushStats(6, 900_000_000L, 7_500_000_000L, latency, sizes);
        MetricSnapshots snapshots = new FlushHistograms(() -> stats, BrokerMetrics.constantLabels("C1", "b1"))
                .collect();
        assertEquals(2, snapshots.size());

        HistogramSnapshot.HistogramDataPointSnapshot seconds = point(snapshots, FlushHistograms.LATENCY);
        ClassicHistogramBuckets latencyBuckets = seconds.getClassicBuckets();
        assertEquals(FlushStats.LATENCY_BOUNDS_NS.length + 1, latencyBuckets.size());
        assertEquals(50e-6, latencyBuckets.getUpperBound(0), 1e-12, "50 µs, in seconds");
        assertEquals(5.0, latencyBuckets.getUpperBound(FlushStats.LATENCY_BOUNDS_NS.length - 1), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, latencyBuckets.getUpperBound(latencyBuckets.size() - 1));
        for (int i = 0; i < latency.length; i++) {
            assertEquals(latency[i], latencyBuckets.getCount(i), "latency bucket " + i);
        }
        assertEquals(6, seconds.getCount());
        assertEquals(7.5, seconds.getSum(), 1e-9, "seconds spent in fsyncs");
        assertEquals("C1", seconds.getLabels().get("cluster"));
        assertEquals("b1", seconds.getLabels().get("node_id"));

        HistogramSnapshot.HistogramDataPointSnapshot bytes = point(snapshots, FlushHistograms.SIZE);
        ClassicHistogramBuckets sizeBuckets = bytes.getClassicBuckets();
        assertEquals(4096.0, sizeBuckets.getUpperBound(0));
        assertEquals(256.0 * 1024 * 1024, sizeBuckets.getUpperBound(FlushStats.SIZE_BOUNDS_BYTES.length - 1));
        assertEquals(5, sizeBuckets.getCount(1));
        assertEquals(1, sizeBuckets.getCount(sizeBuckets.size() - 1), "an fsync above 256 MiB");
        assertEquals(6, bytes.getCount());
        assertEquals(900_000_000.0, bytes.getSum());
    }

    @Test
    void everyScrapeReadsTheCountsAfresh() {
        AtomicReference<FlushStats> current = new AtomicReference<>(empty());
        FlushHistograms histograms = new FlushHistograms(current::get, BrokerMetrics.constantLabels("C", "b"));
        assertEquals(0, point(histograms.collect(), FlushHistograms.LATENCY).getCount());
        long[] latency = new long[FlushStats.LATENCY_BOUNDS_NS.length + 1];
        latency[2] = 4;
        current.set(new FlushStats(4, 4096, 1_000_000, latency, new long[FlushStats.SIZE_BOUNDS_BYTES.length + 1]));
        HistogramSnapshot.HistogramDataPointSnapshot point = point(histograms.collect(), FlushHistograms.LATENCY);
        assertEquals(4, point.getCount());
        assertEquals(4, point.getClassicBuckets().getCount(2));
        assertEquals(0.001, point.getSum(), 1e-12);
    }

    private static FlushStats empty() {
        return new FlushStats(0, 0, 0, new long[FlushStats.LATENCY_BOUNDS_NS.length + 1],
                new long[FlushStats.SIZE_BOUNDS_BYTES.length + 1]);
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(MetricSnapshots snapshots, String name) {
        for (MetricSnapshot snapshot : snapshots) {
            if (snapshot.getMetadata().getName().equals(name)) {
                return ((HistogramSnapshot) snapshot).getDataPoints().get(0);
            }
        }
        throw new AssertionError("no histogram " + name + " among the snapshots");
    }
}
