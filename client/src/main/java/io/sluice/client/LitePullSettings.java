package io.sluice.client;

import java.util.Objects;

/**
 * Settings of a {@link LitePullConsumer}. Immutable; validated by {@link Builder#build()}, whose exception names the
 * bad value. Thread-safe.
 */
public final class LitePullSettings {
    private final ConnectionSettings connection;
    private final String consumerGroup;
    private final int pullBatchSize;
    private final int pullThresholdMessages;
    private final boolean autoCommit;
    private final long autoCommitIntervalMs;
    private final ConsumeFrom consumeFrom;
    private final long consumeTimestampMs;
    private final long longPollingSuspendMs;
    private final long rebalanceIntervalMs;

    private LitePullSettings(Builder b) {
        this.connection = Objects.requireNonNull(b.connection, "connection");
        this.consumerGroup = Checks.group("consumerGroup", b.consumerGroup);
        this.pullBatchSize = (int) Checks.range("pullBatchSize", b.pullBatchSize, 1, 1024);
        this.pullThresholdMessages = Checks.positive("pullThresholdMessages", b.pullThresholdMessages);
        this.autoCommit = b.autoCommit;
        this.autoCommitIntervalMs = Checks.positive("autoCommitIntervalMs", b.autoCommitIntervalMs);
        this.consumeFrom = Objects.requireNonNull(b.consumeFrom, "consumeFrom");
        this.consumeTimestampMs = b.consumeTimestampMs;
        this.longPollingSuspendMs = Checks.range("longPollingSuspendMs", b.longPollingSuspendMs, 1, 60_000);
        this.rebalanceIntervalMs = Checks.positive("rebalanceIntervalMs", b.rebalanceIntervalMs);
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

    /** The consumer group whose offsets are read and committed. */
    public String consumerGroup() {
        return consumerGroup;
    }

    /** Most messages one pull asks for. Default 10. */
    public int pullBatchSize() {
        return pullBatchSize;
    }

    /** Pulling pauses while this many pulled messages wait for {@code poll}. Default 10000. */
    public int pullThresholdMessages() {
        return pullThresholdMessages;
    }

    /** Whether {@code poll} commits the consumed offsets every {@link #autoCommitIntervalMs()}. Default true. */
    public boolean autoCommit() {
        return autoCommit;
    }

    /** Default 5000 ms. */
    public long autoCommitIntervalMs() {
        return autoCommitIntervalMs;
    }

    /** Where to start on a queue without a committed offset. Default {@link ConsumeFrom#LAST_OFFSET}. */
    public ConsumeFrom consumeFrom() {
        return consumeFrom;
    }

    /** The start time for {@link ConsumeFrom#TIMESTAMP}; default 30 minutes before the consumer was built. */
    public long consumeTimestampMs() {
        return consumeTimestampMs;
    }

    /** How long the broker may hold a pull that finds nothing. Default 20000 ms. */
    public long longPollingSuspendMs() {
        return longPollingSuspendMs;
    }

    /** Period of the group rebalance in subscribe mode. Default 20000 ms. */
    public long rebalanceIntervalMs() {
        return rebalanceIntervalMs;
    }

    /** Builds {@link LitePullSettings}. Not thread-safe. */
    public static final class Builder {
        private ConnectionSettings connection;
        private String consumerGroup;
        private int pullBatchSize = 10;
        private int pullThresholdMessages = 10_000;
        private boolean autoCommit = true;
        private long autoCommitIntervalMs = 5000;
        private ConsumeFrom consumeFrom = ConsumeFrom.LAST_OFFSET;
        private long consumeTimestampMs = System.currentTimeMillis() - 30 * 60 * 1000;
        private long longPollingSuspendMs = 20_000;
        private long rebalanceIntervalMs = 20_000;

        private Builder(ConnectionSettings connection, String consumerGroup) {
            this.connection = connection;
            this.consumerGroup = consumerGroup;
        }

        public Builder connection(ConnectionSettings value) {
            this.connection = value;
            return this;
        }

        public Builder pullBatchSize(int value) {
            this.pullBatchSize = value;
            return this;
        }

        public Builder pullThresholdMessages(int value) {
            this.pullThresholdMessages = value;
            return this;
        }

        public Builder autoCommit(boolean value) {
            this.autoCommit = value;
            return this;
        }

        public Builder autoCommitIntervalMs(long value) {
            this.autoCommitIntervalMs = value;
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

        public Builder longPollingSuspendMs(long value) {
            this.longPollingSuspendMs = value;
            return this;
        }

        public Builder rebalanceIntervalMs(long value) {
            this.rebalanceIntervalMs = value;
            return this;
        }

        /** Validates and builds; the exception names the first bad value. */
        public LitePullSettings build() {
            return new LitePullSettings(this);
        }
    }
}
