package io.sluice.benchmark.load;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency recorders of one run. Latencies are in microseconds, 3 significant digits, measured from
 * each message's intended send time (so a stall delays every message scheduled during it: no coordinated
 * omission). Any thread records (wait-free); one thread, the run's sampler, takes interval snapshots.
 */
final class RunStats {

    static final long MAX_MICROS = 3_600_000_000L;

    final LongAdder sent = new LongAdder();
    final LongAdder sentBytes = new LongAdder();
    final LongAdder sendErrors = new LongAdder();
    final LongAdder received = new LongAdder();
    final LongAdder receivedBytes = new LongAdder();
    private final Recorder publishLatency = new Recorder(MAX_MICROS, 3);
    private final Recorder endToEndLatency = new Recorder(MAX_MICROS, 3);
    // Owned by the sampler thread.
    private Histogram publishInterval;
    private Histogram endToEndInterval;

    void recordSent(int bytes, long latencyNanos) {
        sent.increment();
        sentBytes.add(bytes);
        publishLatency.recordValue(clamp(latencyNanos));
    }

    void recordReceived(int bytes, long latencyNanos) {
        received.increment();
        receivedBytes.add(bytes);
        endToEndLatency.recordValue(clamp(latencyNanos));
    }

    /** Publish latencies since the previous call (the returned histogram is reused by the next call). */
    Histogram publishInterval() {
        publishInterval = publishLatency.getIntervalHistogram(publishInterval);
        return publishInterval;
    }

    /** End-to-end latencies since the previous call (the returned histogram is reused by the next call). */
    Histogram endToEndInterval() {
        endToEndInterval = endToEndLatency.getIntervalHistogram(endToEndInterval);
        return endToEndInterval;
    }

    private static long clamp(long nanos) {
        return Math.min(MAX_MICROS, Math.max(0, nanos / 1_000));
    }
}
