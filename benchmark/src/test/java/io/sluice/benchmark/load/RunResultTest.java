package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunResultTest {

    private static final Workload WORKLOAD = new Workload("w", 1, 16, 1024, 1, 1, 1, 1_000, 0, 5, 10);

    /** The JSON of a result with {@code dispatchLag} and nothing else of interest. */
    static Map<String, Object> json(Optional<DispatchLag> dispatchLag) {
        RunResult.Latency none = RunResult.Latency.of(new Histogram(3));
        return new RunResult("sluice", WORKLOAD, Map.of(), 1, List.of(), 1, 1, none, none, 0, -1, 0, null,
                dispatchLag).toJson();
    }

    @Test
    void aSystemWithoutDispatchLagHasNoLagFields() {
        Map<String, Object> json = json(Optional.empty());
        assertTrue(json.keySet().stream().noneMatch(k -> k.startsWith("dispatchLag")), json.keySet().toString());
    }

    @Test
    void bothUnitsAreReportedWithTheirSampleCounts() {
        DispatchLag lag = new DispatchLag(200, 2, "java.net.ConnectException: refused",
                Optional.of(new DispatchLag.Figures(0, 65_536, 1_048_576, 200)),
                Optional.of(new DispatchLag.Figures(0, 3, 12, 200)));
        Map<String, Object> json = json(Optional.of(lag));
        assertEquals(200L, json.get("dispatchLagSamples"));
        assertEquals(2L, json.get("dispatchLagSampleFailures"));
        assertEquals("java.net.ConnectException: refused", json.get("dispatchLagFirstSampleFailure"));
        assertEquals(0L, json.get("dispatchLagMs50pct"));
        assertEquals(3L, json.get("dispatchLagMs99pct"));
        assertEquals(12L, json.get("dispatchLagMsMax"));
        assertEquals(0L, json.get("dispatchLagBytes50pct"));
        assertEquals(65_536L, json.get("dispatchLagBytes99pct"));
        assertEquals(1_048_576L, json.get("dispatchLagBytesMax"));
        String table = ComparisonChart.markdownTable(List.of(new RunResult("sluice", WORKLOAD, Map.of(), 1,
                List.of(), 1, 1, RunResult.Latency.of(new Histogram(3)), RunResult.Latency.of(new Histogram(3)), 0,
                -1, 0, null, Optional.of(lag))));
        assertTrue(table.contains("| 0 / 3 / 12 | 0 / 65,536 / 1,048,576 | 200 (2) |"), table);
    }

    @Test
    void bytesOnlyLeavesTheMillisecondsAbsentNotZero() {
        DispatchLag lag = new DispatchLag(10, 0, null, Optional.of(new DispatchLag.Figures(0, 0, 0, 10)),
                Optional.empty());
        Map<String, Object> json = json(Optional.of(lag));
        assertFalse(json.containsKey("dispatchLagMs99pct"), json.keySet().toString());
        assertEquals(0L, json.get("dispatchLagBytes99pct"));
    }
}
