package io.sluice.broker.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.store.log.FlushStats;
import java.util.function.Supplier;

/**
 * The CommitLog's fsyncs as two Prometheus histograms, built at scrape time from the buckets the store's flush
 * agent counts ({@link FlushStats}): {@code sluice_commitlog_flush_latency_seconds} (how long each fsync took) and
 * {@code sluice_commitlog_flush_size_bytes} (how many bytes each made durable). Their {@code _count} is the number
 * of fsyncs, the size histogram's {@code _sum} the bytes flushed. The flush thread does no Prometheus work.
 *
 * <p>Stateless; {@link #collect()} runs on the scraping thread.
 */
final class FlushHistograms implements MultiCollector {

    static final String LATENCY = "sluice_commitlog_flush_latency_seconds";
    static final String SIZE = "sluice_commitlog_flush_size_bytes";
    private static final double NANOS_PER_SECOND = 1e9;

    private final Supplier<FlushStats> stats;
    private final Labels constant;

    /**
     * @param stats    the store's flush counts, read at each scrape
     * @param constant the broker's constant labels
     */
    FlushHistograms(Supplier<FlushStats> stats, Labels constant) {
        this.stats = stats;
        this.constant = constant;
    }

    @Override
    public MetricSnapshots collect() {
        FlushStats s = stats.get();
        return new MetricSnapshots(
                histogram(LATENCY, "Time each fsync of the CommitLog by its flush agent took.",
                        scaled(FlushStats.LATENCY_BOUNDS_NS, NANOS_PER_SECOND), s.latencyBucketCounts(),
                        s.flushNanos() / NANOS_PER_SECOND),
                histogram(SIZE, "Bytes each fsync of the CommitLog by its flush agent made durable.",
                        scaled(FlushStats.SIZE_BOUNDS_BYTES, 1), s.sizeBucketCounts(), s.flushedBytes()));
    }

    private MetricSnapshot histogram(String name, String help, double[] bounds, long[] counts, double sum) {
        ClassicHistogramBuckets buckets = ClassicHistogramBuckets.of(bounds, counts);
        return HistogramSnapshot.builder().name(name).help(help)
                .dataPoint(HistogramDataPointSnapshot.builder().classicHistogramBuckets(buckets).sum(sum)
                        .labels(constant).build())
                .build();
    }

    /** {@code bounds} divided by {@code divisor}, with +Inf appended for the last bucket. */
    private static double[] scaled(long[] bounds, double divisor) {
        double[] scaled = new double[bounds.length + 1];
        for (int i = 0; i < bounds.length; i++) {
            scaled[i] = bounds[i] / divisor;
        }
        scaled[bounds.length] = Double.POSITIVE_INFINITY;
        return scaled;
    }
}
