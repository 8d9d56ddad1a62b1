package io.sluice.namesrv.metrics;

import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * The name server's metrics settings, with the broker's key names (Apache's broker keys; Apache's name server has
 * no Prometheus endpoint):
 * <pre>
 * key                      unit  default  meaning
 * metricsExporterType      enum  DISABLE  DISABLE: no endpoint; PROM: serve Prometheus metrics over HTTP
 * metricsPromExporterHost  host  (listenAddress)  address the endpoint binds
 * metricsPromExporterPort  port  5558     TCP port of the endpoint (the broker's default is 5557); 0 = any free port
 * </pre>
 *
 * @param enabled whether the endpoint runs ({@code metricsExporterType=PROM})
 * @param host    the address to bind; empty = the name server's listenAddress
 * @param port    the TCP port, 0..65535
 */
public record NamesrvMetricsSettings(boolean enabled, String host, int port) {

    /** The key names, so that the name server's own settings skip them. */
    public static final Set<String> KEYS = Set.of("metricsExporterType", "metricsPromExporterHost",
            "metricsPromExporterPort");

    /** The default port: the broker's 5557 plus one, so that both run on one host with the defaults. */
    public static final int DEFAULT_PORT = 5558;

    /** No endpoint. */
    public static final NamesrvMetricsSettings DISABLED = new NamesrvMetricsSettings(false, "", DEFAULT_PORT);

    /** Validates the values; the exception names the bad one. */
    public NamesrvMetricsSettings {
        if (host == null) {
            throw new IllegalArgumentException("metricsPromExporterHost must not be null");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("metricsPromExporterPort must be within 0..65535: " + port);
        }
    }

    /**
     * Defaults overridden by the metrics keys of {@code properties} (other keys are ignored).
     *
     * @throws IllegalArgumentException naming a bad value
     */
    public static NamesrvMetricsSettings fromProperties(Properties properties) {
        String type = properties.getProperty("metricsExporterType", "DISABLE").trim().toUpperCase(Locale.ROOT);
        if (!type.equals("DISABLE") && !type.equals("PROM")) {
            throw new IllegalArgumentException("metricsExporterType must be DISABLE or PROM: '"
                    + properties.getProperty("metricsExporterType") + "'");
        }
        String port = properties.getProperty("metricsPromExporterPort", Integer.toString(DEFAULT_PORT)).trim();
        try {
            return new NamesrvMetricsSettings(type.equals("PROM"),
                    properties.getProperty("metricsPromExporterHost", "").trim(), Integer.parseInt(port));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("metricsPromExporterPort is not an int: '" + port + "'", e);
        }
    }
}
