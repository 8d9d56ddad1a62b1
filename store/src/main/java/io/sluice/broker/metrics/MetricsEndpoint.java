package io.sluice.broker.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Prometheus endpoint: an HTTP server on {@code host:port} answering {@code GET /metrics} (and {@code /}) with
 * the registry's metrics in the Prometheus text format (OpenMetrics or protobuf when the scraper asks for them).
 *
 * <p>Thread: one daemon thread, {@code sluice-metrics-http}, owns the HTTP connections and runs the scrapes (which
 * read counters; see {@link BrokerMetrics}); it is idle between scrapes and stops on {@link #close()}.
 * Thread-safe.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private final HTTPServer server;

    private MetricsEndpoint(HTTPServer server) {
        this.server = server;
    }

    /**
     * Binds and starts the endpoint.
     *
     * @param host     the address to bind
     * @param port     the port (0 = any free port)
     * @param registry the metrics to serve
     * @throws UncheckedIOException naming the address when it cannot be bound (e.g. the port is taken)
     */
    public static MetricsEndpoint start(InetAddress host, int port, PrometheusRegistry registry) {
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "sluice-metrics-http");
            t.setDaemon(true);
            return t;
        });
        try {
            return new MetricsEndpoint(HTTPServer.builder().inetAddress(host).port(port).registry(registry)
                    .executorService(thread).buildAndStart());
        } catch (IOException e) {
            thread.shutdownNow();
            throw new UncheckedIOException("cannot start the metrics endpoint on " + host.getHostAddress() + ":"
                    + port + " (metricsPromExporterHost/metricsPromExporterPort): " + e.getMessage(), e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getPort();
    }

    /** Stops the server and its thread. */
    @Override
    public void close() {
        server.close();
    }
}
