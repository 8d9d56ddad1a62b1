package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness end to end, Sluice only (~20 s): starts a Sluice standalone broker in a child JVM, runs the smoke
 * workload with the Sluice client, and writes an OMB-style JSON result with non-zero publish and consume rates,
 * the broker's dispatch lag in bytes and milliseconds, and the comparison page.
 */
// In the distribution module: standalone mode (io.sluice.cli.SluiceCli), which the harness starts, lives here.
class BenchSmokeIT {

    @TempDir
    Path dir;

    @Test
    void aShortSluiceRunWritesAResultWithTraffic() throws Exception {
        Path output = dir.resolve("results");
        int exitCode = new CommandLine(new BenchCommand()).execute("../benchmark/workloads/smoke-1t-16p-1kb.yaml",
                "--system", "sluice", "--output", output.toString(), "--work-dir", dir.resolve("work").toString(),
                "--peer-heap", "512m");
        assertEquals(0, exitCode, "bench exit code");

        Path json = output.resolve("smoke-1t-16p-1kb-sluice.json");
        JSONObject result = JSON.parseObject(Files.readString(json, StandardCharsets.UTF_8));
        assertTrue(result.getString("driver").startsWith("sluice (server "), "driver: " + result.getString("driver"));
        assertTrue(result.getJSONObject("environment").getIntValue("cores") > 0, "environment: " + result);
        assertEquals(16, result.getIntValue("partitions"));
        assertTrue(result.getDoubleValue("publishRateAvg") > 0, "publish rate: " + result);
        assertTrue(result.getDoubleValue("consumeRateAvg") > 0, "consume rate: " + result);
        assertTrue(result.getDoubleValue("aggregatedPublishLatency99pct") > 0, "publish latency: " + result);
        assertTrue(result.getDoubleValue("aggregatedEndToEndLatency99pct") > 0, "end-to-end latency: " + result);
        assertEquals(0, result.getLongValue("sendErrors"), "send errors: " + result.getString("firstSendError"));
        assertTrue(result.getLongValue("dispatchLagSamples") > 0, "dispatch lag samples: " + result);
        for (String unit : List.of("Ms", "Bytes")) {
            for (String figure : List.of("50pct", "99pct", "Max")) {
                String key = "dispatchLag" + unit + figure;
                assertTrue(result.containsKey(key), key + " missing: " + result);
                assertTrue(result.getLongValue(key) >= 0, key + ": " + result.get(key));
            }
        }
        assertTrue(result.getLongValue("dispatchLagSampleFailures") >= 0, "dispatch lag sample failures");
        assertTrue(Files.readString(output.resolve("summary.md"), StandardCharsets.UTF_8).contains("dispatch lag"),
                "summary.md has the dispatch lag columns");
        assertTrue(Files.size(output.resolve("smoke-1t-16p-1kb-comparison.html")) > 1000, "comparison page");
    }
}
