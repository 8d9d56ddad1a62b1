package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The quick tools' latency line: milliseconds from nanoseconds, per interval and for the whole run. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LatencyMeterTest {

    private static final Pattern LINE = Pattern.compile(
            "(latency )?p50 ([0-9.]+) ms  p99 ([0-9.]+) ms  p99\\.9 ([0-9.]+) ms  max ([0-9.]+) ms");

    @Test
    void nothingRecordedPrintsNothing() {
        LatencyMeter meter = new LatencyMeter();
        assertEquals("", meter.intervalText());
        assertEquals("", meter.totalText());
    }

    @Test
    void intervalsStartAfreshWhileTheTotalKeepsEverything() {
        LatencyMeter meter = new LatencyMeter();
        for (int i = 1; i <= 100; i++) {
            meter.recordNanos(i * 1_000_000L); // 1..100 ms
        }
        assertFigures(meter.intervalText(), false, 50, 99, 100, 100);
        meter.recordNanos(2_000_000_000L);
        assertFigures(meter.intervalText(), false, 2000, 2000, 2000, 2000);
        assertFigures(meter.totalText(), true, 51, 100, 2000, 2000);
    }

    @Test
    void negativeAndHugeLatenciesAreClampedInsteadOfThrowing() {
        LatencyMeter meter = new LatencyMeter();
        meter.recordNanos(-5);
        meter.recordNanos(Long.MAX_VALUE);
        assertFigures(meter.intervalText(), false, 0, 3_600_000, 3_600_000, 3_600_000);
    }

    /** The line's four figures, each within the histogram's 3 significant digits of the expected milliseconds. */
    private static void assertFigures(String text, boolean whole, double p50, double p99, double p999, double max) {
        Matcher m = LINE.matcher(text);
        assertTrue(m.matches(), text);
        assertEquals(whole, m.group(1) != null, "the whole-run line says 'latency': " + text);
        double[] expected = {p50, p99, p999, max};
        for (int i = 0; i < 4; i++) {
            double actual = Double.parseDouble(m.group(i + 2));
            assertEquals(expected[i], actual, expected[i] * 0.002 + 0.01, "figure " + i + " of " + text);
        }
    }
}
