/**
 * The broker's Prometheus endpoint ({@code metricsExporterType=PROM}): {@link io.sluice.broker.metrics.BrokerMetrics}
 * registers callback metrics that read the counters the broker already keeps (store, dispatch, transport, send and
 * pull statistics, client registry, committed offsets) when Prometheus scrapes, so nothing is added to the send and
 * pull paths; {@link io.sluice.broker.metrics.MetricsEndpoint} serves them over HTTP. Every metric is documented in
 * {@code distribution/src/docs/metrics.md}.
 */
package io.sluice.broker.metrics;
