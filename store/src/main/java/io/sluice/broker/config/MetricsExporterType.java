package io.sluice.broker.config;

/**
 * Apache's {@code metricsExporterType} values Sluice honours: DISABLE (no metrics endpoint) and PROM (a Prometheus
 * text endpoint). Apache's OTLP_GRPC and LOG exporters are not offered, so those values are refused at load.
 */
public enum MetricsExporterType {
    DISABLE,
    PROM
}
