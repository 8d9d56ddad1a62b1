/**
 * The name server's Prometheus endpoint ({@code metricsExporterType=PROM} in {@code namesrv.conf}):
 * {@link io.sluice.namesrv.metrics.NamesrvMetrics} registers callback metrics that read the route table, the
 * per-code request counts ({@link io.sluice.namesrv.metrics.RequestCounts}) and the transport's counters at scrape
 * time; {@link io.sluice.namesrv.metrics.NamesrvMetricsEndpoint} serves them over HTTP. Every metric is documented
 * in {@code distribution/src/docs/metrics.md}.
 */
package io.sluice.namesrv.metrics;
