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
import org.HdrHistogram.HistogramIterationValue;

/**
 * The outcome of one workload on one system, and its JSON form ({@link #toJson()}): every field of OMB's
 * {@code TestResult} (so OMB's {@code bin/create_charts.py} charts it beside OMB's own results), with OMB's units
 * (latencies in milliseconds, publish delay in microseconds, one series entry per {@value #OMB_PERIOD_SECONDS} s
 * period), plus the harness's own fields (averages, backlog, errors, settings, dispatch lag). Immutable.
 *
 * @param system            the system's name (sluice, sluice-apache-client, rocketmq, kafka)
 * @param workload          the workload run
 * @param settings          the driver's and the servers' comparison-relevant settings
 * @param periodSeconds     length of one sample period
 * @param periods           the measured periods
 * @param publishRate       acknowledged messages per second over the measured phase
 * @param consumeRate       received messages per second over the measured phase
 * @param latencies         the latency distributions over the measured phase
 * @param backlog           messages sent but not yet received (summed over subscriptions) at the end
 * @param drainSeconds      for a backlog workload, seconds from the consumers' start until the backlog was gone;
 *                          -1 when it was not drained or the workload has no backlog
 * @param sendErrors        failed sends over the whole run
 * @param firstSendError    the first send error, or null
 * @param dispatchLag       the broker's dispatch lag over the measured phase; empty for a system that does not
 *                          report it (Kafka)
 */
record RunResult(String system, Workload workload, Map<String, String> settings, int periodSeconds,
                 List<Period> periods, double publishRate, double consumeRate, Latencies latencies, long backlog,
                 double drainSeconds, long sendErrors, String firstSendError, Optional<DispatchLag> dispatchLag) {

    /** OMB's sample period: its charts put entry i of a series at 10 * i seconds. */
    static final int OMB_PERIOD_SECONDS = 10;

    /** Copies the settings map: the result is immutable. */
    RunResult {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        periods = List.copyOf(periods);
    }

    /** A copy with {@code more} settings added after the current ones. */
    RunResult withSettings(Map<String, String> more) {
        Map<String, String> merged = new LinkedHashMap<>(settings);
        merged.putAll(more);
        return new RunResult(system, workload, merged, periodSeconds, periods, publishRate, consumeRate, latencies,
                backlog, drainSeconds, sendErrors, firstSendError, dispatchLag);
    }

    /** The system with its server and client versions, e.g. {@code kafka (server 4.1.1, client 3.9.0)}. */
    String label() {
        return system + " (server " + settings.getOrDefault(Peer.SERVER_VERSION, "?") + ", client "
                + settings.getOrDefault(Driver.CLIENT_VERSION, "?") + ")";
    }

    Latency publishLatency() {
        return latencies.publish();
    }

    Latency endToEndLatency() {
        return latencies.endToEnd();
    }

    /**
     * One sample period.
     *
     * @param publishDelay publish delay in microseconds; the other latencies in milliseconds
     */
    record Period(double publishRate, double publishErrorRate, double consumeRate, long backlog, Latency publish,
                  Latency publishDelay, Latency endToEnd) {
    }

    /**
     * Latency figures of one distribution, in the unit the field it fills names (OMB: milliseconds, but
     * microseconds for the publish delay).
     */
    record Latency(double avg, double p50, double p75, double p95, double p99, double p999, double p9999,
                   double max, long count) {

        /** Figures of {@code micros} in milliseconds. */
        static Latency of(Histogram micros) {
            return of(micros, 1e3);
        }

        /** Figures of {@code micros} divided by {@code divisor} (1e3: milliseconds, 1: microseconds). */
        static Latency of(Histogram micros, double divisor) {
            if (micros.getTotalCount() == 0) {
                return new Latency(0, 0, 0, 0, 0, 0, 0, 0, 0);
            }
            return new Latency(micros.getMean() / divisor, at(micros, 50, divisor), at(micros, 75, divisor),
                    at(micros, 95, divisor), at(micros, 99, divisor), at(micros, 99.9, divisor),
                    at(micros, 99.99, divisor), micros.getMaxValue() / divisor, micros.getTotalCount());
        }

        private static double at(Histogram micros, double percentile, double divisor) {
            return micros.getValueAtPercentile(percentile) / divisor;
        }
    }

    /**
     * The measured phase's latency distributions: figures and OMB's quantile maps (percentile, as text, to value;
     * {@code create_charts.py} draws its quantile charts from them).
     */
    record Latencies(Latency publish, Latency publishDelay, Latency endToEnd, Map<String, Double> publishQuantiles,
                     Map<String, Double> publishDelayQuantiles, Map<String, Double> endToEndQuantiles) {

        Latencies {
            publishQuantiles = Collections.unmodifiableMap(new LinkedHashMap<>(publishQuantiles));
            publishDelayQuantiles = Collections.unmodifiableMap(new LinkedHashMap<>(publishDelayQuantiles));
            endToEndQuantiles = Collections.unmodifiableMap(new LinkedHashMap<>(endToEndQuantiles));
        }

        /** From microsecond histograms: publish and end-to-end in milliseconds, publish delay in microseconds. */
        static Latencies of(Histogram publishMicros, Histogram publishDelayMicros, Histogram endToEndMicros) {
            return new Latencies(Latency.of(publishMicros), Latency.of(publishDelayMicros, 1),
                    Latency.of(endToEndMicros), quantiles(publishMicros, 1e3), quantiles(publishDelayMicros, 1),
                    quantiles(endToEndMicros, 1e3));
        }

        /** As OMB writes them: HdrHistogram's percentile iteration, 100 steps per halving of the distance to 100%. */
        private static Map<String, Double> quantiles(Histogram micros, double divisor) {
            Map<String, Double> quantiles = new LinkedHashMap<>();
            if (micros.getTotalCount() == 0) {
                return quantiles;
            }
            for (HistogramIterationValue value : micros.percentiles(100)) {
                quantiles.put(Double.toString(value.getPercentile()), value.getValueIteratedTo() / divisor);
            }
            return quantiles;
        }
    }

    /** The JSON object: OMB's TestResult fields, then the harness's (insertion-ordered). */
    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workload", workload.name());
        json.put("driver", label());
        json.put("messageSize", workload.messageSizeBytes());
        json.put("topics", workload.topics());
        json.put("partitions", workload.partitionsPerTopic());
        json.put("producersPerTopic", workload.producersPerTopic());
        json.put("consumersPerTopic", workload.consumerPerSubscription());
        json.put("publishRate", series(Period::publishRate));
        json.put("publishErrorRate", series(Period::publishErrorRate));
        json.put("consumeRate", series(Period::consumeRate));
        json.put("backlog", periods.stream().map(Period::backlog).toList());
        latencySeries(json, "publishLatency", Period::publish);
        latencySeries(json, "publishDelayLatency", Period::publishDelay);
        aggregate(json, "aggregatedPublishLatency", latencies.publish());
        aggregate(json, "aggregatedPublishDelayLatency", latencies.publishDelay());
        json.put("aggregatedPublishLatencyQuantiles", latencies.publishQuantiles());
        json.put("aggregatedPublishDelayLatencyQuantiles", latencies.publishDelayQuantiles());
        latencySeries(json, "endToEndLatency", Period::endToEnd);
        json.put("aggregatedEndToEndLatencyQuantiles", latencies.endToEndQuantiles());
        aggregate(json, "aggregatedEndToEndLatency", latencies.endToEnd());

        json.put("system", system);
        json.put("settings", settings);
        json.put("subscriptionsPerTopic", workload.subscriptionsPerTopic());
        json.put("producerRate", workload.producerRate());
        json.put("consumerBacklogSizeGB", workload.consumerBacklogSizeGB());
        json.put("warmupSeconds", workload.warmupSeconds());
        json.put("testSeconds", workload.testSeconds());
        json.put("samplePeriodSeconds", periodSeconds);
        json.put("publishRateAvg", publishRate);
        json.put("consumeRateAvg", consumeRate);
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
