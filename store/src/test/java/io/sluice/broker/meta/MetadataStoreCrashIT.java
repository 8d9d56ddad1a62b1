package io.sluice.broker.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.format.ConsumeQueueType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that is writing to a {@link MetadataStore} with SIGKILL and checks that every write the process
 * saw acknowledged is there after reopening: topics (synced writes) and offsets (unsynced write-ahead log, which
 * survives a process crash because it is already in the page cache).
 */
class MetadataStoreCrashIT {

    private static final int ACKED_TOPICS_BEFORE_KILL = 100;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldKeepEveryAcknowledgedWriteWhenTheProcessIsKilled() throws Exception {
        Path dir = tmp.resolve("meta");
        Path stderr = tmp.resolve("child.err");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), MetadataCrashChild.class.getName(),
                dir.toString())
                .redirectError(stderr.toFile())
                .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
            int ackedTopics = 0;
            while (ackedTopics < ACKED_TOPICS_BEFORE_KILL) {
                String line = out.readLine();
                if (line == null) {
                    fail("child exited early with " + child.waitFor() + ": " + Files.readString(stderr));
                }
                lines.add(line);
                if (line.startsWith("acked topic ")) {
                    ackedTopics++;
                }
            }
            // SIGKILL through the handle: Process.destroyForcibly() would also close our end of the pipe.
            assertTrue(child.toHandle().destroyForcibly(), "kill not sent");
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
            assertEquals(137, child.exitValue(), "killed by SIGKILL");
            // Lines the child printed before it died are acknowledgements too.
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } finally {
            child.destroyForcibly();
        }

        int lastTopic = -1;
        long lastOffset = -1;
        for (String line : lines) {
            if (line.startsWith("acked topic ")) {
                lastTopic = Integer.parseInt(line.substring("acked topic ".length()));
            } else if (line.startsWith("acked offset ")) {
                lastOffset = Long.parseLong(line.substring("acked offset ".length()));
            }
        }
        assertTrue(lastTopic >= ACKED_TOPICS_BEFORE_KILL - 1, "acked " + lastTopic);

        try (MetadataStore store = MetadataStore.open(MetadataSettings.of(dir))) {
            for (int i = 0; i <= lastTopic; i++) {
                ConsumeQueueType type = i % 2 == 0 ? ConsumeQueueType.SIMPLE : ConsumeQueueType.BATCH;
                assertEquals(Optional.of(TopicConfig.of("crash-" + i, 1 + i % 16, type)), store.getTopic("crash-" + i),
                        "acknowledged topic crash-" + i);
            }
            assertTrue(store.topicDataVersion().counter() >= lastTopic + 1, "version counts every acked topic");
            long offset = store.queryOffset(MetadataCrashChild.GROUP, MetadataCrashChild.OFFSET_TOPIC, 0);
            assertTrue(offset >= lastOffset, "offset " + offset + " < acknowledged " + lastOffset);
        }
    }
}
