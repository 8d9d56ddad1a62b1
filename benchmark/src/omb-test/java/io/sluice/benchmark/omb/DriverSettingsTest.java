package io.sluice.benchmark.omb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.client.ConnectionSettings;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.ProducerSettings;
import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DriverSettingsTest {

    private static DriverSettings parse(String yaml) {
        return DriverSettings.parse(yaml);
    }

    private static String failure(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> parse(yaml)).getMessage();
    }

    @Test
    void readsEveryKey() {
        DriverSettings settings = parse("""
                name: Sluice
                driverClass: io.sluice.benchmark.omb.SluiceBenchmarkDriver
                namesrvAddr: 127.0.0.1:9876;127.0.0.2:9876
                clusterName: Other
                batchCQ: false
                autoBatch: false
                batchMaxBytes: 65536
                batchMaxDelayMs: 2
                totalBatchMaxBytes: 8589934592
                maxInFlightMessages: 4096
                pullBatchSize: 64
                pullThresholdMessages: 500
                """);
        assertEquals(new DriverSettings("127.0.0.1:9876;127.0.0.2:9876", "Other", false, false, 65_536, 2,
                8L << 30, 4096, 64, 500), settings);
        assertEquals(ConsumeQueueType.SIMPLE, settings.queueType());
    }

    @Test
    void onlyTheNameServerIsRequired() {
        DriverSettings settings = parse("namesrvAddr: 127.0.0.1:9876\n");
        assertEquals(new DriverSettings("127.0.0.1:9876", "DefaultCluster", true, true,
                DriverSettings.DEFAULT_BATCH_MAX_BYTES, ProducerSettings.DEFAULT_BATCH_MAX_DELAY_MS,
                ProducerSettings.DEFAULT_TOTAL_BATCH_MAX_BYTES, 0, DriverSettings.DEFAULT_PULL_BATCH_SIZE,
                DriverSettings.DEFAULT_PULL_THRESHOLD_MESSAGES), settings);
        assertEquals(ConsumeQueueType.BATCH, settings.queueType());
    }

    @Test
    void theShippedDriverFileSpellsOutTheDefaults() throws IOException {
        // Surefire runs in the module directory; the file is the one the README tells OMB to use.
        String shipped = Files.readString(Path.of("src/omb/sluice-native.yaml"), StandardCharsets.UTF_8);
        assertEquals(parse("namesrvAddr: 127.0.0.1:9876\n"), parse(shipped));
    }

    @Test
    void theBuiltClientSettingsCarryTheYamlValues() {
        DriverSettings settings = parse("namesrvAddr: 127.0.0.1:9876\nbatchMaxBytes: 1000\npullBatchSize: 7\n");
        ConnectionSettings connection = ConnectionSettings.of("127.0.0.1:9876");
        ProducerSettings producer = settings.producerSettings(connection, "g1");
        assertEquals(1000, producer.batchMaxBytes());
        assertTrue(producer.autoBatch());
        assertEquals("g1", producer.producerGroup());
        assertEquals(7, settings.consumerSettings(connection, "g2").pullBatchSize());
        assertEquals(ConsumeFrom.FIRST_OFFSET,
                settings.consumerSettings(connection, "g2").consumeFrom());
    }

    @Test
    void unknownOrMisspeltKeysAreNamed() {
        String message = failure("namesrvAddr: 127.0.0.1:9876\nbatchCq: true\nautobatch: true\n");
        assertTrue(message.startsWith("unknown driver key(s) [batchCq, autobatch]; known: [name, driverClass, "
                + "namesrvAddr, clusterName, batchCQ, autoBatch,"), message);
    }

    @Test
    void badValuesAreNamed() {
        assertEquals("namesrvAddr is required (host:port of a Sluice name server)", failure("clusterName: C\n"));
        assertEquals("batchCQ must be true or false, not 'yes please'",
                failure("namesrvAddr: 127.0.0.1:9876\nbatchCQ: yes please\n"));
        assertEquals("batchMaxBytes must be a whole number, not '32KB'",
                failure("namesrvAddr: 127.0.0.1:9876\nbatchMaxBytes: 32KB\n"));
        assertEquals("pullBatchSize must be a 32-bit whole number, not '4294967296'",
                failure("namesrvAddr: 127.0.0.1:9876\npullBatchSize: 4294967296\n"));
        assertEquals("maxInFlightMessages must be 0 (no bound) or positive, not -1",
                failure("namesrvAddr: 127.0.0.1:9876\nmaxInFlightMessages: -1\n"));
        assertEquals("clusterName has no value", failure("namesrvAddr: 127.0.0.1:9876\nclusterName:\n"));
        assertEquals("name server address must be host:port, was '127.0.0.1'", failure("namesrvAddr: 127.0.0.1\n"));
        assertEquals("a driver YAML is a map of keys, not '[a, b]'", failure("- a\n- b\n"));
    }

    @Test
    void theClientsOwnChecksRejectBadValuesUpFront() {
        assertTrue(failure("namesrvAddr: 127.0.0.1:9876\npullBatchSize: 0\n").contains("pullBatchSize"));
        assertTrue(failure("namesrvAddr: 127.0.0.1:9876\nbatchMaxDelayMs: 0\n").contains("batchMaxDelayMs"));
        assertTrue(failure("namesrvAddr: 127.0.0.1:9876\ntotalBatchMaxBytes: -5\n").contains("totalBatchMaxBytes"));
    }
}
