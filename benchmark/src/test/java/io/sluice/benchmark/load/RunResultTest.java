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

    /** Every field of OMB's TestResult (benchmark-framework, io.openmessaging.benchmark.TestResult). */
    private static final List<String> OMB_SERIES = List.of("publishRate", "publishErrorRate", "consumeRate", "backlog",
            "publishLatencyAvg", "publishLatency50pct", "publishLatency75pct", "publishLatency95pct",
            "publishLatency99pct", "publishLatency999pct", "publishLatency9999pct", "publishLatencyMax",
            "publishDelayLatencyAvg", "publishDelayLatency50pct", "publishDelayLatency75pct",
            "publishDelayLatency95pct", "publishDelayLatency99pct", "publishDelayLatency999pct",
            "publishDelayLatency9999pct", "publishDelayLatencyMax", "endToEndLatencyAvg", "endToEndLatency50pct",
            "endToEndLatency75pct", "endToEndLatency95pct", "endToEndLatency99pct", "endToEndLatency999pct",
            "endToEndLatency9999pct", "endToEndLatencyMax");
    private static final List<String> OMB_NUMBERS = List.of("messageSize", "topics", "partitions",
            "producersPerTopic", "consumersPerTopic", "aggregatedPublishLatencyAvg", "aggregatedPublishLatency50pct",
            "aggregatedPublishLatency75pct", "aggregatedPublishLatency95pct", "aggregatedPublishLatency99pct",
            "aggregatedPublishLatency999pct", "aggregatedPublishLatency9999pct", "aggregatedPublishLatencyMax",
            "aggregatedPublishDelayLatencyAvg", "aggregatedPublishDelayLatency50pct",
            "aggregatedPublishDelayLatency75pct", "aggregatedPublishDelayLatency95pct",
            "aggregatedPublishDelayLatency99pct", "aggregatedPublishDelayLatency999pct",
            "aggregatedPublishDelayLatency9999pct", "aggregatedPublishDelayLatencyMax", "aggregatedEndToEndLatencyAvg",
            "aggregatedEndToEndLatency50pct", "aggregatedEndToEndLatency75pct", "aggregatedEndToEndLatency95pct",
            "aggregatedEndToEndLatency99pct", "aggregatedEndToEndLatency999pct", "aggregatedEndToEndLatency9999pct",
            "aggregatedEndToEndLatencyMax");
    private static final List<String> OMB_QUANTILES = List.of("aggregatedPublishLatencyQuantiles",
            "aggregatedPublishDelayLatencyQuantiles", "aggregatedEndToEndLatencyQuantiles");

    private static RunResult.Latencies noLatencies() {
        return RunResult.Latencies.of(new Histogram(3), new Histogram(3), new Histogram(3));
    }

    /** The JSON of a result with {@code dispatchLag} and nothing else of interest. */
    static Map<String, Object> json(Optional<DispatchLag> dispatchLag) {
        return new RunResult("sluice", WORKLOAD, Map.of(), 1, List.of(), 1, 1, noLatencies(), 0, -1, 0, null,
                dispatchLag).toJson();
    }

    @Test
    void everyFieldOfOmbsTestResultIsWrittenInOmbsUnits() {
        Histogram publishMicros = new Histogram(RunStats.MAX_MICROS, 3);
        Histogram delayMicros = new Histogram(RunStats.MAX_MICROS, 3);
        Histogram endToEndMicros = new Histogram(RunStats.MAX_MICROS, 3);
        for (int i = 1; i <= 1000; i++) {
            publishMicros.recordValue(i * 1_000L);
            delayMicros.recordValue(i);
            endToEndMicros.recordValue(i * 2_000L);
        }
        RunResult.Period period = new RunResult.Period(100, 2, 99, 1, RunResult.Latency.of(publishMicros),
                RunResult.Latency.of(delayMicros, 1), RunResult.Latency.of(endToEndMicros));
        Map<String, Object> json = new RunResult("kafka", WORKLOAD,
                Map.of(Peer.SERVER_VERSION, "4.1.1", Driver.CLIENT_VERSION, "3.9.0"), 10, List.of(period, period), 100,
                99, RunResult.Latencies.of(publishMicros, delayMicros, endToEndMicros), 1, -1, 0, null,
                Optional.empty()).toJson();

        assertEquals("w", json.get("workload"));
        assertEquals("kafka (server 4.1.1, client 3.9.0)", json.get("driver"));
        for (String series : OMB_SERIES) {
            assertTrue(json.get(series) instanceof List<?> list && list.size() == 2, series + ": " + json.get(series));
        }
        for (String number : OMB_NUMBERS) {
            assertTrue(json.get(number) instanceof Number, number + ": " + json.get(number));
        }
        assertEquals(List.of(2.0, 2.0), json.get("publishErrorRate"));
        // Milliseconds for publish and end-to-end latency, microseconds for the publish delay, as OMB writes them.
        assertEquals(1_000, ((Number) json.get("aggregatedPublishLatencyMax")).doubleValue(), 1);
        assertEquals(1_000, ((Number) json.get("aggregatedPublishDelayLatencyMax")).doubleValue(), 1);
        assertEquals(2_000, ((Number) json.get("aggregatedEndToEndLatencyMax")).doubleValue(), 2);
        assertEquals(500, ((Number) json.get("aggregatedPublishLatency50pct")).doubleValue(), 1);
        for (String quantiles : OMB_QUANTILES) {
            Map<?, ?> map = (Map<?, ?>) json.get(quantiles);
            assertTrue(map.size() > 10, quantiles + ": " + map);
            double lastPercentile = -1;
            double lastValue = -1;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                double percentile = Double.parseDouble((String) entry.getKey());
                double value = ((Number) entry.getValue()).doubleValue();
                assertTrue(percentile > lastPercentile && percentile <= 100, quantiles + " percentile " + percentile);
                assertTrue(value >= lastValue, quantiles + " value " + value + " after " + lastValue);
                lastPercentile = percentile;
                lastValue = value;
            }
            assertEquals(100.0, lastPercentile, quantiles);
        }
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
                List.of(), 1, 1, noLatencies(), 0, -1, 0, null, Optional.of(lag))));
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
