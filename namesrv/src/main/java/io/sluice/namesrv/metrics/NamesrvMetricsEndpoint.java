package io.sluice.namesrv.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The name server's Prometheus endpoint: {@code GET /metrics} on {@code host:port} in the Prometheus text format
 * (OpenMetrics or protobuf when the scraper asks for them).
 *
 * <p>Thread: {@code sluice-namesrv-metrics-http}, a daemon thread that owns the HTTP connections and runs the
 * scrapes; idle between scrapes; stopped by {@link #close()}. Thread-safe.
 */
public final class NamesrvMetricsEndpoint implements AutoCloseable {

    private final HTTPServer server;

    private NamesrvMetricsEndpoint(HTTPServer server) {
        this.server = server;
    }

    /**
     * Binds and starts the endpoint.
     *
     * @throws UncheckedIOException naming the address and port when they cannot be bound
     */
    public static NamesrvMetricsEndpoint start(InetAddress host, int port, PrometheusRegistry registry) {
        ExecutorService scrapes = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "sluice-namesrv-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        HTTPServer.Builder builder = HTTPServer.builder().inetAddress(host).port(port).registry(registry)
                .executorService(scrapes);
        try {
            return new NamesrvMetricsEndpoint(builder.buildAndStart());
        } catch (IOException e) {
            scrapes.shutdownNow();
            throw new UncheckedIOException("the name server's metrics endpoint cannot listen on "
                    + host.getHostAddress() + ":" + port + " (metricsPromExporterPort): " + e.getMessage(), e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
