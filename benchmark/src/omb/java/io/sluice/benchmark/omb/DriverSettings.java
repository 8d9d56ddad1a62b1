package io.sluice.benchmark.omb;

import io.sluice.client.ConnectionSettings;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.LitePullSettings;
import io.sluice.client.ProducerSettings;
import io.sluice.format.ConsumeQueueType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The driver YAML's settings. Immutable; validated once on construction, where a bad value fails with an
 * {@link IllegalArgumentException} naming its key (the client's own checks name the same keys, since the YAML uses
 * the client's setting names).
 *
 * @param namesrvAddr          name servers, {@code host:port}, {@code ;}-separated
 * @param clusterName          the cluster whose masters get the benchmark's topics
 * @param batchCQ              topics are BatchCQ (one index slot per auto-batch) rather than SimpleCQ
 * @param autoBatch            the producer groups single sends into batches
 * @param batchMaxBytes        an auto-batch leaves once its bodies reach this many bytes
 * @param batchMaxDelayMs      an auto-batch leaves at the latest this long after its first message
 * @param totalBatchMaxBytes   the producer's back-pressure: sends block while batches hold this many bytes
 * @param maxInFlightMessages  sends block while this many messages await their result; 0 = no such bound
 * @param pullBatchSize        most messages one pull asks for
 * @param pullThresholdMessages pulling pauses while this many pulled messages wait for the poll loop
 */
record DriverSettings(String namesrvAddr, String clusterName, boolean batchCQ, boolean autoBatch, int batchMaxBytes,
                      long batchMaxDelayMs, long totalBatchMaxBytes, int maxInFlightMessages, int pullBatchSize,
                      int pullThresholdMessages) {
    static final String DEFAULT_CLUSTER = "DefaultCluster";
    /**
     * Larger than the client's 32 KiB default, as OMB's Kafka driver sets batch.size to 1 MiB: fewer sends and index
     * slots per message, and one batch fills the broker's default 256 KiB pull.
     */
    static final int DEFAULT_BATCH_MAX_BYTES = 256 * 1024;
    /** The broker's default maxTransferCountOnMessageInMemory: by default a pull gets no more messages. */
    static final int DEFAULT_PULL_BATCH_SIZE = 1024;
    static final int DEFAULT_PULL_THRESHOLD_MESSAGES = 10_000;

    /** Validates every value; the client's settings are built once here so that its checks run at start-up. */
    DriverSettings(String namesrvAddr, String clusterName, boolean batchCQ, boolean autoBatch, int batchMaxBytes,
                   long batchMaxDelayMs, long totalBatchMaxBytes, int maxInFlightMessages, int pullBatchSize,
                   int pullThresholdMessages) {
        if (namesrvAddr == null || namesrvAddr.isBlank()) {
            throw new IllegalArgumentException("namesrvAddr is required (host:port of a Sluice name server)");
        }
        if (clusterName == null || clusterName.isBlank()) {
            throw new IllegalArgumentException("clusterName must not be empty");
        }
        if (maxInFlightMessages < 0) {
            throw new IllegalArgumentException("maxInFlightMessages must be 0 (no bound) or positive, not "
                    + maxInFlightMessages);
        }
        this.namesrvAddr = namesrvAddr;
        this.clusterName = clusterName;
        this.batchCQ = batchCQ;
        this.autoBatch = autoBatch;
        this.batchMaxBytes = batchMaxBytes;
        this.batchMaxDelayMs = batchMaxDelayMs;
        this.totalBatchMaxBytes = totalBatchMaxBytes;
        this.maxInFlightMessages = maxInFlightMessages;
        this.pullBatchSize = pullBatchSize;
        this.pullThresholdMessages = pullThresholdMessages;
        ConnectionSettings connection = ConnectionSettings.of(namesrvAddr);
        producerSettings(connection, "validation");
        consumerSettings(connection, "validation");
    }

    /**
     * Reads a driver YAML: a flat map of keys ({@code name} and {@code driverClass} are OMB's and skipped). Parsed
     * with SnakeYAML's safe constructor (plain maps, lists and scalars only), which OMB's classpath has.
     */
    static DriverSettings parse(String yamlText) {
        Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlText);
        if (!(document instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("a driver YAML is a map of keys, not '" + document + "'");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        map.forEach((key, value) -> values.put(String.valueOf(key), value));
        YamlKeys keys = new YamlKeys(values);
        keys.skip("name", "driverClass");
        DriverSettings settings = new DriverSettings(
                keys.text("namesrvAddr", null),
                keys.text("clusterName", DEFAULT_CLUSTER),
                keys.flag("batchCQ", true),
                keys.flag("autoBatch", true),
                keys.smallNumber("batchMaxBytes", DEFAULT_BATCH_MAX_BYTES),
                keys.number("batchMaxDelayMs", ProducerSettings.DEFAULT_BATCH_MAX_DELAY_MS),
                keys.number("totalBatchMaxBytes", ProducerSettings.DEFAULT_TOTAL_BATCH_MAX_BYTES),
                keys.smallNumber("maxInFlightMessages", 0),
                keys.smallNumber("pullBatchSize", DEFAULT_PULL_BATCH_SIZE),
                keys.smallNumber("pullThresholdMessages", DEFAULT_PULL_THRESHOLD_MESSAGES));
        keys.requireAllRead();
        return settings;
    }

    ConsumeQueueType queueType() {
        return batchCQ ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE;
    }

    ProducerSettings producerSettings(ConnectionSettings connection, String producerGroup) {
        return ProducerSettings.builder(connection)
                .producerGroup(producerGroup)
                .autoBatch(autoBatch)
                .batchMaxBytes(batchMaxBytes)
                .batchMaxDelayMs(batchMaxDelayMs)
                .totalBatchMaxBytes(totalBatchMaxBytes)
                .build();
    }

    /** Consumers start at the first offset: every run makes new topics, so nothing older is read. */
    LitePullSettings consumerSettings(ConnectionSettings connection, String consumerGroup) {
        return LitePullSettings.builder(connection, consumerGroup)
                .consumeFrom(ConsumeFrom.FIRST_OFFSET)
                .pullBatchSize(pullBatchSize)
                .pullThresholdMessages(pullThresholdMessages)
                .build();
    }
}
