package io.sluice.namesrv;

import io.sluice.namesrv.auth.NamesrvAccessGate;
import io.sluice.namesrv.controller.Controller;
import io.sluice.namesrv.controller.ControllerSettings;
import io.sluice.namesrv.handler.BrokerMembershipHandler;
import io.sluice.namesrv.handler.KvConfigHandler;
import io.sluice.namesrv.handler.NamesrvHandler;
import io.sluice.namesrv.handler.RouteQueryHandler;
import io.sluice.namesrv.handler.TopicAdminHandler;
import io.sluice.namesrv.metrics.NamesrvMetrics;
import io.sluice.namesrv.metrics.NamesrvMetricsEndpoint;
import io.sluice.namesrv.metrics.NamesrvMetricsSettings;
import io.sluice.namesrv.metrics.RequestCounts;
import io.sluice.namesrv.route.KvConfigTable;
import io.sluice.namesrv.route.RemovedBroker;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.ConnectionListener;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RocketMQ-compatible name server: the composition root that wires the {@link RouteTable}, the request handlers
 * and the transport, removes a broker's routes when its registering connection closes, and runs the expiry scan
 * every {@link NamesrvSettings#scanIntervalMs()} (first scan one period after start).
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #close()} (idempotent). Thread-safe; the route table is shared
 * by the transport's lanes (handlers), its I/O threads (close callbacks) and the scan thread.
 */
public final class NameServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NameServer.class);

    private final NamesrvSettings settings;
    private final LongSupplier clockMs;
    private final RouteTable routes;
    private final KvConfigTable kvConfig = new KvConfigTable();
    private final RemotingServer server;
    private final AtomicLong scanFailures = new AtomicLong();
    /** The embedded failover controller ({@code enableControllerInNamesrv}); null without one. */
    private final Controller controller;
    private final RequestCounts requestCounts = new RequestCounts();
    private final NamesrvMetricsSettings metricsSettings;
    /** The Prometheus endpoint; null unless {@code metricsExporterType=PROM}. */
    private NamesrvMetricsEndpoint metrics;
    /** Authentication of changing requests ({@code authenticationEnabled}); null without. */
    private final NamesrvAccessGate gate;
    private ScheduledExecutorService scanner;
    private boolean started;
    private boolean closed;

    /**
     * A name server on the system clock.
     *
     * @param settings validated settings
     */
    public NameServer(NamesrvSettings settings) {
        this(settings, System::currentTimeMillis);
    }

    /**
     * A name server on an injected clock (registration times and expiry scans both use it).
     *
     * @param settings validated settings
     * @param clockMs source of epoch milliseconds
     */
    public NameServer(NamesrvSettings settings, LongSupplier clockMs) {
        this(settings, clockMs, Optional.empty(), NamesrvMetricsSettings.DISABLED);
    }

    /**
     * A name server on the system clock embedding a failover controller, whose requests it answers on its port,
     * when {@code controller} is present and enabled.
     *
     * @param settings validated settings
     * @param controller the embedded controller's settings
     */
    public NameServer(NamesrvSettings settings, Optional<ControllerSettings> controller) {
        this(settings, System::currentTimeMillis, controller, NamesrvMetricsSettings.DISABLED);
    }

    /**
     * A name server on the system clock, embedding a failover controller when {@code controller} is present and
     * enabled, and serving Prometheus metrics when {@code metrics} says so.
     *
     * @param settings   validated settings
     * @param controller the embedded controller's settings
     * @param metrics    the metrics endpoint's settings
     */
    public NameServer(NamesrvSettings settings, Optional<ControllerSettings> controller,
                      NamesrvMetricsSettings metrics) {
        this(settings, System::currentTimeMillis, controller, metrics);
    }

    private NameServer(NamesrvSettings settings, LongSupplier clockMs, Optional<ControllerSettings> controller,
                       NamesrvMetricsSettings metrics) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metricsSettings = Objects.requireNonNull(metrics, "metrics");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        this.routes = new RouteTable(settings.brokerExpiryMs(), clockMs);
        this.server = new RemotingServer(ServerSettings.builder()
                .bindAddress(settings.listenAddress())
                .port(settings.listenPort())
                .idleTimeoutMs(settings.connectionIdleMs())
                .tls(settings.tls())
                .build());
        this.gate = settings.authentication().enabled() ? new NamesrvAccessGate(settings.authentication()) : null;
        if (gate != null) {
            server.setRequestGate(gate);
        }
        for (NamesrvHandler handler : List.of(new BrokerMembershipHandler(routes, kvConfig),
                new RouteQueryHandler(routes, settings.enableAllTopicList()), new TopicAdminHandler(routes),
                new KvConfigHandler(kvConfig))) {
            RequestHandler adapted = RequestHandler.sync(handler);
            handler.codes().forEach(code -> server.registerHandler(code, requestCounts.counted(code, adapted)));
        }
        this.controller = controller.filter(ControllerSettings::enabled).map(c -> new Controller(c, clockMs))
                .orElse(null);
        if (this.controller != null) {
            this.controller.registerHandlers(server);
        }
        server.addConnectionListener(new ConnectionListener() {
            @Override
            public void onClosed(ConnectionContext connection) {
                routes.removeConnection(connection);
            }
        });
    }

    /**
     * Starts the embedded controller, if any, binds the port and starts the expiry scan.
     *
     * @throws IllegalStateException if already started or closed, or the port cannot be bound
     * @throws UncheckedIOException when the embedded controller cannot open its store or bind its Raft port
     */
    public synchronized void start() {
        if (started || closed) {
            throw new IllegalStateException("name server already " + (closed ? "closed" : "started"));
        }
        started = true;
        if (controller != null) {
            try {
                controller.start();
            } catch (IOException e) {
                throw new UncheckedIOException("the embedded controller cannot start: " + e.getMessage(), e);
            }
        }
        server.start();
        if (metricsSettings.enabled()) {
            PrometheusRegistry registry = new PrometheusRegistry();
            NamesrvMetrics.register(registry, routes, requestCounts, server.counters());
            metrics = NamesrvMetricsEndpoint.start(metricsAddress(), metricsSettings.port(), registry);
        }
        scanner = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sluice-namesrv-scan");
            thread.setDaemon(true);
            return thread;
        });
        scanner.scheduleWithFixedDelay(this::scan, settings.scanIntervalMs(), settings.scanIntervalMs(),
                TimeUnit.MILLISECONDS);
        LOG.info("name server listening on {} (authentication {})", server.localAddress(),
                settings.authentication().enabled() ? "on" : "off");
    }

    /** Where the metrics endpoint binds: metricsPromExporterHost, else listenAddress. */
    private InetAddress metricsAddress() {
        String host = metricsSettings.host().isBlank() ? settings.listenAddress() : metricsSettings.host();
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve metricsPromExporterHost '" + host + "'", e);
        }
    }

    /** Expires silent brokers and closes their connections. Runs on the scan thread; never throws. */
    private void scan() {
        try {
            for (RemovedBroker expired : routes.expire(clockMs.getAsLong())) {
                if (expired.connection() instanceof ConnectionContext connection) {
                    connection.close();
                }
            }
        } catch (RuntimeException e) {
            scanFailures.incrementAndGet();
            LOG.error("broker expiry scan failed ({} failures so far)", scanFailures.get(), e);
        }
    }

    /**
     * The bound TCP port (the chosen one when the settings say 0).
     *
     * @return the port
     * @throws IllegalStateException before {@link #start()}
     */
    public int port() {
        return server.port();
    }

    /** The metrics endpoint's bound port, or -1 without one. */
    public synchronized int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /**
     * Requests refused for a missing or wrong signature or an unknown user.
     *
     * @return the count since start; 0 without authentication
     */
    public long refusedUnauthenticated() {
        return gate == null ? 0 : gate.refused();
    }

    /**
     * The route table, for embedding and tests.
     *
     * @return the live route table
     */
    public RouteTable routes() {
        return routes;
    }

    /**
     * The embedded failover controller, for tests and embedding.
     *
     * @return the controller, empty unless enableControllerInNamesrv
     */
    public Optional<Controller> controller() {
        return Optional.ofNullable(controller);
    }

    /** Stops the scan, then the transport (closing every connection). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (scanner != null) {
            scanner.shutdownNow();
        }
        if (metrics != null) {
            metrics.close();
        }
        server.close();
        if (controller != null) {
            controller.close();
        }
        LOG.info("name server stopped");
    }
}
