package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembled distribution (target/sluice, built at package): its layout, and bin/sluice run as a user would.
 */
class DistributionIT {

    /** The load harness and the libraries only it needs (chart, PDF, peer clients, JMH): lib/bench/, never lib/. */
    static final String BENCH_ONLY_JARS = "(sluice-benchmark|xchart|pdfbox|fontbox|graphics2d|VectorGraphics2D"
            + "|animated-gif-lib|commons-logging|rocketmq-|kafka-|jmh-).*";

    @TempDir
    Path dir;

    @Test
    void layoutHasTheLauncherLibrariesAndConfiguration() throws IOException {
        Path home = SluiceProcess.HOME;
        assertTrue(Files.isExecutable(home.resolve("bin/sluice")), "bin/sluice is executable");
        List<String> lib = names(home.resolve("lib"));
        for (String prefix : List.of("sluice-distribution-", "sluice-store-", "sluice-namesrv-", "sluice-client-",
                "sluice-remoting-", "picocli-", "netty-transport-", "logback-classic-", "HdrHistogram-")) {
            assertTrue(lib.stream().anyMatch(n -> n.startsWith(prefix) && n.endsWith(".jar")), prefix + " in " + lib);
        }
        List<String> bench = names(home.resolve("lib/bench"));
        for (String prefix : List.of("sluice-benchmark-", "rocketmq-client-5.", "kafka-clients-", "xchart-",
                "pdfbox-")) {
            assertTrue(bench.stream().anyMatch(n -> n.startsWith(prefix)), prefix + " in lib/bench " + bench);
        }
        lib.forEach(jar -> assertFalse(jar.matches(BENCH_ONLY_JARS), "a library of the harness only in lib/: " + jar));
        assertEquals(List.of(), bench.stream().filter(lib::contains).toList(),
                "jars of lib/bench/ already in lib/ (on the bench classpath too)");
        lib.forEach(jar -> assertFalse(jar.matches(TarballIT.TEST_JARS), "test jar in lib/: " + jar));
        bench.forEach(jar -> assertFalse(jar.matches(TarballIT.TEST_RUNNERS), "test runner in lib/bench/: " + jar));
        for (String conf : List.of("broker.conf", "namesrv.conf", "logback.xml")) {
            assertTrue(Files.size(home.resolve("conf").resolve(conf)) > 0, "conf/" + conf);
        }
        for (String doc : List.of("wire-protocol.md", "storage.md", "dispatch.md", "replication.md", "security.md",
                "metrics.md")) {
            assertTrue(Files.size(home.resolve("docs").resolve(doc)) > 0, "docs/" + doc);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theHarnessCommandIsListedAndDescribedFromLibBench() throws Exception {
        SluiceProcess.Result usage = SluiceProcess.run(dir, "--help");
        assertEquals(0, usage.exitCode(), usage.toString());
        assertTrue(usage.stdout().lines().anyMatch(l -> l.strip().startsWith("bench ")), usage.stdout());
        SluiceProcess.Result help = SluiceProcess.run(dir, "help", "bench");
        assertEquals(0, help.exitCode(), help.toString());
        assertTrue(help.stdout().contains("WORKLOAD.yaml") && help.stdout().contains("--system"), help.stdout());
        assertFalse(help.stderr().contains("%p"), "no picocli format warning: " + help.stderr());
        SluiceProcess.Result bad = SluiceProcess.run(dir, "bench", "--no-such-option");
        assertEquals(2, bad.exitCode(), bad.toString());
        assertTrue(bad.stderr().startsWith("sluice bench: "), bad.stderr());
    }

    @Test
    void standaloneStartsOnFreePortsAnswersARouteQueryAndStops() throws Exception {
        int namesrvPort = StandaloneConf.freePort();
        int brokerPort = StandaloneConf.freePort();
        Path conf = StandaloneConf.write(dir, namesrvPort, brokerPort, "brokerClusterName=ItCluster",
                "brokerName=it-broker");
        try (SluiceProcess standalone = SluiceProcess.start(dir, "standalone", "-c", conf.toString());
             RemotingClient client = new RemotingClient(ClientSettings.defaults())) {
            String ready = standalone.awaitLine("sluice standalone ready", 60_000);
            assertTrue(ready.contains("port " + namesrvPort), ready);
            assertTrue(ready.contains("127.0.0.1:" + brokerPort), ready);

            String namesrv = "127.0.0.1:" + namesrvPort;
            SluiceProcess.Result create = SluiceProcess.run(dir, "admin", "topic", "create", "-n", namesrv,
                    "-t", "DistTopic", "-q", "4", "-c", "ItCluster");
            assertEquals(0, create.exitCode(), create.toString());
            assertTrue(create.stdout().contains("127.0.0.1:" + brokerPort), create.stdout());

            SluiceProcess.Result route = SluiceProcess.run(dir, "admin", "-n", namesrv, "topic", "route",
                    "-t", "DistTopic");
            assertEquals(0, route.exitCode(), route.toString());
            assertTrue(route.stdout().matches("(?s)BROKER +ADDRESS +READ QUEUES +WRITE QUEUES +PERM\n"
                    + "it-broker +127\\.0\\.0\\.1:" + brokerPort + " +4 +4 +6\\s*"), route.stdout());

            SluiceProcess.Result produce = SluiceProcess.run(dir, "produce", "-n", namesrv, "-t", "DistTopic",
                    "-m", "200", "-s", "100");
            assertEquals(0, produce.exitCode(), produce.toString());
            assertTrue(produce.stdout().contains("total: 200 sent"), produce.stdout());
            SluiceProcess.Result consume = SluiceProcess.run(dir, "consume", "-n", namesrv, "-t", "DistTopic",
                    "-g", "dist-group", "-m", "200", "--max-seconds", "40");
            assertEquals(0, consume.exitCode(), consume.toString());
            assertTrue(consume.stdout().contains("total: 200 received"), consume.stdout());

            // The same route, asked with the remoting client directly.
            RemotingCommand query = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                    .putExtField("topic", "DistTopic");
            RemotingCommand answer = client.invoke(namesrv, query, 5_000).join();
            assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
            String body = new String(answer.body(), StandardCharsets.UTF_8);
            assertTrue(body.contains("it-broker") && body.contains("127.0.0.1:" + brokerPort), body);
        }
    }

    @Test
    void clientCommandsRefuseMissingAndExistingTopicsAndUnknownGroupsInOneLine() throws Exception {
        int namesrvPort = StandaloneConf.freePort();
        int brokerPort = StandaloneConf.freePort();
        Path conf = StandaloneConf.write(dir, namesrvPort, brokerPort);
        try (SluiceProcess standalone = SluiceProcess.start(dir, "standalone", "-c", conf.toString())) {
            standalone.awaitLine("sluice standalone ready", 60_000);
            String namesrv = "127.0.0.1:" + namesrvPort;

            SluiceProcess.Result noTopic = SluiceProcess.run(dir, "consume", "-n", namesrv, "-t", "NoSuchTopic");
            assertFailedInOneLine(noTopic, "sluice consume: ", "topic 'NoSuchTopic' does not exist");

            assertEquals(0, SluiceProcess.run(dir, "admin", "topic", "create", "-n", namesrv, "-t", "Once",
                    "-q", "2").exitCode());
            SluiceProcess.Result twice = SluiceProcess.run(dir, "admin", "topic", "create", "-n", namesrv,
                    "-t", "Once", "-q", "2");
            assertFailedInOneLine(twice, "sluice admin topic create: ", "topic 'Once' already exists on 127.0.0.1:"
                    + brokerPort);
            SluiceProcess.Result ifNotExists = SluiceProcess.run(dir, "admin", "topic", "create", "-n", namesrv,
                    "-t", "Once", "-q", "2", "--if-not-exists");
            assertEquals(0, ifNotExists.exitCode(), ifNotExists.toString());
            assertTrue(ifNotExists.stdout().contains("unchanged"), ifNotExists.stdout());

            SluiceProcess.Result deleteMissing = SluiceProcess.run(dir, "admin", "topic", "delete", "-n", namesrv,
                    "-t", "NeverCreated");
            assertFailedInOneLine(deleteMissing, "sluice admin topic delete: ", "topic 'NeverCreated' does not exist");

            Path lines = Files.writeString(dir.resolve("lines.txt"), "from stdin 1\nfrom stdin 2\n");
            SluiceProcess.Result produced = SluiceProcess.run(dir, lines, "produce", "-n", namesrv, "-t", "Once",
                    "-k", "order-7", "--tag", "TagT", "--property", "color=blue", "-b", "from args", "--stdin");
            assertEquals(0, produced.exitCode(), produced.toString());
            assertTrue(produced.stdout().contains("total: 3 sent"), produced.stdout());
            SluiceProcess.Result printed = SluiceProcess.run(dir, "consume", "-n", namesrv, "-t", "Once", "-g",
                    "printer", "-m", "3", "--max-seconds", "40", "--print", "JSON");
            assertEquals(0, printed.exitCode(), printed.toString());
            for (String body : List.of("from args", "from stdin 1", "from stdin 2")) {
                assertTrue(printed.stdout().lines().anyMatch(l -> l.startsWith("{") && l.contains("\"body\":\""
                        + body + "\"") && l.contains("\"keys\":\"order-7\"") && l.contains("\"tags\":\"TagT\"")
                        && l.contains("\"color\":\"blue\"")), body + " in " + printed.stdout());
            }
            SluiceProcess.Result text = SluiceProcess.run(dir, "consume", "-n", namesrv, "-t", "Once", "-g",
                    "text-printer", "-m", "3", "--max-seconds", "40", "--print", "TEXT");
            assertEquals(0, text.exitCode(), text.toString());
            assertTrue(text.stdout().lines().anyMatch(l -> l.contains("\torder-7\tTagT\t")
                    && l.endsWith("\tfrom args")), text.stdout());

            SluiceProcess.Result status = SluiceProcess.run(dir, "admin", "broker", "status", "-n", namesrv);
            assertEquals(0, status.exitCode(), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.startsWith("127.0.0.1:" + brokerPort)
                    && l.contains("sluiceVersion")), status.stdout());

            SluiceProcess.Result set = SluiceProcess.run(dir, "admin", "broker", "config", "-n", namesrv, "--set",
                    "clientChannelExpiredTimeoutMs=60000");
            assertEquals(0, set.exitCode(), set.toString());
            assertTrue(set.stdout().lines().anyMatch(l -> l.matches("127\\.0\\.0\\.1:" + brokerPort
                    + " +clientChannelExpiredTimeoutMs +60000")), set.stdout());
            SluiceProcess.Result all = SluiceProcess.run(dir, "admin", "broker", "config", "-n", namesrv);
            assertTrue(all.stdout().contains("autoCreateSubscriptionGroup"), all.stdout());
            SluiceProcess.Result fixed = SluiceProcess.run(dir, "admin", "broker", "config", "-n", namesrv, "--set",
                    "listenPort=1");
            assertFailedInOneLine(fixed, "sluice admin broker config: ", "listenPort");

            SluiceProcess.Result unknownGroup = SluiceProcess.run(dir, "admin", "consumer", "progress", "-n",
                    namesrv, "-g", "nobody");
            assertFailedInOneLine(unknownGroup, "sluice admin consumer progress: ", "consumer group 'nobody'");
        }
        int closedPort = StandaloneConf.freePort();
        long startNs = System.nanoTime();
        SluiceProcess.Result noNamesrv = SluiceProcess.run(dir, "consume", "-n", "127.0.0.1:" + closedPort, "-t",
                "T", "--rpc-timeout-ms", "2000");
        assertFailedInOneLine(noNamesrv, "sluice consume: ", "127.0.0.1:" + closedPort);
        long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(tookMs < 20_000, "consume without a name server failed after " + tookMs + " ms");
    }

    private static void assertFailedInOneLine(SluiceProcess.Result result, String prefix, String text) {
        assertEquals(1, result.exitCode(), result.toString());
        String stderr = result.stderr().strip();
        assertTrue(stderr.startsWith(prefix) && stderr.contains(text) && !stderr.contains("\n"), stderr);
        assertFalse(stderr.contains("code 17"), "no raw protocol code: " + stderr);
    }

    @Test
    void adminWithABadArgumentExitsNonZeroWithAClearMessage() throws Exception {
        SluiceProcess.Result missing = SluiceProcess.run(dir, "admin", "topic", "create", "-q", "4");
        assertEquals(2, missing.exitCode(), missing.toString());
        assertTrue(missing.stderr().contains("Missing required option: '--topic=<topic>'"), missing.stderr());
        assertEquals("sluice admin topic create: Missing required option: '--topic=<topic>' (see 'sluice admin topic"
                + " create --help')", missing.stderr().strip(), "one line, no usage dump");

        SluiceProcess.Result badNumber = SluiceProcess.run(dir, "admin", "topic", "create", "-t", "T", "-q", "many");
        assertEquals(2, badNumber.exitCode(), badNumber.toString());
        assertTrue(badNumber.stderr().contains("'many' is not an int"), badNumber.stderr());

        int closedPort = StandaloneConf.freePort();
        SluiceProcess.Result unreachable = SluiceProcess.run(dir, "admin", "topic", "list", "-n",
                "127.0.0.1:" + closedPort, "--rpc-timeout-ms", "2000");
        assertEquals(1, unreachable.exitCode(), unreachable.toString());
        assertTrue(unreachable.stderr().startsWith("sluice admin topic list: ")
                && unreachable.stderr().contains("127.0.0.1:" + closedPort), unreachable.stderr());
    }

    @Test
    void aMissingConfigFileIsAClearErrorWithExitCode1() throws Exception {
        Path missing = dir.resolve("no-such-broker.conf");
        SluiceProcess.Result result = SluiceProcess.run(dir, "broker", "-c", missing.toString());
        assertEquals(1, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("no-such-broker.conf"), result.stderr());
    }

    @Test
    void anUnknownSubcommandIsAUsageErrorWithExitCode2() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(dir, "no-such-command");
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("Unmatched argument at index 0: 'no-such-command'"), result.stderr());
    }

    private static List<String> names(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
