package io.sluice.client;

import java.util.Objects;

/**
 * Settings of a {@link PushConsumer}. Immutable; validated by {@link Builder#build()}, whose exception names the bad
 * value. Thread-safe.
 */
public final class PushSettings {
    private final ConnectionSettings connection;
    private final String consumerGroup;
    private final int consumeThreads;
    private final int consumeBatchMaxSize;
    private final int pullBatchSize;
    private final int pullThresholdForQueue;
    private final long pullThresholdSizeForQueueBytes;
    private final ConsumeFrom consumeFrom;
    private final long consumeTimestampMs;
    private final int maxReconsumeTimes;
    private final long offsetCommitIntervalMs;
    private final long rebalanceIntervalMs;
    private final long longPollingSuspendMs;
    private final long suspendCurrentQueueTimeMs;
    private final long lockRenewIntervalMs;

    private PushSettings(Builder b) {
        this.connection = Objects.requireNonNull(b.connection, "connection");
        this.consumerGroup = Checks.group("consumerGroup", b.consumerGroup);
        this.consumeThreads = (int) Checks.range("consumeThreads", b.consumeThreads, 1, 1000);
        this.consumeBatchMaxSize = (int) Checks.range("consumeBatchMaxSize", b.consumeBatchMaxSize, 1, 1024);
        this.pullBatchSize = (int) Checks.range("pullBatchSize", b.pullBatchSize, 1, 1024);
        this.pullThresholdForQueue = Checks.positive("pullThresholdForQueue", b.pullThresholdForQueue);
        this.pullThresholdSizeForQueueBytes = Checks.positive("pullThresholdSizeForQueueBytes",
                b.pullThresholdSizeForQueueBytes);
        this.consumeFrom = Objects.requireNonNull(b.consumeFrom, "consumeFrom");
        this.consumeTimestampMs = b.consumeTimestampMs;
        this.maxReconsumeTimes = (int) Checks.range("maxReconsumeTimes", b.maxReconsumeTimes, 0, 10_000);
        this.offsetCommitIntervalMs = Checks.positive("offsetCommitIntervalMs", b.offsetCommitIntervalMs);
        this.rebalanceIntervalMs = Checks.positive("rebalanceIntervalMs", b.rebalanceIntervalMs);
        this.longPollingSuspendMs = Checks.range("longPollingSuspendMs", b.longPollingSuspendMs, 1, 60_000);
        this.suspendCurrentQueueTimeMs = Checks.positive("suspendCurrentQueueTimeMs", b.suspendCurrentQueueTimeMs);
        this.lockRenewIntervalMs = Checks.positive("lockRenewIntervalMs", b.lockRenewIntervalMs);
    }

    /** A builder with every default for a consumer group and the given name servers ({@code ;}-separated). */
    public static Builder builder(String namesrvAddresses, String consumerGroup) {
        return new Builder(ConnectionSettings.of(namesrvAddresses), consumerGroup);
    }

    /** A builder with every default and these connection settings. */
    public static Builder builder(ConnectionSettings connection, String consumerGroup) {
        return new Builder(connection, consumerGroup);
    }

    public ConnectionSettings connection() {
        return connection;
    }

    public String consumerGroup() {
        return consumerGroup;
    }

    /** Threads that run the listener. Default 20. */
    public int consumeThreads() {
        return consumeThreads;
    }

    /** Most messages per listener call. Default 1. */
    public int consumeBatchMaxSize() {
        return consumeBatchMaxSize;
    }

    /** Most messages one pull asks for. Default 32. */
    public int pullBatchSize() {
        return pullBatchSize;
    }

    /** Flow control: a queue is not pulled while this many of its messages wait or are being consumed. 1000. */
    public int pullThresholdForQueue() {
        return pullThresholdForQueue;
    }

    /** Flow control: a queue is not pulled while its waiting messages hold this many body bytes. 100 MiB. */
    public long pullThresholdSizeForQueueBytes() {
        return pullThresholdSizeForQueueBytes;
    }

    /** Where to start on a queue without a committed offset. Default {@link ConsumeFrom#LAST_OFFSET}. */
    public ConsumeFrom consumeFrom() {
        return consumeFrom;
    }

    /** The start time for {@link ConsumeFrom#TIMESTAMP}; default 30 minutes before the settings were built. */
    public long consumeTimestampMs() {
        return consumeTimestampMs;
    }

    /** Deliveries of a message before the broker moves it to the dead-letter topic. Default 16. */
    public int maxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    /** Period of the offset commit (it also happens on queue removal and at close). Default 5000 ms. */
    public long offsetCommitIntervalMs() {
        return offsetCommitIntervalMs;
    }

    /** Period of the group rebalance. Default 20000 ms. */
    public long rebalanceIntervalMs() {
        return rebalanceIntervalMs;
    }

    /** How long the broker may hold a pull that finds nothing. Default 15000 ms. */
    public long longPollingSuspendMs() {
        return longPollingSuspendMs;
    }

    /** Orderly consumption: the pause before messages an orderly listener suspended are offered again. 1000 ms. */
    public long suspendCurrentQueueTimeMs() {
        return suspendCurrentQueueTimeMs;
    }

    /** Orderly consumption: period of the queue lock renewal. Default 20000 ms. */
    public long lockRenewIntervalMs() {
        return lockRenewIntervalMs;
    }

    /** Builds {@link PushSettings}. Not thread-safe. */
    public static final class Builder {
        private ConnectionSettings connection;
        private final String consumerGroup;
        private int consumeThreads = 20;
        private int consumeBatchMaxSize = 1;
        private int pullBatchSize = 32;
        private int pullThresholdForQueue = 1000;
        private long pullThresholdSizeForQueueBytes = 100L * 1024 * 1024;
        private ConsumeFrom consumeFrom = ConsumeFrom.LAST_OFFSET;
        private long consumeTimestampMs = System.currentTimeMillis() - 30 * 60 * 1000;
        private int maxReconsumeTimes = 16;
        private long offsetCommitIntervalMs = 5000;
        private long rebalanceIntervalMs = 20_000;
        private long longPollingSuspendMs = 15_000;
        private long suspendCurrentQueueTimeMs = 1000;
        private long lockRenewIntervalMs = 20_000;

        private Builder(ConnectionSettings connection, String consumerGroup) {
            this.connection = connection;
            this.consumerGroup = consumerGroup;
        }

        public Builder connection(ConnectionSettings value) {
            this.connection = value;
            return this;
        }

        public Builder consumeThreads(int value) {
            this.consumeThreads = value;
            return this;
        }

        public Builder consumeBatchMaxSize(int value) {
            this.consumeBatchMaxSize = value;
            return this;
        }

        public Builder pullBatchSize(int value) {
            this.pullBatchSize = value;
            return this;
        }

        public Builder pullThresholdForQueue(int value) {
            this.pullThresholdForQueue = value;
            return this;
        }

        public Builder pullThresholdSizeForQueueBytes(long value) {
            this.pullThresholdSizeForQueueBytes = value;
            return this;
        }

        public Builder consumeFrom(ConsumeFrom value) {
            this.consumeFrom = value;
            return this;
        }

        public Builder consumeTimestampMs(long value) {
            this.consumeTimestampMs = value;
            return this;
        }

        public Builder maxReconsumeTimes(int value) {
            this.maxReconsumeTimes = value;
            return this;
        }

        public Builder offsetCommitIntervalMs(long value) {
            this.offsetCommitIntervalMs = value;
            return this;
        }

        public Builder rebalanceIntervalMs(long value) {
            this.rebalanceIntervalMs = value;
            return this;
        }

        public Builder longPollingSuspendMs(long value) {
            this.longPollingSuspendMs = value;
            return this;
        }

        public Builder suspendCurrentQueueTimeMs(long value) {
            this.suspendCurrentQueueTimeMs = value;
            return this;
        }

        public Builder lockRenewIntervalMs(long value) {
            this.lockRenewIntervalMs = value;
            return this;
        }

        /** Validates and builds; the exception names the first bad value. */
        public PushSettings build() {
            return new PushSettings(this);
        }
    }
}
