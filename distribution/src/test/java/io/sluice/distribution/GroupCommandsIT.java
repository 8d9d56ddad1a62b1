package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice admin group list|describe|reset|delete} through the launcher against a standalone Sluice: offsets,
 * lag and the online client per queue, resets to each kind of target (dry run first), deletion, and the one-line
 * errors with exit codes 1 (unknown group, online members) and 2 (bad arguments).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class GroupCommandsIT {

    private static final String TOPIC = "GroupTopic";
    private static final int MESSAGES = 20;
    private static final Pattern TOTAL_LAG = Pattern.compile("total lag (\\d+)");

    @TempDir
    Path dir;

    @Test
    void groupsAreListedDescribedResetAndDeleted() throws Exception {
        int namesrvPort = StandaloneConf.freePort();
        Path conf = StandaloneConf.write(dir, namesrvPort, StandaloneConf.freePort());
        try (SluiceProcess standalone = SluiceProcess.start(dir, "standalone", "-c", conf.toString())) {
            standalone.awaitLine("sluice standalone ready", 60_000);
            String namesrv = "127.0.0.1:" + namesrvPort;
            assertOk(run("admin", "topic", "create", "-n", namesrv, "-t", TOPIC, "-q", "2"));
            assertOk(run("produce", "-n", namesrv, "-t", TOPIC, "-m", String.valueOf(MESSAGES), "-s", "10"));
            assertOk(run("consume", "-n", namesrv, "-t", TOPIC, "-g", "readers", "-m", String.valueOf(MESSAGES),
                    "--max-seconds", "40"));

            SluiceProcess.Result list = assertOk(run("admin", "group", "list", "-n", namesrv));
            assertTrue(list.stdout().lines().anyMatch(l -> l.matches("readers +broker-a")), list.stdout());

            SluiceProcess.Result described = assertOk(run("admin", "group", "describe", "readers", "-n", namesrv));
            assertTrue(described.stdout().lines().anyMatch(l -> l.matches("TOPIC +BROKER +QUEUE +BROKER OFFSET"
                    + " +COMMITTED OFFSET +LAG +CLIENT")), described.stdout());
            assertEquals(0, totalLag(described), described.stdout());
            List<Long> brokerOffsets = described.stdout().lines().filter(l -> l.startsWith(TOPIC + " "))
                    .map(l -> Long.parseLong(l.split(" +")[3])).toList();
            assertEquals(2, brokerOffsets.size(), described.stdout());
            assertEquals(MESSAGES, brokerOffsets.stream().mapToLong(Long::longValue).sum());

            SluiceProcess.Result dry = assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC,
                    "--to-earliest", "--dry-run"));
            assertTrue(dry.stdout().contains("dry run: no offset changed"), dry.stdout());
            assertTrue(dry.stdout().lines().filter(l -> l.startsWith(TOPIC + " ")).allMatch(l -> l.endsWith(" 0")),
                    dry.stdout());
            assertEquals(0, totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)), "unchanged");

            assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC, "--to-earliest"));
            assertEquals(MESSAGES, totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)));
            SluiceProcess.Result toOffset = assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t",
                    TOPIC, "--to-offset", "3"));
            assertEquals(brokerOffsets.stream().map(max -> " " + Math.min(3, max)).toList(), toOffset.stdout().lines()
                    .filter(l -> l.startsWith(TOPIC + " ")).map(l -> l.substring(l.lastIndexOf(' '))).toList(),
                    "3 on every queue, or the queue's end: " + toOffset.stdout());
            assertEquals(brokerOffsets.stream().mapToLong(max -> max - Math.min(3, max)).sum(),
                    totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)));
            assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC, "--by-time",
                    String.valueOf(System.currentTimeMillis() + 3_600_000)));
            assertEquals(0, totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)),
                    "a time after every message moves to the end");
            assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC, "--by-time",
                    "2000-01-01T00:00:00Z"));
            assertEquals(MESSAGES, totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)));
            assertOk(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC, "--to-latest"));
            assertEquals(0, totalLag(run("admin", "group", "describe", "readers", "-n", namesrv)));

            DefaultMQPushConsumer online = StandaloneConf.consumerFromFirst(namesrv, "watchers", "watcher-1", TOPIC,
                    (messages, context) -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
            online.start();
            try {
                Await.until("describe names the online client holding each queue", 60_000, () -> {
                    String out = run("admin", "group", "describe", "watchers", "-n", namesrv).stdout();
                    return out.lines().filter(l -> l.startsWith(TOPIC + " ") && l.contains("@watcher-1")).count() == 2
                            && out.contains("1 online consumers");
                }, () -> run("admin", "group", "describe", "watchers", "-n", namesrv));
                assertFailedInOneLine(run("admin", "group", "delete", "watchers", "-n", namesrv),
                        "sluice admin group delete: ", "online consumers");
            } finally {
                online.shutdown();
            }

            for (List<String> command : List.of(List.of("describe", "nobody"), List.of("delete", "nobody"),
                    List.of("reset", "nobody", "-t", TOPIC, "--to-latest"))) {
                assertFailedInOneLine(run(args(namesrv, command)), "sluice admin group " + command.get(0) + ": ",
                        "consumer group 'nobody' does not exist");
            }
            assertFailedInOneLine(run("admin", "group", "reset", "readers", "-n", namesrv, "-t", "NoSuchTopic",
                    "--to-latest"), "sluice admin group reset: ", "topic 'NoSuchTopic' does not exist");
            SluiceProcess.Result two = run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC,
                    "--to-earliest", "--to-latest");
            assertEquals(2, two.exitCode(), two.toString());
            assertFalse(two.stderr().strip().contains("\n"), two.stderr());
            SluiceProcess.Result badTime = run("admin", "group", "reset", "readers", "-n", namesrv, "-t", TOPIC,
                    "--by-time", "yesterday");
            assertEquals(2, badTime.exitCode(), badTime.toString());
            assertTrue(badTime.stderr().contains("'yesterday' is neither epoch milliseconds nor an ISO-8601"),
                    badTime.stderr());

            SluiceProcess.Result deleted = assertOk(run("admin", "group", "delete", "readers", "-n", namesrv));
            assertTrue(deleted.stdout().lines().anyMatch(l -> l.matches("readers +127\\.0\\.0\\.1:\\d+ +yes")),
                    deleted.stdout());
            assertFalse(run("admin", "group", "list", "-n", namesrv).stdout().contains("readers"));
            assertFailedInOneLine(run("admin", "group", "describe", "readers", "-n", namesrv),
                    "sluice admin group describe: ", "consumer group 'readers' does not exist");
        }
    }

    private String[] args(String namesrv, List<String> command) {
        List<String> all = new ArrayList<>(List.of("admin", "group"));
        all.addAll(command);
        all.addAll(List.of("-n", namesrv));
        return all.toArray(String[]::new);
    }

    private SluiceProcess.Result run(String... args) {
        try {
            return SluiceProcess.run(dir, args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static SluiceProcess.Result assertOk(SluiceProcess.Result result) {
        assertEquals(0, result.exitCode(), result.toString());
        return result;
    }

    private static long totalLag(SluiceProcess.Result describe) {
        assertOk(describe);
        Matcher matcher = TOTAL_LAG.matcher(describe.stdout());
        assertTrue(matcher.find(), describe.stdout());
        return Long.parseLong(matcher.group(1));
    }

    private static void assertFailedInOneLine(SluiceProcess.Result result, String prefix, String text) {
        assertEquals(1, result.exitCode(), result.toString());
        String stderr = result.stderr().strip();
        assertTrue(stderr.startsWith(prefix) && stderr.contains(text) && !stderr.contains("\n"), stderr);
    }
}
