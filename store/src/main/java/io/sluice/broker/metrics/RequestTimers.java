package io.sluice.broker.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.transport.RequestHandler;
import java.util.concurrent.CompletableFuture;

/**
 * Latency histograms of the broker's requests: one histogram per request type (send, pull, key query), never per
 * topic or queue, so recording one costs two clock reads and a bucket increment per request, whatever the request
 * carries. The handlers are wrapped once at registration; {@link #NONE} wraps nothing, for brokers without a
 * metrics endpoint.
 *
 * <p>What is timed: from the handler's start to its response, so the wait for a synchronous flush or a slave's
 * acknowledgement is included and the time a request waited in the transport's queues is not. A pull parked for a
 * long poll is not timed: its duration is the consumer's poll timeout, not the broker's work.
 *
 * <p>Thread-safe: the histograms take observations from any thread.
 */
public final class RequestTimers {

    /** Wraps nothing and records nothing. */
    public static final RequestTimers NONE = new RequestTimers(null, null, null, null);

    /** Bucket bounds in seconds, 100 µs to 10 s. */
    private static final double[] BOUNDS_SECONDS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
        0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private static final double NANOS_PER_SECOND = 1e9;

    private final Histogram requests;
    private final Histogram keyLookups;
    private final DistributionDataPoint sends;
    private final DistributionDataPoint pulls;

    private RequestTimers(Histogram requests, Histogram keyLookups, DistributionDataPoint sends,
                          DistributionDataPoint pulls) {
        this.requests = requests;
        this.keyLookups = keyLookups;
        this.sends = sends;
        this.pulls = pulls;
    }

    /**
     * Histograms labelled with the broker's constant labels, not yet registered ({@link #registerOn}).
     *
     * @param clusterName the {@code cluster} label
     * @param brokerName  the {@code node_id} label
     */
    public static RequestTimers create(String clusterName, String brokerName) {
        Labels constant = BrokerMetrics.constantLabels(clusterName, brokerName);
        Histogram requests = histogram("sluice_request_latency_seconds", "Time from the start of a send or pull"
                + " request's handling to its response (long-polled pulls excluded).", constant, "request");
        Histogram keyLookups = histogram("sluice_key_index_lookup_latency_seconds", "Time to answer a QUERY_MESSAGE"
                + " (by key or unique key) from the key index, reading the matched records included.", constant);
        return new RequestTimers(requests, keyLookups, requests.labelValues("send"), requests.labelValues("pull"));
    }

    private static Histogram histogram(String name, String help, Labels constant, String... labelNames) {
        return Histogram.builder().name(name).help(help).constLabels(constant).labelNames(labelNames)
                .classicOnly().classicUpperBounds(BOUNDS_SECONDS).withoutExemplars().build();
    }

    /** Adds the histograms to {@code registry}; does nothing for {@link #NONE}. */
    public void registerOn(PrometheusRegistry registry) {
        if (requests != null) {
            registry.register(requests);
            registry.register(keyLookups);
        }
    }

    /** {@code handler}, its sends timed until their response completes. */
    public RequestHandler timeSends(RequestHandler handler) {
        return sends == null ? handler : timed(handler, sends, true);
    }

    /** {@code handler}, its pulls timed when answered at once (a parked pull is not timed). */
    public RequestHandler timePulls(RequestHandler handler) {
        return pulls == null ? handler : timed(handler, pulls, false);
    }

    /** {@code handler}, timed as key-index lookups (it answers synchronously). */
    public RequestHandler timeKeyLookups(RequestHandler handler) {
        return keyLookups == null ? handler : timed(handler, keyLookups, false);
    }

    /**
     * {@code handler} with each request observed into {@code point}: when its response is complete on return, or,
     * with {@code awaitLater}, when it completes later; without {@code awaitLater} a later response is not timed.
     */
    private static RequestHandler timed(RequestHandler handler, DistributionDataPoint point, boolean awaitLater) {
        return (connection, request) -> {
            long startNs = System.nanoTime();
            CompletableFuture<RemotingCommand> response = handler.handle(connection, request);
            if (response.isDone()) {
                observe(point, startNs);
            } else if (awaitLater) {
                response.whenComplete((r, e) -> observe(point, startNs));
            }
            return response;
        };
    }

    private static void observe(DistributionDataPoint point, long startNs) {
        point.observe((System.nanoTime() - startNs) / NANOS_PER_SECOND);
    }
}
