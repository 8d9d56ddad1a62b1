package io.sluice.benchmark.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The servers of one system under test, each in a JVM of its own on free ports of 127.0.0.1 with its own
 * directory, all with the same durability class: asynchronous flush (acknowledged once in the page cache), one
 * replica. Closing stops them in reverse order. Owned by the harness thread.
 */
final class Peer implements AutoCloseable {

    private static final long START_TIMEOUT_MS = 120_000;
    /** The settings key naming the server's version (charts and legends name it). */
    static final String SERVER_VERSION = "serverVersion";
    /** The Log4j 2 back end added to Kafka 4's class path (the OMB kit's). */
    private static final String LOG4J2_VERSION = "2.24.3";

    private final String namesrvAddr;
    private final String brokerAddr;
    private final Map<String, String> settings;
    private final List<ChildJvm> processes;

    private Peer(String namesrvAddr, String brokerAddr, Map<String, String> settings, List<ChildJvm> processes) {
        this.namesrvAddr = namesrvAddr;
        this.brokerAddr = brokerAddr;
        this.settings = settings;
        this.processes = processes;
    }

    /** {@code 127.0.0.1:port} of the name server; null for Kafka. */
    String namesrvAddr() {
        return namesrvAddr;
    }

    /** {@code 127.0.0.1:port} of the broker (for Kafka: the bootstrap address). */
    String brokerAddr() {
        return brokerAddr;
    }

    /** The server settings that matter for comparison. */
    Map<String, String> settings() {
        return settings;
    }

    /** {@code bin/sluice standalone}'s main class with a generated broker.conf. */
    static Peer sluice(PeerOptions options, Path dir) throws IOException {
        int namesrvPort = ChildJvm.freePort();
        int brokerPort = ChildJvm.freePort();
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("brokerClusterName", "BenchCluster");
        conf.put("brokerName", "bench-sluice");
        conf.put("namesrvAddr", "127.0.0.1:" + namesrvPort);
        conf.put("listenPort", Integer.toString(brokerPort));
        conf.put("haListenPort", "0"); // any free port: listenPort + 1 may be taken
        conf.put("brokerIP1", "127.0.0.1");
        conf.put("storePathRootDir", dir.resolve("store").toString());
        conf.put("flushDiskType", "ASYNC_FLUSH");
        conf.put("autoCreateTopicEnable", "false");
        conf.put("diskMaxUsedSpaceRatio", "95");
        conf.putAll(options.sluiceConfig());
        Path file = writeProperties(dir.resolve("broker.conf"), conf);
        // Without a configuration logback logs DEBUG: per-file lines that cost the dispatch writer a third of its
        // time while a 10,000-queue topic creates its files. The peer logs INFO, as bin/sluice does.
        List<String> jvm = new ArrayList<>(options.brokerJvm());
        jvm.add("-Dlogback.configurationFile=" + writeLogbackConfig(dir.resolve("logback.xml")));
        List<ChildJvm> processes = new ArrayList<>();
        // Standalone mode is the distribution's launcher; the harness runs from bin/sluice bench, whose class path
        // has it.
        processes.add(ChildJvm.start("sluice-standalone", options.sluiceClassPath(), jvm,
                "io.sluice.cli.SluiceCli", List.of("standalone", "-c", file.toString()), dir));
        Peer peer = new Peer("127.0.0.1:" + namesrvPort, "127.0.0.1:" + brokerPort,
                described("Sluice standalone (name server + broker, one JVM)", Environment.sluiceVersion(), options,
                        conf), processes);
        return peer.awaitPorts(namesrvPort, brokerPort);
    }

    /** Apache RocketMQ's name server and broker from Maven Central. */
    static Peer rocketmq(PeerOptions options, Path dir) throws IOException, InterruptedException {
        String classPath = MavenClasspath.resolve("org.apache.rocketmq", "rocketmq-broker",
                options.rocketmqVersion(), options.cacheDir(), options.mavenCommand()) + java.io.File.pathSeparator
                + MavenClasspath.resolve("org.apache.rocketmq", "rocketmq-namesrv", options.rocketmqVersion(),
                options.cacheDir(), options.mavenCommand());
        int namesrvPort = ChildJvm.freePort();
        int brokerPort = ChildJvm.freePortWithNeighbours();
        int haPort = ChildJvm.freePort();
        List<String> home = List.of("-Drocketmq.home.dir=" + dir, "-Duser.home=" + dir,
                "-Drocketmq.log.root=" + dir.resolve("logs"));
        List<String> namesrvJvm = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"));
        namesrvJvm.addAll(home);
        Path namesrvConf = writeProperties(dir.resolve("namesrv.conf"), Map.of("listenPort",
                Integer.toString(namesrvPort)));
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("brokerClusterName", "BenchCluster");
        conf.put("brokerName", "bench-rocketmq");
        conf.put("brokerId", "0");
        conf.put("brokerRole", "ASYNC_MASTER");
        conf.put("flushDiskType", "ASYNC_FLUSH");
        conf.put("namesrvAddr", "127.0.0.1:" + namesrvPort);
        conf.put("listenPort", Integer.toString(brokerPort));
        conf.put("haListenPort", Integer.toString(haPort));
        conf.put("brokerIP1", "127.0.0.1");
        conf.put("storePathRootDir", dir.resolve("store").toString());
        conf.put("storePathCommitLog", dir.resolve("store/commitlog").toString());
        conf.put("autoCreateTopicEnable", "false");
        conf.put("autoCreateSubscriptionGroup", "true");
        conf.put("timerWheelEnable", "false");
        conf.put("diskMaxUsedSpaceRatio", "95");
        Path brokerConf = writeProperties(dir.resolve("broker.conf"), conf);
        List<String> brokerJvm = new ArrayList<>(options.brokerJvm());
        brokerJvm.addAll(home);
        List<ChildJvm> processes = new ArrayList<>();
        Peer peer = new Peer("127.0.0.1:" + namesrvPort, "127.0.0.1:" + brokerPort,
                described("Apache RocketMQ " + options.rocketmqVersion() + " name server + broker (two JVMs)",
                        options.rocketmqVersion(), options, conf), processes);
        try {
            processes.add(ChildJvm.start("rocketmq-namesrv", classPath, namesrvJvm,
                    "org.apache.rocketmq.namesrv.NamesrvStartup", List.of("-c", namesrvConf.toString()), dir));
            processes.get(0).awaitPort(namesrvPort, START_TIMEOUT_MS);
            processes.add(ChildJvm.start("rocketmq-broker", classPath, brokerJvm,
                    "org.apache.rocketmq.broker.BrokerStartup", List.of("-c", brokerConf.toString()), dir));
            processes.get(1).awaitPort(brokerPort, START_TIMEOUT_MS);
            return peer;
        } catch (RuntimeException | IOException e) {
            peer.close();
            throw e;
        }
    }

    /** Kafka in KRaft combined mode (one node is broker and controller), storage formatted first. */
    static Peer kafka(PeerOptions options, Path dir) throws IOException, InterruptedException {
        String classPath = MavenClasspath.resolve("org.apache.kafka", "kafka_2.13", options.kafkaVersion(),
                options.cacheDir(), options.mavenCommand());
        boolean log4j2 = !options.kafkaVersion().matches("[0-3]\\..*");
        if (log4j2) {
            // Kafka 4 logs through Log4j 2 and no longer brings a back end: add the one the OMB kit's Kafka uses.
            for (String artifact : List.of("log4j-core", "log4j-slf4j-impl")) {
                classPath += java.io.File.pathSeparator + MavenClasspath.resolve("org.apache.logging.log4j", artifact,
                        LOG4J2_VERSION, options.cacheDir(), options.mavenCommand());
            }
        }
        int port = ChildJvm.freePort();
        int controllerPort = ChildJvm.freePort();
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("process.roles", "broker,controller");
        conf.put("node.id", "1");
        conf.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        conf.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        conf.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        conf.put("controller.listener.names", "CONTROLLER");
        conf.put("inter.broker.listener.name", "PLAINTEXT");
        conf.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        conf.put("log.dirs", dir.resolve("kafka-logs").toString());
        conf.put("num.partitions", "1");
        conf.put("default.replication.factor", "1");
        conf.put("offsets.topic.replication.factor", "1");
        conf.put("transaction.state.log.replication.factor", "1");
        conf.put("transaction.state.log.min.isr", "1");
        conf.put("group.initial.rebalance.delay.ms", "0");
        conf.put("num.network.threads", "3");
        conf.put("num.io.threads", "8");
        // No log.flush.* settings: Kafka's default leaves flushing to the OS, the same class as ASYNC_FLUSH.
        Path properties = writeProperties(dir.resolve("server.properties"), conf);
        Path log4j = dir.resolve("log4j.properties");
        Files.writeString(log4j, String.join("\n",
                "log4j.rootLogger=INFO, stdout",
                "log4j.appender.stdout=org.apache.log4j.ConsoleAppender",
                "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n",
                "log4j.logger.kafka.request.logger=WARN",
                "log4j.logger.state.change.logger=WARN",
                ""), StandardCharsets.UTF_8);
        Path log4j2Conf = dir.resolve("log4j2.properties");
        Files.writeString(log4j2Conf, String.join("\n",
                "appender.out.type=Console",
                "appender.out.name=out",
                "appender.out.layout.type=PatternLayout",
                "appender.out.layout.pattern=[%d] %p %m (%c)%n",
                "rootLogger.level=INFO",
                "rootLogger.appenderRef.out.ref=out",
                "logger.request.name=kafka.request.logger",
                "logger.request.level=WARN",
                "logger.state.name=state.change.logger",
                "logger.state.level=WARN",
                ""), StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(options.brokerJvm());
        // Kafka's own start script (kafka-run-class.sh) adds these and the OMB kit's Kafka runs with them: the
        // harness's Kafka must run as Kafka's users and OMB run it, or its figures are not Kafka's.
        jvm.add("-XX:InitiatingHeapOccupancyPercent=35");
        jvm.add("-XX:+ExplicitGCInvokesConcurrent");
        jvm.add("-Dlog4j.configuration=file:" + log4j);
        jvm.add("-Dlog4j2.configurationFile=" + log4j2Conf);
        jvm.add("-Dkafka.logs.dir=" + dir.resolve("logs"));
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        String clusterId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        ChildJvm.run("kafka-format", classPath, List.of("-Xmx256m", "-Dlog4j.configuration=file:" + log4j,
                        "-Dlog4j2.configurationFile=" + log4j2Conf),
                "kafka.tools.StorageTool", List.of("format", "-t", clusterId, "-c", properties.toString()), dir);
        List<ChildJvm> processes = new ArrayList<>();
        Peer peer = new Peer(null, "127.0.0.1:" + port,
                described("Kafka " + options.kafkaVersion() + " KRaft combined mode (one JVM)", options.kafkaVersion(),
                        options, conf),
                processes);
        try {
            processes.add(ChildJvm.start("kafka", classPath, jvm, "kafka.Kafka", List.of(properties.toString()), dir));
            processes.get(0).awaitPort(port, START_TIMEOUT_MS);
            return peer;
        } catch (RuntimeException e) {
            peer.close();
            throw e;
        }
    }

    private Peer awaitPorts(int... ports) {
        try {
            for (int port : ports) {
                processes.get(0).awaitPort(port, START_TIMEOUT_MS);
            }
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static Map<String, String> described(String server, String serverVersion, PeerOptions options,
                                                 Map<String, String> conf) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server", server);
        settings.put(SERVER_VERSION, serverVersion);
        settings.put("brokerJvm", String.join(" ", options.brokerJvm()));
        settings.put("durability", "asynchronous flush (acknowledged before fsync), one replica");
        conf.forEach((key, value) -> {
            if (!key.contains("Port") && !key.contains("listeners") && !key.contains("Addr") && !key.contains("Dir")
                    && !key.contains("dirs") && !key.contains("voters") && !key.contains("IP")
                    && !key.contains("storePath")) {
                settings.put("conf." + key, value);
            }
        });
        return settings;
    }

    /** Logs INFO and above to standard output, which the peer's log file collects. */
    private static Path writeLogbackConfig(Path file) throws IOException {
        String xml = """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """;
        return Files.writeString(file, xml, StandardCharsets.UTF_8);
    }

    private static Path writeProperties(Path file, Map<String, String> values) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder text = new StringBuilder("# written by the Sluice load harness\n");
        values.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            try {
                processes.get(i).close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
