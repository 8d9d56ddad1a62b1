package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PruneDataTest {

    @TempDir
    Path dir;

    @Test
    void storedDataGoesLogsAndConfigStay() throws Exception {
        Files.createDirectories(dir.resolve("store/commitlog"));
        Files.write(dir.resolve("store/commitlog/00000000000000000000"), new byte[4096]);
        Files.writeString(dir.resolve("sluice-standalone.log"), "started");
        Files.writeString(dir.resolve("broker.conf"), "listenPort=1");
        Files.createDirectories(dir.resolve("kafka/meta"));
        Files.writeString(dir.resolve("kafka/meta/server.properties"), "node.id=1");

        BenchCommand.pruneData(dir);

        assertFalse(Files.exists(dir.resolve("store")), "the emptied data directories go too");
        assertTrue(Files.exists(dir));
        try (Stream<Path> left = Files.walk(dir)) {
            assertEquals(List.of("broker.conf", "kafka/meta/server.properties", "sluice-standalone.log"),
                    left.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                            .sorted().toList());
        }
    }
}
