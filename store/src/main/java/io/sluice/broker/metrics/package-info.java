/**
 * The broker's Prometheus endpoint ({@code metricsExporterType=PROM}): {@link io.sluice.broker.metrics.BrokerMetrics}
 * registers callback metrics that read the counters the broker already keeps (store, dispatch, transport, send and
 * pull statistics, key index, client registry, committed offsets) when Prometheus scrapes;
 * {@link io.sluice.broker.metrics.RequestTimers} keeps the send, pull and key-query latency histograms, the only
 * metrics work on the request paths (one histogram per request type); {@link io.sluice.broker.metrics.MetricsEndpoint}
 * serves them over HTTP. Every metric is documented in
 * {@code distribution/src/docs/metrics.md}.
 */
package io.sluice.broker.metrics;
