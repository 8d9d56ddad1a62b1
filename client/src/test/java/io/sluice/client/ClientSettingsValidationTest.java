package io.sluice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client's settings are validated once, when built, and each refusal names the setting and the value: every
 * bound of the producer, push and lite-pull settings, the connection settings and message building.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientSettingsValidationTest {

    private static final ConnectionSettings CONNECTION = new ConnectionSettings(List.of("127.0.0.1:9876"), "i",
            "127.0.0.1", 3000, 30_000, 30_000);

    /** Applies {@code change} to a fresh builder and expects {@code build} to refuse with {@code expected}. */
    private static <B> void refused(String expected, B builder, Consumer<B> change, Function<B, ?> build) {
        change.accept(builder);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build.apply(builder));
        assertEquals(expected, e.getMessage());
    }

    private static void refusedProducer(String expected, Consumer<ProducerSettings.Builder> change) {
        refused(expected, ProducerSettings.builder(CONNECTION), change, ProducerSettings.Builder::build);
    }

    private static void refusedPush(String expected, Consumer<PushSettings.Builder> change) {
        refused(expected, PushSettings.builder(CONNECTION, "g"), change, PushSettings.Builder::build);
    }

    private static void refusedLitePull(String expected, Consumer<LitePullSettings.Builder> change) {
        refused(expected, LitePullSettings.builder(CONNECTION, "g"), change, LitePullSettings.Builder::build);
    }

    @Test
    void producerBoundsNameTheSettingAndTheValue() {
        refusedProducer("sendTimeoutMs must be positive, was 0", b -> b.sendTimeoutMs(0));
        refusedProducer("retryTimesWhenSendFailed must not be negative, was -1", b -> b.retryTimesWhenSendFailed(-1));
        refusedProducer("maxMessageBytes must be positive, was 0", b -> b.maxMessageBytes(0));
        refusedProducer("batchMaxBytes must be positive, was -5", b -> b.batchMaxBytes(-5));
        refusedProducer("batchMaxBytes 2048 exceeds maxMessageBytes 1024",
                b -> b.maxMessageBytes(1024).batchMaxBytes(2048));
        refusedProducer("batchMaxDelayMs must be in [1, 30000], was 0", b -> b.batchMaxDelayMs(0));
        refusedProducer("batchMaxDelayMs must be in [1, 30000], was 30001", b -> b.batchMaxDelayMs(30_001));
        refusedProducer("totalBatchMaxBytes must be positive, was 0", b -> b.totalBatchMaxBytes(0));
        refusedProducer("totalBatchMaxBytes 1000 is smaller than batchMaxBytes 32768",
                b -> b.totalBatchMaxBytes(1000));
        refusedProducer("failedBrokerIsolationMs must not be negative, was -1", b -> b.failedBrokerIsolationMs(-1));
        refusedProducer("defaultTopicQueueNums must be positive, was 0", b -> b.defaultTopicQueueNums(0));
        refusedProducer("producerGroup must be 1..255 characters of [%|a-zA-Z0-9_-], was 'a b'",
                b -> b.producerGroup("a b"));
        refusedProducer("producerGroup must be 1..255 characters of [%|a-zA-Z0-9_-], was '" + "g".repeat(256) + "'",
                b -> b.producerGroup("g".repeat(256)));
    }

    @Test
    void theProducerEdgesAreAccepted() {
        ProducerSettings s = ProducerSettings.builder(CONNECTION).producerGroup("g".repeat(255)).sendTimeoutMs(1)
                .retryTimesWhenSendFailed(0).maxMessageBytes(1024).batchMaxBytes(1024).batchMaxDelayMs(30_000)
                .totalBatchMaxBytes(1024).failedBrokerIsolationMs(0).defaultTopicQueueNums(1).build();
        assertEquals(1024, s.batchMaxBytes());
        assertEquals(30_000, s.batchMaxDelayMs());
        assertEquals(1024, s.totalBatchMaxBytes());
    }

    @Test
    void pushConsumerBoundsNameTheSettingAndTheValue() {
        refusedPush("consumeThreads must be in [1, 1000], was 0", b -> b.consumeThreads(0));
        refusedPush("consumeThreads must be in [1, 1000], was 1001", b -> b.consumeThreads(1001));
        refusedPush("consumeBatchMaxSize must be in [1, 1024], was 1025", b -> b.consumeBatchMaxSize(1025));
        refusedPush("pullBatchSize must be in [1, 1024], was 0", b -> b.pullBatchSize(0));
        refusedPush("pullThresholdForQueue must be positive, was 0", b -> b.pullThresholdForQueue(0));
        refusedPush("pullThresholdSizeForQueueBytes must be positive, was 0",
                b -> b.pullThresholdSizeForQueueBytes(0));
        refusedPush("maxReconsumeTimes must be in [0, 10000], was -1", b -> b.maxReconsumeTimes(-1));
        refusedPush("offsetCommitIntervalMs must be positive, was 0", b -> b.offsetCommitIntervalMs(0));
        refusedPush("rebalanceIntervalMs must be positive, was 0", b -> b.rebalanceIntervalMs(0));
        refusedPush("longPollingSuspendMs must be in [1, 60000], was 60001", b -> b.longPollingSuspendMs(60_001));
        refusedPush("suspendCurrentQueueTimeMs must be positive, was 0", b -> b.suspendCurrentQueueTimeMs(0));
        refusedPush("lockRenewIntervalMs must be positive, was 0", b -> b.lockRenewIntervalMs(0));
        IllegalArgumentException group = assertThrows(IllegalArgumentException.class,
                () -> PushSettings.builder(CONNECTION, "").build());
        assertEquals("consumerGroup must be 1..255 characters of [%|a-zA-Z0-9_-], was ''", group.getMessage());
    }

    @Test
    void litePullBoundsNameTheSettingAndTheValue() {
        refusedLitePull("pullBatchSize must be in [1, 1024], was 1025", b -> b.pullBatchSize(1025));
        refusedLitePull("pullThresholdMessages must be positive, was 0", b -> b.pullThresholdMessages(0));
        refusedLitePull("autoCommitIntervalMs must be positive, was 0", b -> b.autoCommitIntervalMs(0));
        refusedLitePull("longPollingSuspendMs must be in [1, 60000], was 0", b -> b.longPollingSuspendMs(0));
        refusedLitePull("rebalanceIntervalMs must be positive, was -1", b -> b.rebalanceIntervalMs(-1));
    }

    @Property(tries = 200)
    void aRangeCheckAcceptsExactlyItsInterval(@ForAll @LongRange(min = -10, max = 70_000) long value) {
        boolean inRange = value >= 1 && value <= 60_000;
        PushSettings.Builder builder = PushSettings.builder(CONNECTION, "g").longPollingSuspendMs(value);
        if (inRange) {
            assertEquals(value, builder.build().longPollingSuspendMs());
        } else {
            assertThrows(IllegalArgumentException.class, builder::build);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "host", ":9876", "host:", "a:1;b"})
    void aNameServerAddressMustBeHostColonPort(String addresses) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionSettings.of(addresses));
        assertEquals("name server address must be host:port, was '"
                + (addresses.contains(";") ? "b" : addresses) + "'", e.getMessage());
    }

    @Test
    void connectionSettingsNameTheirBadValue() {
        IllegalArgumentException instance = assertThrows(IllegalArgumentException.class,
                () -> CONNECTION.withInstanceName("a@b"));
        assertEquals("instanceName must be non-empty without '@', was 'a@b'", instance.getMessage());
        IllegalArgumentException ip = assertThrows(IllegalArgumentException.class, () -> CONNECTION.withClientIp(""));
        assertEquals("clientIp must not be empty, was ''", ip.getMessage());
        IllegalArgumentException timeout = assertThrows(IllegalArgumentException.class,
                () -> CONNECTION.withRpcTimeoutMs(0));
        assertEquals("rpcTimeoutMs must be positive, was 0", timeout.getMessage());
        IllegalArgumentException heartbeat = assertThrows(IllegalArgumentException.class,
                () -> CONNECTION.withIntervals(1000, -1));
        assertEquals("heartbeatIntervalMs must be positive, was -1", heartbeat.getMessage());
        assertEquals(List.of("a:1", "b:2"), ConnectionSettings.of("a:1;b:2").namesrvAddresses());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "A||B", "A\u0001", "B\u0002"})
    void aTagIsOneNonEmptyTagWithoutSeparators(String tag) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Message.builder("T", new byte[1]).tags(tag));
        assertEquals("tags must be a single non-empty tag, was '" + tag + "'", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "k\u0001"})
    void keysAreNonBlankWithoutSeparators(String keys) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Message.builder("T", new byte[1]).keys(keys));
        assertEquals("keys must be non-blank without separators, was '" + keys + "'", e.getMessage());
    }

    @Test
    void aUserPropertyMayNotTakeAReservedNameOrASeparator() {
        Message.Builder builder = Message.builder("T", new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> builder.property("TAGS", "x"));
        assertThrows(IllegalArgumentException.class, () -> builder.property("UNIQ_KEY", "x"));
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
                () -> builder.property("color", "re\u0002d"));
        assertEquals("value of property 'color' contains 0x01 or 0x02", value.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> builder.property("color", ""));
        assertEquals("value of property 'color' must not be empty", empty.getMessage());
        assertEquals("red", builder.property("color", "red").build().properties().get("color"));
    }
}
