package io.sluice.benchmark.load;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency recorders of one run, measured as OMB measures them (3 significant digits, microseconds):
 * <ul>
 *   <li>publish latency: from the moment the producer thread called send to the acknowledgement;</li>
 *   <li>publish delay: from the send's intended time (the rate schedule) to the moment send was called, so a
 *       producer held back by the client's back-pressure or a stall shows here (no coordinated omission hides
 *       behind the publish latency);</li>
 *   <li>end-to-end latency: from the message's born timestamp (the client's wall clock at send, milliseconds) to
 *       its delivery to the consumer.</li>
 * </ul>
 * Any thread records (wait-free); one thread, the run's sampler, takes interval snapshots.
 */
final class RunStats {

    static final long MAX_MICROS = 3_600_000_000L;

    final LongAdder sent = new LongAdder();
    final LongAdder sentBytes = new LongAdder();
    final LongAdder sendErrors = new LongAdder();
    final LongAdder received = new LongAdder();
    final LongAdder receivedBytes = new LongAdder();
    private final Recorder publishLatency = new Recorder(MAX_MICROS, 3);
    private final Recorder publishDelay = new Recorder(MAX_MICROS, 3);
    private final Recorder endToEndLatency = new Recorder(MAX_MICROS, 3);
    // Owned by the sampler thread.
    private Histogram publishInterval;
    private Histogram publishDelayInterval;
    private Histogram endToEndInterval;

    /** A send scheduled for {@code intendedNanos}, called at {@code sendNanos}, acknowledged at {@code ackNanos}. */
    void recordSent(int bytes, long intendedNanos, long sendNanos, long ackNanos) {
        sent.increment();
        sentBytes.add(bytes);
        publishLatency.recordValue(clampMicros(ackNanos - sendNanos));
        publishDelay.recordValue(clampMicros(sendNanos - intendedNanos));
    }

    /** A delivery of a message born at {@code bornTimestampMs}, received at {@code nowMs} (both wall clock). */
    void recordReceived(int bytes, long bornTimestampMs, long nowMs) {
        received.increment();
        receivedBytes.add(bytes);
        endToEndLatency.recordValue(Math.min(MAX_MICROS, Math.max(0, (nowMs - bornTimestampMs) * 1_000)));
    }

    /** Publish latencies since the previous call (the returned histogram is reused by the next call). */
    Histogram publishInterval() {
        publishInterval = publishLatency.getIntervalHistogram(publishInterval);
        return publishInterval;
    }

    /** Publish delays since the previous call (the returned histogram is reused by the next call). */
    Histogram publishDelayInterval() {
        publishDelayInterval = publishDelay.getIntervalHistogram(publishDelayInterval);
        return publishDelayInterval;
    }

    /** End-to-end latencies since the previous call (the returned histogram is reused by the next call). */
    Histogram endToEndInterval() {
        endToEndInterval = endToEndLatency.getIntervalHistogram(endToEndInterval);
        return endToEndInterval;
    }

    private static long clampMicros(long nanos) {
        return Math.min(MAX_MICROS, Math.max(0, nanos / 1_000));
    }
}
