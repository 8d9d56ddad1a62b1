package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    @Test
    void readsAnOmbWorkload() {
        Workload w = Workload.parse("""
                name: w1-1t-16p-1kb-10k
                topics: 1
                partitionsPerTopic: 16
                messageSize: 1024
                payloadFile: "payload/payload-1Kb.data"   # ignored
                subscriptionsPerTopic: 1
                consumerPerSubscription: 2
                producersPerTopic: 1
                producerRate: 10000
                consumerBacklogSizeGB: 0
                warmupDurationMinutes: 0.5
                testDurationMinutes: 2
                """, "file");
        assertEquals(new Workload("w1-1t-16p-1kb-10k", 1, 16, 1024, 1, 2, 1, 10_000, 0, 30, 120), w);
    }

    @Test
    void secondsOverrideMinutesAndTheFileNameIsTheDefaultName() {
        Workload w = Workload.parse("topics: 1\npartitionsPerTopic: 4\nmessageSize: 100\nproducersPerTopic: 1\n"
                + "producerRate: 0\nwarmupDurationMinutes: 1\nwarmupDurationSeconds: 5\ntestDurationSeconds: 12\n",
                "short");
        assertEquals("short", w.name());
        assertEquals(5, w.warmupSeconds());
        assertEquals(12, w.testSeconds());
    }

    @Test
    void badInputIsAnErrorNamingIt() {
        String base = "topics: 1\npartitionsPerTopic: 4\nmessageSize: 100\nproducersPerTopic: 1\nproducerRate: 0\n";
        assertEquals("line 6: unknown workload key 'partitions'; known: [name, topics, partitionsPerTopic, "
                        + "messageSize, subscriptionsPerTopic, consumerPerSubscription, producersPerTopic, producerRate, "
                        + "consumerBacklogSizeGB, warmupDurationMinutes, testDurationMinutes, warmupDurationSeconds, "
                        + "testDurationSeconds]",
                assertThrows(IllegalArgumentException.class, () -> Workload.parse(base + "partitions: 3\n", "x"))
                        .getMessage());
        assertEquals("messageSize is not a number: '1KB'", assertThrows(IllegalArgumentException.class,
                () -> Workload.parse(base.replace("messageSize: 100", "messageSize: 1KB"), "x")).getMessage());
        assertEquals("line 6: nested values are not part of a workload: '- a'", assertThrows(
                IllegalArgumentException.class, () -> Workload.parse(base + "  - a\n", "x")).getMessage());
        assertEquals("missing workload key 'producerRate'", assertThrows(IllegalArgumentException.class,
                () -> Workload.parse(base.replace("producerRate: 0\n", ""), "x")).getMessage());
        assertEquals("partitionsPerTopic must be within 1..65535: 0", assertThrows(IllegalArgumentException.class,
                () -> Workload.parse(base.replace("partitionsPerTopic: 4", "partitionsPerTopic: 0"), "x"))
                .getMessage());
    }

    @Test
    void everyShippedWorkloadParses() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("workloads"))) {
            long count = files.filter(f -> f.toString().endsWith(".yaml")).peek(f -> {
                try {
                    Workload w = Workload.read(f);
                    assertEquals(f.getFileName().toString(), w.name() + ".yaml");
                } catch (IOException e) {
                    throw new AssertionError(f + ": " + e, e);
                }
            }).count();
            assertTrue(count >= 6, "shipped workloads: " + count);
        }
    }

    @Property(tries = 50)
    void thePayloadIsFillerOfTheWorkloadsSize(@ForAll @IntRange(min = 1, max = 65_536) int sizeBytes) {
        byte[] body = Payload.filler(sizeBytes);
        assertEquals(sizeBytes, body.length);
        for (byte b : body) {
            assertEquals((byte) 'x', b);
        }
    }
}
