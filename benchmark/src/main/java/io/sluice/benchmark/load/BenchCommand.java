package io.sluice.benchmark.load;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice bench WORKLOAD.yaml... --system sluice,rocketmq,kafka}: runs OMB-format workloads against each
 * system in turn. For every (workload, system) it starts the system's servers in child JVMs on 127.0.0.1, runs the
 * workload ({@link LoadRun}), writes {@code <output>/<workload>-<system>.json} (OMB-style), stops the servers; then
 * writes one comparison page per workload ({@code <workload>-comparison.html}, self-contained) and prints a
 * Markdown table. Exit code 1 when any run failed (the others still run). Not thread-safe; one run per instance.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Run OMB-format workloads against Sluice, Apache RocketMQ and Kafka, one after another.",
            "Peers are started from Maven Central artifacts in child JVMs on 127.0.0.1 and stopped afterwards."})
public final class BenchCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(BenchCommand.class);
    /** How long one dispatch lag sample may wait for the broker. */
    private static final long DISPATCH_LAG_TIMEOUT_MS = 1_000;

    @Parameters(arity = "1..*", paramLabel = "WORKLOAD.yaml", description = "OMB workload files")
    List<Path> workloadFiles;

    @Option(names = {"-s", "--system"}, split = ",", defaultValue = "sluice", paramLabel = "SYSTEM",
            description = "systems to compare, in order: sluice, sluice-apache-client, rocketmq, kafka "
                    + "(default: ${DEFAULT-VALUE})")
    List<String> systems;

    @Option(names = {"-o", "--output"}, defaultValue = "bench-results", description = "result directory "
            + "(default: ${DEFAULT-VALUE})")
    Path outputDir;

    @Option(names = "--work-dir", description = "where peers keep their data (default: a new temporary directory)")
    Path workDir;

    @Option(names = "--warmup-seconds", description = "override the workloads' warm-up duration")
    Double warmupSeconds;

    @Option(names = "--test-seconds", description = "override the workloads' test duration")
    Double testSeconds;

    @Option(names = "--keep-data", description = "keep each peer's stored data after its run (default: only its "
            + "logs and config files stay in the work directory)")
    boolean keepData;

    @Option(names = "--peer-heap", defaultValue = "1g", description = "heap of every broker JVM"
            + " (default: ${DEFAULT-VALUE}, "
            + "bin/sluice's broker heap and the OMB kit's Kafka heap)")
    String peerHeap;

    @Option(names = "--rocketmq-version", defaultValue = "5.3.3",
            description = "Apache RocketMQ server version (default: ${DEFAULT-VALUE}; 5.3.1's name server is not on "
                    + "Maven Central)")
    String rocketmqVersion;

    @Option(names = "--kafka-version", defaultValue = "4.1.1", description = "Kafka server version (default: "
            + "${DEFAULT-VALUE}, the OMB kit's)")
    String kafkaVersion;

    @Option(names = "--batch-cq", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "create RocketMQ-protocol topics as BatchCQ (default: ${DEFAULT-VALUE})")
    boolean batchCq;

    @Option(names = "--sluice-config", paramLabel = "KEY=VALUE", description = "a broker key for the Sluice peer, "
            + "over the harness's settings (e.g. dispatchMode=serial); repeatable; bin/sluice config reference "
            + "lists them")
    Map<String, String> sluiceConfig = new LinkedHashMap<>();

    @Option(names = "--peer-jvm-option", paramLabel = "OPTION", description = "a JVM option appended to every "
            + "broker's (e.g. -XX:MaxGCPauseMillis=5 or -Xlog:gc:file=gc-%%p.log); repeatable")
    List<String> peerJvmOptions = new ArrayList<>();

    @Option(names = "--chart", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "write the comparison page (default: ${DEFAULT-VALUE})")
    boolean chart;

    @Option(names = "--maven", defaultValue = "${env:MAVEN_CMD:-mvn}",
            description = "mvn command that resolves peer class paths (default: $MAVEN_CMD, else mvn)")
    String mavenCommand;

    /** Runs the harness from the benchmark module: {@code java -cp ... io.sluice.benchmark.load.BenchCommand}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        System.setProperty("java.awt.headless", "true");
        // Read once by the Apache client: rebalance every second rather than every 20 s, so consumers start fast.
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");
        List<BenchSystem> chosen = systems.stream().map(BenchSystem::of).toList();
        List<Workload> workloads = new ArrayList<>();
        for (Path file : workloadFiles) {
            Workload workload = Workload.read(file);
            if (warmupSeconds != null || testSeconds != null) {
                workload = workload.withDurations(warmupSeconds == null ? workload.warmupSeconds() : warmupSeconds,
                        testSeconds == null ? workload.testSeconds() : testSeconds);
            }
            workloads.add(workload);
        }
        Files.createDirectories(outputDir);
        Path work = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("sluice-bench");
        PeerOptions options = new PeerOptions(peerHeap, rocketmqVersion, kafkaVersion,
                Path.of(System.getProperty("user.home"), ".cache", "sluice", "bench-peers"), mavenCommand,
                System.getProperty("java.class.path"), Map.copyOf(sluiceConfig), peerJvmOptions);
        Environment environment = Environment.current();
        LOG.info("environment: {}, host {}, {}", environment.summary(), environment.host(), environment.os());
        int failures = 0;
        StringBuilder summary = new StringBuilder();
        for (Workload workload : workloads) {
            LOG.info("workload {}", workload);
            List<RunResult> results = new ArrayList<>();
            for (BenchSystem system : chosen) {
                try {
                    RunResult result = runOne(workload, system, options, work);
                    results.add(result);
                    Path json = outputDir.resolve(workload.name() + "-" + system.label() + ".json");
                    Map<String, Object> fields = result.toJson();
                    fields.put("environment", environment.toJson());
                    Files.writeString(json, JSON.toJSONString(fields, JSONWriter.Feature.PrettyFormat,
                            JSONWriter.Feature.WriteNulls), StandardCharsets.UTF_8);
                    LOG.info("{} on {}: {}", workload.name(), system.label(), json);
                } catch (Exception e) {
                    failures++;
                    LOG.error("{} on {} failed: {}", workload.name(), system.label(), e.toString(), e);
                }
            }
            if (!results.isEmpty()) {
                if (chart) {
                    Path page = ComparisonChart.write(workload.name(), results, environment, outputDir);
                    LOG.info("comparison page: {}", page);
                }
                summary.append("\n### ").append(workload).append("\n\n").append(ComparisonChart.markdownTable(results));
            }
        }
        String text = "# sluice bench, " + LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME) + "\n\n"
                + environment.host() + ": " + environment.summary() + "\n" + summary;
        Files.writeString(outputDir.resolve("summary.md"), text, StandardCharsets.UTF_8);
        System.out.println(text);
        return failures == 0 ? 0 : 1;
    }

    private RunResult runOne(Workload workload, BenchSystem system, PeerOptions options, Path work)
            throws Exception {
        Path dir = Files.createTempDirectory(work, workload.name() + "-" + system.label() + "-");
        LOG.info("{}: starting servers in {}", system.label(), dir);
        try (Peer peer = system.startPeer(options, dir);
             Driver driver = system.driver(peer, batchCq);
             DispatchLagProbe probe = system.reportsDispatchLag() ? new DispatchLagProbe(peer.brokerAddr(),
                     DISPATCH_LAG_TIMEOUT_MS) : null) {
            return new LoadRun(workload, driver, system.label(), Optional.ofNullable(probe), LOG::info).run()
                    .withSettings(peer.settings());
        } finally {
            if (!keepData) {
                pruneData(dir);
            }
        }
    }

    /**
     * Deletes a stopped peer's stored data (gigabytes per run), keeping its logs and generated config files; the
     * directories that end up empty go too.
     */
    static void pruneData(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    boolean empty;
                    try (Stream<Path> children = Files.list(p)) {
                        empty = children.findAny().isEmpty();
                    }
                    if (empty && !p.equals(dir)) {
                        Files.delete(p);
                    }
                } else if (!isKept(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
    }

    private static boolean isKept(String fileName) {
        return fileName.endsWith(".log") || fileName.endsWith(".conf") || fileName.endsWith(".properties")
                || fileName.endsWith(".yaml") || fileName.endsWith(".xml");
    }
}
