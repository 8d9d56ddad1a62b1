package io.sluice.benchmark.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The outcome of one workload on one system, and its OMB-style JSON form ({@link #toJson()}): OMB's field names
 * for rates, backlog and latency series (one entry per sample period) and aggregates over the measured phase,
 * latencies in milliseconds. Immutable.
 *
 * @param system            the system's name (sluice, sluice-apache-client, rocketmq, kafka)
 * @param workload          the workload run
 * @param settings          the driver's comparison-relevant settings
 * @param periodSeconds     length of one sample period
 * @param periods           the measured periods
 * @param publishRate       acknowledged messages per second over the measured phase
 * @param consumeRate       received messages per second over the measured phase
 * @param publishLatency    publish latency (intended send to acknowledgement) over the measured phase
 * @param endToEndLatency   end-to-end latency (intended send to delivery) over the measured phase
 * @param backlog           messages sent but not yet received (summed over subscriptions) at the end
 * @param drainSeconds      for a backlog workload, seconds from the consumers' start until the backlog was gone;
 *                          -1 when it was not drained or the workload has no backlog
 * @param sendErrors        failed sends over the whole run
 * @param firstSendError    the first send error, or null
 * @param dispatchLag       the broker's dispatch lag over the measured phase; empty for a system that does not
 *                          report it (Kafka)
 */
record RunResult(String system, Workload workload, Map<String, String> settings, int periodSeconds,
                 List<Period> periods, double publishRate, double consumeRate, Latency publishLatency,
                 Latency endToEndLatency, long backlog, double drainSeconds, long sendErrors,
                 String firstSendError, Optional<DispatchLag> dispatchLag) {

    /** Copies the settings map: the result is immutable. */
    RunResult {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        periods = List.copyOf(periods);
    }

    /** A copy with {@code more} settings added after the current ones. */
    RunResult withSettings(Map<String, String> more) {
        Map<String, String> merged = new LinkedHashMap<>(settings);
        merged.putAll(more);
        return new RunResult(system, workload, merged, periodSeconds, periods, publishRate, consumeRate,
                publishLatency, endToEndLatency, backlog, drainSeconds, sendErrors, firstSendError, dispatchLag);
    }

    /** One sample period. */
    record Period(double publishRate, double consumeRate, long backlog, Latency publish, Latency endToEnd) {
    }

    /** Latency figures in milliseconds. */
    record Latency(double avg, double p50, double p75, double p95, double p99, double p999, double p9999,
                   double max, long count) {

        static Latency of(Histogram micros) {
            if (micros.getTotalCount() == 0) {
                return new Latency(0, 0, 0, 0, 0, 0, 0, 0, 0);
            }
            return new Latency(micros.getMean() / 1e3, ms(micros, 50), ms(micros, 75), ms(micros, 95),
                    ms(micros, 99), ms(micros, 99.9), ms(micros, 99.99), micros.getMaxValue() / 1e3,
                    micros.getTotalCount());
        }

        private static double ms(Histogram micros, double percentile) {
            return micros.getValueAtPercentile(percentile) / 1e3;
        }
    }

    /** The OMB-style JSON object (insertion-ordered map of numbers, strings, lists). */
    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workload", workload.name());
        json.put("driver", system);
        json.put("system", system);
        json.put("settings", settings);
        json.put("messageSize", workload.messageSizeBytes());
        json.put("topics", workload.topics());
        json.put("partitions", workload.partitionsPerTopic());
        json.put("producersPerTopic", workload.producersPerTopic());
        json.put("consumersPerTopic", workload.subscriptionsPerTopic() * workload.consumerPerSubscription());
        json.put("producerRate", workload.producerRate());
        json.put("consumerBacklogSizeGB", workload.consumerBacklogSizeGB());
        json.put("warmupSeconds", workload.warmupSeconds());
        json.put("testSeconds", workload.testSeconds());
        json.put("samplePeriodSeconds", periodSeconds);
        json.put("publishRate", series(Period::publishRate));
        json.put("consumeRate", series(Period::consumeRate));
        json.put("backlog", series(p -> p.backlog()));
        latencySeries(json, "publishLatency", Period::publish);
        latencySeries(json, "endToEndLatency", Period::endToEnd);
        json.put("publishRateAvg", publishRate);
        json.put("consumeRateAvg", consumeRate);
        aggregate(json, "aggregatedPublishLatency", publishLatency);
        aggregate(json, "aggregatedEndToEndLatency", endToEndLatency);
        json.put("finalBacklog", backlog);
        json.put("backlogDrainSeconds", drainSeconds);
        json.put("sendErrors", sendErrors);
        json.put("firstSendError", firstSendError);
        dispatchLag.ifPresent(lag -> dispatchLagFields(json, lag));
        return json;
    }

    /**
     * Sample counts always; the percentile fields of a unit only when it was measured (no {@code dispatchLagMs*} for
     * Apache's broker, which reports bytes only).
     */
    private static void dispatchLagFields(Map<String, Object> json, DispatchLag lag) {
        json.put("dispatchLagSamples", lag.samples());
        json.put("dispatchLagSampleFailures", lag.failures());
        json.put("dispatchLagFirstSampleFailure", lag.firstFailure());
        lag.ms().ifPresent(f -> figures(json, "dispatchLagMs", f));
        lag.bytes().ifPresent(f -> figures(json, "dispatchLagBytes", f));
    }

    private static void figures(Map<String, Object> json, String prefix, DispatchLag.Figures figures) {
        json.put(prefix + "50pct", figures.p50());
        json.put(prefix + "99pct", figures.p99());
        json.put(prefix + "Max", figures.max());
    }

    private List<Double> series(ToDoubleFunction<Period> value) {
        List<Double> values = new ArrayList<>();
        periods.forEach(p -> values.add(value.applyAsDouble(p)));
        return values;
    }

    private void latencySeries(Map<String, Object> json, String prefix, Function<Period, Latency> of) {
        json.put(prefix + "Avg", series(p -> of.apply(p).avg()));
        json.put(prefix + "50pct", series(p -> of.apply(p).p50()));
        json.put(prefix + "75pct", series(p -> of.apply(p).p75()));
        json.put(prefix + "95pct", series(p -> of.apply(p).p95()));
        json.put(prefix + "99pct", series(p -> of.apply(p).p99()));
        json.put(prefix + "999pct", series(p -> of.apply(p).p999()));
        json.put(prefix + "9999pct", series(p -> of.apply(p).p9999()));
        json.put(prefix + "Max", series(p -> of.apply(p).max()));
    }

    private static void aggregate(Map<String, Object> json, String prefix, Latency latency) {
        json.put(prefix + "Avg", latency.avg());
        json.put(prefix + "50pct", latency.p50());
        json.put(prefix + "75pct", latency.p75());
        json.put(prefix + "95pct", latency.p95());
        json.put(prefix + "99pct", latency.p99());
        json.put(prefix + "999pct", latency.p999());
        json.put(prefix + "9999pct", latency.p9999());
        json.put(prefix + "Max", latency.max());
    }
}
