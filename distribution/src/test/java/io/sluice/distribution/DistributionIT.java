package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembled distribution (target/sluice, built at package): its layout, and bin/sluice run as a user would.
 */
class DistributionIT {

    @TempDir
    Path dir;

    @Test
    void layoutHasTheLauncherLibrariesAndConfiguration() throws IOException {
        Path home = SluiceProcess.HOME;
        assertTrue(Files.isExecutable(home.resolve("bin/sluice")), "bin/sluice is executable");
        List<String> lib = names(home.resolve("lib"));
        for (String prefix : List.of("sluice-distribution-", "sluice-store-", "sluice-namesrv-", "sluice-client-",
                "sluice-remoting-", "sluice-benchmark-", "picocli-", "netty-transport-", "logback-classic-")) {
            assertTrue(lib.stream().anyMatch(n -> n.startsWith(prefix) && n.endsWith(".jar")), prefix + " in " + lib);
        }
        List<String> bench = names(home.resolve("lib/bench"));
        for (String prefix : List.of("rocketmq-client-5.", "kafka-clients-", "xchart-", "HdrHistogram-")) {
            assertTrue(bench.stream().anyMatch(n -> n.startsWith(prefix)), prefix + " in lib/bench " + bench);
        }
        for (String conf : List.of("broker.conf", "namesrv.conf", "logback.xml")) {
            assertTrue(Files.size(home.resolve("conf").resolve(conf)) > 0, "conf/" + conf);
        }
        for (String doc : List.of("wire-protocol.md", "storage.md", "dispatch.md", "replication.md", "security.md",
                "metrics.md")) {
            assertTrue(Files.size(home.resolve("docs").resolve(doc)) > 0, "docs/" + doc);
        }
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
    void adminWithABadArgumentExitsNonZeroWithAClearMessage() throws Exception {
        SluiceProcess.Result missing = SluiceProcess.run(dir, "admin", "topic", "create", "-q", "4");
        assertEquals(2, missing.exitCode(), missing.toString());
        assertTrue(missing.stderr().contains("Missing required option: '--topic=<topic>'"), missing.stderr());

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
