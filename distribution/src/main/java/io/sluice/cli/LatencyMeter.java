package io.sluice.cli;

import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latency percentiles for the quick tools, in microseconds with 3 significant digits. Any thread records
 * (wait-free); one reader thread at a time takes the interval text (the progress printer, then the main thread
 * after the printer stopped), which also adds the interval to the whole-run histogram.
 */
final class LatencyMeter {

    private static final long MAX_MICROS = 3_600_000_000L;

    private final Recorder recorder = new Recorder(MAX_MICROS, 3);
    private final Histogram total = new Histogram(MAX_MICROS, 3);
    private Histogram interval;

    /** Records one latency. */
    void recordNanos(long nanos) {
        recorder.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1_000)));
    }

    /** "p50 … p99 … max …" of the values recorded since the previous call. */
    String intervalText() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return text("", interval);
    }

    /** The percentiles of every value recorded so far. */
    String totalText() {
        intervalText();
        return text("latency ", total);
    }

    private static String text(String prefix, Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%sp50 %.2f ms  p99 %.2f ms  p99.9 %.2f ms  max %.2f ms", prefix,
                histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3);
    }
}
