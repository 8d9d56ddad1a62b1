package io.sluice.namesrv.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.sluice.namesrv.route.BrokerRegistration;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.transport.RemotingCounters;
import io.sluice.remoting.transport.RequestHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The name server's metrics: the endpoint's settings read from the broker's key names with every bad value named,
 * requests counted per code as handled, and the route gauges reading the route table at each scrape.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NamesrvMetricsTest {

    private static Properties properties(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void settingsDefaultToNoEndpointOnTheBrokersPortPlusOne() {
        NamesrvMetricsSettings defaults = NamesrvMetricsSettings.fromProperties(properties("listenPort", "9876"));
        assertEquals(NamesrvMetricsSettings.DISABLED, defaults);
        assertEquals(5558, defaults.port());
        NamesrvMetricsSettings prom = NamesrvMetricsSettings.fromProperties(properties("metricsExporterType",
                " prom ", "metricsPromExporterHost", " 127.0.0.1 ", "metricsPromExporterPort", " 0 "));
        assertEquals(new NamesrvMetricsSettings(true, "127.0.0.1", 0), prom);
    }

    @Test
    void eachBadSettingIsNamedWithItsValue() {
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> NamesrvMetricsSettings
                .fromProperties(properties("metricsExporterType", "OTLP")));
        assertEquals("metricsExporterType must be DISABLE or PROM: 'OTLP'", type.getMessage());
        IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> NamesrvMetricsSettings
                .fromProperties(properties("metricsPromExporterPort", "http")));
        assertEquals("metricsPromExporterPort is not an int: 'http'", word.getMessage());
        for (String port : List.of("-1", "65536")) {
            IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                    () -> NamesrvMetricsSettings.fromProperties(properties("metricsPromExporterPort", port)));
            assertEquals("metricsPromExporterPort must be within 0..65535: " + port, range.getMessage());
        }
        assertEquals(65535, NamesrvMetricsSettings.fromProperties(properties("metricsPromExporterPort", "65535"))
                .port());
        assertThrows(IllegalArgumentException.class, () -> new NamesrvMetricsSettings(true, null, 1));
        assertTrue(NamesrvMetricsSettings.KEYS.containsAll(List.of("metricsExporterType", "metricsPromExporterHost",
                "metricsPromExporterPort")));
    }

    @Test
    void requestsAreCountedPerCodeAsTheyAreHandled() throws Exception {
        RequestCounts counts = new RequestCounts();
        RequestHandler answer = (connection, request) -> CompletableFuture.completedFuture(
                RemotingCommand.response(ResponseCode.SUCCESS, null));
        RequestHandler routes = counts.counted(RequestCode.GET_ROUTEINFO_BY_TOPIC, answer);
        counts.counted(RequestCode.REGISTER_BROKER, answer);
        assertEquals(Map.of(RequestCode.REGISTER_BROKER, 0L, RequestCode.GET_ROUTEINFO_BY_TOPIC, 0L),
                counts.snapshot(), "a registered code counts 0 until asked");
        routes.handle(null, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        routes.handle(null, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        assertEquals(2L, counts.snapshot().get(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        assertEquals(0L, counts.snapshot().get(RequestCode.REGISTER_BROKER));
    }

    @Test
    void routeGaugesReadTheTableAtEachScrape() {
        RouteTable routes = new RouteTable(120_000, () -> 1_000_000L);
        RequestCounts counts = new RequestCounts();
        counts.counted(RequestCode.GET_ROUTEINFO_BY_TOPIC, (c, r) -> CompletableFuture.completedFuture(null));
        PrometheusRegistry registry = new PrometheusRegistry();
        NamesrvMetrics.register(registry, routes, counts, new RemotingCounters());
        assertEquals(0, value(registry, "sluice_namesrv_brokers"));
        assertEquals(0, value(registry, "sluice_namesrv_topics"));

        routes.register(registration("broker-a", 0, "10.0.0.1:10911", "T1", "T2"));
        routes.register(registration("broker-a", 1, "10.0.0.2:10911", "T1", "T2"));
        routes.register(registration("broker-b", 1, "10.0.0.3:10911", "T3", "T4"));
        assertEquals(1, value(registry, "sluice_namesrv_clusters"));
        assertEquals(2, value(registry, "sluice_namesrv_broker_names"));
        assertEquals(3, value(registry, "sluice_namesrv_brokers"));
        assertEquals(1, value(registry, "sluice_namesrv_masters"), "broker-b has no master registered");
        assertEquals(2, value(registry, "sluice_namesrv_topics"), "a slave alone does not route its topics");
        assertEquals(0, value(registry, "sluice_namesrv_requests"));
        assertFalse(registry.scrape().stream().noneMatch(s -> s.getMetadata().getName().startsWith("jvm_")));
    }

    private static BrokerRegistration registration(String brokerName, long brokerId, String address,
                                                   String... topics) {
        Map<String, TopicConfigWire> table = new LinkedHashMap<>();
        for (String topic : topics) {
            table.put(topic, TopicConfigWire.of(topic, 4, 6));
        }
        return new BrokerRegistration("C", address, brokerName, brokerId, address.replace(":10911", ":10912"), 0,
                false, TopicConfigSerializeWrapper.of(new DataVersion(0, 1, 1), table), List.of(), address);
    }

    private static double value(PrometheusRegistry registry, String name) {
        for (MetricSnapshot snapshot : registry.scrape()) {
            if (!snapshot.getMetadata().getName().equals(name)) {
                continue;
            }
            double sum = 0;
            for (DataPointSnapshot point : snapshot.getDataPoints()) {
                if (point instanceof GaugeSnapshot.GaugeDataPointSnapshot gauge) {
                    sum += gauge.getValue();
                } else if (point instanceof CounterSnapshot.CounterDataPointSnapshot counter) {
                    sum += counter.getValue();
                }
            }
            return sum;
        }
        throw new AssertionError(name + " is not registered");
    }
}
