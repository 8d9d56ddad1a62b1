package io.sluice.namesrv.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.transport.RemotingCounters;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * The name server's metrics, registered as callbacks on a {@link PrometheusRegistry}: each scrape reads the route
 * table (one copy of its cluster view, under its read lock), the request counts and the transport's counters, so
 * serving routes does no metrics work beyond counting requests. Names are {@code sluice_namesrv_*} (Apache's name
 * server has no metrics of its own), the transport's are the broker's {@code sluice_connections*}, the JVM's the
 * Prometheus client's {@code jvm_*}. Stateless apart from the registry it fills.
 */
public final class NamesrvMetrics {

    private NamesrvMetrics() {
    }

    /**
     * Registers every name-server metric and the JVM metrics on {@code registry}.
     *
     * @param routes    the route table
     * @param requests  requests received per code
     * @param transport the server's connection and request counters
     */
    public static void register(PrometheusRegistry registry, RouteTable routes, RequestCounts requests,
                                RemotingCounters transport) {
        routeGauge(registry, routes, "sluice_namesrv_clusters", "Clusters with at least one registered broker.",
                info -> info.clusterAddrTable().size());
        routeGauge(registry, routes, "sluice_namesrv_broker_names", "Broker names (broker groups) registered.",
                info -> info.brokerAddrTable().size());
        routeGauge(registry, routes, "sluice_namesrv_brokers", "Broker addresses registered (masters and slaves).",
                info -> info.brokerAddrTable().values().stream().mapToInt(b -> b.brokerAddrs().size()).sum());
        routeGauge(registry, routes, "sluice_namesrv_masters", "Broker groups whose master (brokerId 0) is"
                + " registered.", info -> info.brokerAddrTable().values().stream()
                .filter(b -> b.brokerAddrs().containsKey(BrokerData.MASTER_ID)).count());
        gauge(registry, "sluice_namesrv_topics", "Topics with a route.", cb -> cb.call(routes.allTopics().size()));
        CounterWithCallback.builder().name("sluice_namesrv_requests").help("Requests received per request code"
                + " (103 REGISTER_BROKER, 105 GET_ROUTEINFO_BY_TOPIC, 106 GET_BROKER_CLUSTER_INFO, ...).")
                .labelNames("request_code").callback(cb -> requests.snapshot()
                        .forEach((code, count) -> cb.call(count, Integer.toString(code))))
                .register(registry);
        gauge(registry, "sluice_connections", "Open connections (brokers, clients, admin tools).",
                cb -> cb.call(transport.connectionsOpened() - transport.connectionsClosed()));
        CounterWithCallback.builder().name("sluice_connections_opened").help("Connections accepted.")
                .callback(cb -> cb.call(transport.connectionsOpened())).register(registry);
        CounterWithCallback.builder().name("sluice_requests_not_supported").help("Requests with a code the name"
                + " server does not serve.").callback(cb -> cb.call(transport.requestsNotSupported()))
                .register(registry);
        JvmMetrics.builder().register(registry);
    }

    private static void routeGauge(PrometheusRegistry registry, RouteTable routes, String name, String help,
                                   ToDoubleFunction<ClusterInfo> value) {
        gauge(registry, name, help, cb -> cb.call(value.applyAsDouble(routes.clusterInfo())));
    }

    private static void gauge(PrometheusRegistry registry, String name, String help,
                              Consumer<GaugeWithCallback.Callback> callback) {
        GaugeWithCallback.builder().name(name).help(help).callback(callback).register(registry);
    }
}
