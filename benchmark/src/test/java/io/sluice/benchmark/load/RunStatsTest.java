package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One run's counters and latency recorders: latencies in microseconds, clamped to [0, an hour], each interval
 * holding only what was recorded since the previous one.
 */
@Timeout(10)
class RunStatsTest {

    private static final long MS = 1_000_000L;

    @Test
    void aSendRecordsItsLatencyAndItsDelayApart() {
        RunStats stats = new RunStats();
        stats.recordSent(100, 0, 3 * MS, 10 * MS);
        stats.recordSent(50, 5 * MS, 5 * MS, 6 * MS);
        assertEquals(2, stats.sent.sum());
        assertEquals(150, stats.sentBytes.sum());
        Histogram latency = stats.publishInterval();
        assertEquals(2, latency.getTotalCount());
        assertEquals(1_000, latency.getMinValue(), 1, "send to ack: 1 ms");
        assertEquals(7_000, latency.getMaxValue(), 7, "send to ack: 7 ms");
        Histogram delay = stats.publishDelayInterval();
        assertEquals(0, delay.getMinValue(), "called on schedule");
        assertEquals(3_000, delay.getMaxValue(), 3, "called 3 ms after its intended time");
    }

    @Test
    void negativeAndHugeDurationsAreClampedNotLost() {
        RunStats stats = new RunStats();
        stats.recordSent(1, 10 * MS, 5 * MS, 4 * MS);
        stats.recordSent(1, 0, 0, Long.MAX_VALUE / 2);
        Histogram latency = stats.publishInterval();
        assertEquals(2, latency.getTotalCount());
        assertEquals(0, latency.getMinValue(), "a clock step backwards counts as 0");
        assertEquals(RunStats.MAX_MICROS, latency.getMaxValue(), RunStats.MAX_MICROS / 1_000);
        assertEquals(0, stats.publishDelayInterval().getMaxValue(), "a send called before its time has no delay");
    }

    @Test
    void endToEndLatencyIsBornToDeliveredInMicroseconds() {
        RunStats stats = new RunStats();
        stats.recordReceived(10, 1_000, 1_025);
        stats.recordReceived(20, 2_000, 1_990);
        stats.recordReceived(30, 0, Long.MAX_VALUE / 2_000);
        assertEquals(3, stats.received.sum());
        assertEquals(60, stats.receivedBytes.sum());
        Histogram e2e = stats.endToEndInterval();
        assertEquals(3, e2e.getTotalCount());
        assertEquals(0, e2e.getMinValue(), "a consumer clock behind the producer's counts as 0");
        assertEquals(1, e2e.getCountBetweenValues(24_900, 25_100), "25 ms");
        assertEquals(RunStats.MAX_MICROS, e2e.getMaxValue(), RunStats.MAX_MICROS / 1_000);
    }

    @Test
    void eachIntervalHoldsOnlyWhatCameSinceThePreviousOne() {
        RunStats stats = new RunStats();
        stats.recordSent(1, 0, 0, 2 * MS);
        assertEquals(1, stats.publishInterval().getTotalCount());
        assertEquals(0, stats.publishInterval().getTotalCount());
        stats.recordSent(1, 0, 0, 4 * MS);
        stats.recordSent(1, 0, 0, 4 * MS);
        Histogram second = stats.publishInterval();
        assertEquals(2, second.getTotalCount());
        assertEquals(4_000, second.getMinValue(), 4);
        assertEquals(3, stats.sent.sum(), "the counters keep the run's totals");
        assertEquals(3, stats.publishDelayInterval().getTotalCount(), "delays were not sampled yet: all three");
        assertEquals(0, stats.publishDelayInterval().getTotalCount());
    }
}
