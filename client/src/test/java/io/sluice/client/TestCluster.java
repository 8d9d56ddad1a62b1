package io.sluice.client;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A name server and one broker, Sluice's or Apache's, each in a child JVM on free ports of 127.0.0.1 with its own
 * temporary directory. {@link #start} returns once the broker is registered with the name server. Deliberately not
 * {@link AutoCloseable}: JUnit closes such parameters after every parameterized test.
 */
final class TestCluster {
    static final String CLUSTER = "DefaultCluster";
    private static final Pattern SLUICE_JAR = Pattern.compile(".*/io/sluice/sluice-([a-z]+)/[^/]+/[^/]+\\.jar");

    private final String label;
    private final String brokerName;
    private final int namesrvPort;
    private final int brokerPort;
    private final List<ForkedJvm> processes;
    /** What every client of this cluster needs on top of the address (TLS, credentials); identity by default. */
    private final UnaryOperator<ConnectionSettings> access;

    private TestCluster(String label, String brokerName, int namesrvPort, int brokerPort, List<ForkedJvm> processes,
                        UnaryOperator<ConnectionSettings> access) {
        this.label = label;
        this.brokerName = brokerName;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
        this.processes = processes;
        this.access = access;
    }

    /** Starts the cluster of {@code kind} ({@code sluice} or {@code apache}). */
    static TestCluster start(String kind) {
        Path root = Path.of(System.getProperty("sluice.it.workDir", "target/it-work"))
                .resolve(kind + "-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        TestCluster cluster = kind.equals("sluice") ? sluice(root, List.of(), UnaryOperator.identity())
                : apache(root);
        return awaitUp(cluster);
    }

    /**
     * Starts a Sluice cluster whose broker.conf has {@code extraConf} lines too (e.g. TLS, access control); its
     * clients get {@code access} applied to their connection settings.
     */
    static TestCluster startSluice(List<String> extraConf, UnaryOperator<ConnectionSettings> access) {
        Path root = Path.of(System.getProperty("sluice.it.workDir", "target/it-work"))
                .resolve("sluice-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        return awaitUp(sluice(root, extraConf, access));
    }

    private static TestCluster awaitUp(TestCluster cluster) {
        try {
            cluster.awaitRegistered();
        } catch (RuntimeException | Error e) {
            cluster.stop();
            throw e;
        }
        return cluster;
    }

    String label() {
        return label;
    }

    String namesrvAddress() {
        return "127.0.0.1:" + namesrvPort;
    }

    String brokerAddress() {
        return "127.0.0.1:" + brokerPort;
    }

    String brokerName() {
        return brokerName;
    }

    /** Connection settings pointing at this cluster, with a unique instance name. */
    ConnectionSettings connection() {
        return access.apply(ConnectionSettings.of(namesrvAddress()).withClientIp("127.0.0.1")
                .withInstanceName("it-" + UUID.randomUUID().toString().substring(0, 8)));
    }

    @Override
    public String toString() {
        return label;
    }

    /** Stops the processes. */
    void stop() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
    }

    private static TestCluster sluice(Path root, List<String> extraConf, UnaryOperator<ConnectionSettings> access) {
        int namesrvPort = ForkedJvm.freePort();
        int brokerPort = ForkedJvm.freePortWithNeighbours();
        Path conf = write(root.resolve("broker.conf"), String.join("\n",
                "brokerClusterName=" + CLUSTER,
                "brokerName=broker-sluice",
                "namesrvAddr=127.0.0.1:" + namesrvPort,
                "listenPort=" + brokerPort,
                "brokerIP1=127.0.0.1",
                "storePathRootDir=" + root.resolve("store"),
                "mappedFileSizeCommitLog=" + 64 * 1024 * 1024,
                // As the Apache broker below: producers may create topics by sending to them (through TBW102).
                "autoCreateTopicEnable=true",
                // Unresolved transactions are checked back after 1 s, twice a second (Apache: after 6 s, every 30 s).
                "transactionTimeOut=1000",
                "transactionCheckInterval=500",
                "transactionCheckMax=100",
                String.join("\n", extraConf),
                ""));
        // The name server has the broker's TLS settings, as in standalone mode (the distribution's, not on the
        // store module's class path).
        List<String> namesrvConf = new ArrayList<>(List.of("listenAddress=127.0.0.1", "listenPort=" + namesrvPort));
        extraConf.stream().filter(line -> line.startsWith("tls.server.")).forEach(namesrvConf::add);
        namesrvConf.add("");
        Path namesrvFile = write(root.resolve("namesrv.conf"), String.join("\n", namesrvConf));
        List<ForkedJvm> processes = new ArrayList<>();
        processes.add(ForkedJvm.start("sluice-namesrv", System.getProperty("java.class.path"), List.of("-Xmx256m",
                "-XX:+UseParallelGC"), "io.sluice.namesrv.NamesrvMain", List.of("-c", namesrvFile.toString()), root));
        processes.add(ForkedJvm.start("sluice-broker", sluiceClassPath(), List.of("-Xmx512m",
                "-XX:+UseParallelGC"), "io.sluice.broker.BrokerMain", List.of("broker", "-c", conf.toString()),
                root));
        return new TestCluster("sluice", "broker-sluice", namesrvPort, brokerPort, processes, access);
    }

    private static TestCluster apache(Path root) {
        int namesrvPort = ForkedJvm.freePort();
        int brokerPort = ForkedJvm.freePortWithNeighbours();
        int haPort = ForkedJvm.freePort();
        String classPath = System.getProperty("java.class.path");
        List<String> jvm = List.of("-Xmx512m", "-XX:+UseParallelGC", "-Drocketmq.home.dir=" + root,
                "-Duser.home=" + root, "-Drocketmq.log.root=" + root.resolve("logs"));
        Path namesrvConf = write(root.resolve("namesrv.conf"), "listenPort=" + namesrvPort + "\n");
        List<ForkedJvm> processes = new ArrayList<>();
        processes.add(ForkedJvm.start("apache-namesrv", classPath, jvm, "org.apache.rocketmq.namesrv.NamesrvStartup",
                List.of("-c", namesrvConf.toString()), root));
        Path store = root.resolve("store");
        Path brokerConf = write(root.resolve("broker.conf"), String.join("\n",
                "brokerClusterName=" + CLUSTER,
                "brokerName=broker-apache",
                "brokerId=0",
                "namesrvAddr=127.0.0.1:" + namesrvPort,
                "listenPort=" + brokerPort,
                "haListenPort=" + haPort,
                "brokerIP1=127.0.0.1",
                "storePathRootDir=" + store,
                "storePathCommitLog=" + store.resolve("commitlog"),
                "mappedFileSizeCommitLog=" + 64 * 1024 * 1024,
                "mappedFileSizeConsumeQueue=" + 20 * 30_000,
                "mapperFileSizeBatchConsumeQueue=" + 46 * 30_000,
                "autoCreateTopicEnable=true",
                "autoCreateSubscriptionGroup=true",
                "mappedFileSizeTimerLog=" + 4 * 1024 * 1024,
                "diskMaxUsedSpaceRatio=98",
                ""));
        processes.add(ForkedJvm.start("apache-broker", classPath, jvm, "org.apache.rocketmq.broker.BrokerStartup",
                List.of("-c", brokerConf.toString()), root));
        return new TestCluster("apache", "broker-apache", namesrvPort, brokerPort, processes,
                UnaryOperator.identity());
    }

    /** Waits until the name server lists the broker and the broker accepts connections. */
    private void awaitRegistered() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (Admin admin = Admin.start(access.apply(ConnectionSettings.of(namesrvAddress()).withClientIp("127.0.0.1")
                .withRpcTimeoutMs(1000)))) {
            while (true) {
                processes.forEach(ForkedJvm::checkAlive);
                if (ForkedJvm.accepts(namesrvPort) && ForkedJvm.accepts(brokerPort) && registered(admin)) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    StringBuilder logs = new StringBuilder();
                    processes.forEach(process -> logs.append(process.tail()).append('\n'));
                    throw new IllegalStateException(label + " cluster did not come up within 90 s:\n" + logs);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    private boolean registered(Admin admin) {
        try {
            ClusterInfo info = admin.clusterInfo();
            BrokerData broker = info.brokerAddrTable().get(brokerName);
            return broker != null && brokerAddress().equals(broker.brokerAddrs().get(BrokerData.MASTER_ID));
        } catch (ClientException e) {
            return false;
        }
    }

    /**
     * The Sluice broker's class path: the store module's classes plus its runtime dependencies, with the Sluice
     * modules' jars replaced by their reactor class directories.
     */
    private static String sluiceClassPath() {
        Path sluiceRoot = Path.of(System.getProperty("sluice.root", ".."));
        String suffix = System.getProperty("sluice.buildSuffix", "");
        Path file = Path.of(System.getProperty("sluice.broker.classpathFile",
                sluiceRoot.resolve("store/target" + suffix + "/runtime-classpath.txt").toString()));
        List<String> entries = new ArrayList<>();
        entries.add(sluiceRoot.resolve("store/target" + suffix + "/classes").toString());
        try {
            for (String entry : Files.readString(file).trim().split(File.pathSeparator)) {
                Matcher sluice = SLUICE_JAR.matcher(entry.replace(File.separatorChar, '/'));
                entries.add(sluice.matches()
                        ? sluiceRoot.resolve(sluice.group(1) + "/target" + suffix + "/classes").toString() : entry);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the broker class path from " + file
                    + " (build the store module first)", e);
        }
        return String.join(File.pathSeparator, entries);
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
