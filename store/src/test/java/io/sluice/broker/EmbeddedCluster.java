package io.sluice.broker;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.namesrv.metrics.NamesrvMetricsSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A name server and a broker on free loopback ports with their files under one directory, for integration tests
 * driven by the Apache client. Small files keep the tests light: 64 MiB CommitLog segments, 10,000-slot consume
 * queue files.
 *
 * <p>Not thread-safe; used by one test thread.
 */
final class EmbeddedCluster implements AutoCloseable {

    static final String CLUSTER = "DefaultCluster";
    static final String BROKER_NAME = "broker-it";

    private final Path dir;
    private final Map<String, String> overrides;
    private final NameServer nameServer;
    private Broker broker;
    private int brokerPort;

    private EmbeddedCluster(Path dir, Map<String, String> overrides, NamesrvMetricsSettings namesrvMetrics) {
        this.dir = dir;
        this.overrides = overrides;
        this.nameServer = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0), Optional.empty(),
                namesrvMetrics);
    }

    /** Starts a name server and a broker storing under {@code dir}; {@code overrides} are broker.conf keys. */
    static EmbeddedCluster start(Path dir, Map<String, String> overrides) throws IOException {
        return start(dir, overrides, NamesrvMetricsSettings.DISABLED);
    }

    /** {@link #start(Path, Map)} with the name server's metrics endpoint as {@code namesrvMetrics} says. */
    static EmbeddedCluster start(Path dir, Map<String, String> overrides, NamesrvMetricsSettings namesrvMetrics)
            throws IOException {
        EmbeddedCluster cluster = new EmbeddedCluster(dir, overrides, namesrvMetrics);
        cluster.nameServer.start();
        try {
            cluster.startBroker(0);
        } catch (IOException | RuntimeException e) {
            cluster.nameServer.close();
            throw e;
        }
        return cluster;
    }

    /** Starts a name server and a broker with the test defaults. */
    static EmbeddedCluster start(Path dir) throws IOException {
        return start(dir, Map.of());
    }

    private void startBroker(int port) throws IOException {
        BrokerSettings.Builder builder = BrokerSettings.builder()
                .setText("brokerClusterName", CLUSTER)
                .setText("brokerName", BROKER_NAME)
                .setText("namesrvAddr", namesrvAddr())
                .setText("listenPort", Integer.toString(port))
                .setText("haListenPort", "0")
                .setText("brokerIP1", "127.0.0.1")
                .setText("storePathRootDir", dir.resolve("store").toString())
                .setText("mappedFileSizeCommitLog", Integer.toString(64 << 20))
                .setText("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000))
                .setText("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000))
                .setText("serverWorkerThreads", "2")
                .setText("pullMessageThreadPoolNums", "4");
        overrides.forEach(builder::setText);
        broker = new Broker(builder.build());
        broker.start();
        brokerPort = broker.port();
    }

    /** Stops the broker and starts it again on the same port and files. */
    void restartBroker() throws IOException {
        broker.close();
        startBroker(brokerPort);
    }

    /** The name server's metrics port, -1 without the endpoint. */
    int namesrvMetricsPort() {
        return nameServer.metricsPort();
    }

    /** The name server's address, for {@code setNamesrvAddr}. */
    String namesrvAddr() {
        return "127.0.0.1:" + nameServer.port();
    }

    /** The running broker. */
    Broker broker() {
        return broker;
    }

    /** The broker's address as registered. */
    String brokerAddr() {
        return broker.addressText();
    }

    @Override
    public void close() {
        if (broker != null) {
            broker.close();
        }
        nameServer.close();
    }
}
