package io.sluice.client;

import java.util.Objects;

/**
 * Settings of a {@link Producer}. Immutable; built and validated once by {@link Builder#build()}, whose exception
 * names the bad value. Thread-safe.
 */
public final class ProducerSettings {
    /** Default largest message body, as the broker's default {@code maxMessageSize}: 4 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
    /** Default size at which an auto-batch leaves: 32 KiB. */
    public static final int DEFAULT_BATCH_MAX_BYTES = 32 * 1024;
    /** Default time after which an auto-batch leaves: 10 ms. */
    public static final long DEFAULT_BATCH_MAX_DELAY_MS = 10;
    /** Default bound on the bytes held by auto-batching (open and in-flight batches): 32 MiB. */
    public static final long DEFAULT_TOTAL_BATCH_MAX_BYTES = 32L * 1024 * 1024;
    /** Longest accepted {@code batchMaxDelayMs}: 30 s. */
    public static final long MAX_BATCH_MAX_DELAY_MS = 30_000;

    private final ConnectionSettings connection;
    private final String producerGroup;
    private final long sendTimeoutMs;
    private final int retryTimesWhenSendFailed;
    private final int maxMessageBytes;
    private final boolean autoBatch;
    private final int batchMaxBytes;
    private final long batchMaxDelayMs;
    private final long totalBatchMaxBytes;
    private final boolean failWhenBatchMemoryFull;
    private final long failedBrokerIsolationMs;
    private final int defaultTopicQueueNums;

    private ProducerSettings(Builder b) {
        this.connection = Objects.requireNonNull(b.connection, "connection");
        this.producerGroup = Checks.group("producerGroup", b.producerGroup);
        this.sendTimeoutMs = Checks.positive("sendTimeoutMs", b.sendTimeoutMs);
        this.retryTimesWhenSendFailed = Checks.notNegative("retryTimesWhenSendFailed", b.retryTimesWhenSendFailed);
        this.maxMessageBytes = Checks.positive("maxMessageBytes", b.maxMessageBytes);
        this.autoBatch = b.autoBatch;
        this.batchMaxBytes = Checks.positive("batchMaxBytes", b.batchMaxBytes);
        if (batchMaxBytes > maxMessageBytes) {
            throw new IllegalArgumentException("batchMaxBytes " + batchMaxBytes + " exceeds maxMessageBytes "
                    + maxMessageBytes);
        }
        this.batchMaxDelayMs = Checks.range("batchMaxDelayMs", b.batchMaxDelayMs, 1, MAX_BATCH_MAX_DELAY_MS);
        this.totalBatchMaxBytes = Checks.positive("totalBatchMaxBytes", b.totalBatchMaxBytes);
        if (totalBatchMaxBytes < batchMaxBytes) {
            throw new IllegalArgumentException("totalBatchMaxBytes " + totalBatchMaxBytes
                    + " is smaller than batchMaxBytes " + batchMaxBytes);
        }
        this.failWhenBatchMemoryFull = b.failWhenBatchMemoryFull;
        this.failedBrokerIsolationMs = Checks.notNegative("failedBrokerIsolationMs", b.failedBrokerIsolationMs);
        this.defaultTopicQueueNums = Checks.positive("defaultTopicQueueNums", b.defaultTopicQueueNums);
    }

    /** A builder with every default, for the given name servers ({@code host:port}, {@code ;}-separated). */
    public static Builder builder(String namesrvAddresses) {
        return new Builder(ConnectionSettings.of(namesrvAddresses));
    }

    /** A builder with every default and these connection settings. */
    public static Builder builder(ConnectionSettings connection) {
        return new Builder(connection);
    }

    /** How the producer reaches the cluster. */
    public ConnectionSettings connection() {
        return connection;
    }

    /** The producer group, reported in heartbeats and send headers. Default {@code DEFAULT_PRODUCER}. */
    public String producerGroup() {
        return producerGroup;
    }

    /** Budget of one send, retries included. Default 3000 ms. */
    public long sendTimeoutMs() {
        return sendTimeoutMs;
    }

    /** Extra attempts after a failed send (on another broker when there is one). Default 2. */
    public int retryTimesWhenSendFailed() {
        return retryTimesWhenSendFailed;
    }

    /** Largest message body, and largest batch body. Default 4 MiB. */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /** Whether single sends are grouped into batches. Default false. */
    public boolean autoBatch() {
        return autoBatch;
    }

    /**
     * An auto-batch leaves as soon as its messages' bodies reach this many bytes (bodies only, as Apache's
     * producer counts; the request is larger by each message's header and properties). Default 32 KiB.
     */
    public int batchMaxBytes() {
        return batchMaxBytes;
    }

    /** An auto-batch leaves at the latest this long after its first message. Default 10 ms. */
    public long batchMaxDelayMs() {
        return batchMaxDelayMs;
    }

    /** Bound on the encoded bytes of open and in-flight auto-batches. Default 32 MiB. */
    public long totalBatchMaxBytes() {
        return totalBatchMaxBytes;
    }

    /**
     * What a sender does when {@link #totalBatchMaxBytes()} is held: false (default) blocks until memory is given
     * back or the send timeout passes; true fails at once.
     */
    public boolean failWhenBatchMemoryFull() {
        return failWhenBatchMemoryFull;
    }

    /** How long a broker that failed a send is avoided when another one can take the send; 0 = never. Default 10 s. */
    public long failedBrokerIsolationMs() {
        return failedBrokerIsolationMs;
    }

    /** Queues a broker creates for a topic auto-created by a send (through {@code TBW102}). Default 4. */
    public int defaultTopicQueueNums() {
        return defaultTopicQueueNums;
    }

    /** Builds {@link ProducerSettings}. Not thread-safe. */
    public static final class Builder {
        private ConnectionSettings connection;
        private String producerGroup = "DEFAULT_PRODUCER";
        private long sendTimeoutMs = 3000;
        private int retryTimesWhenSendFailed = 2;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private boolean autoBatch;
        private int batchMaxBytes = DEFAULT_BATCH_MAX_BYTES;
        private long batchMaxDelayMs = DEFAULT_BATCH_MAX_DELAY_MS;
        private long totalBatchMaxBytes = DEFAULT_TOTAL_BATCH_MAX_BYTES;
        private boolean failWhenBatchMemoryFull;
        private long failedBrokerIsolationMs = 10_000;
        private int defaultTopicQueueNums = 4;

        private Builder(ConnectionSettings connection) {
            this.connection = connection;
        }

        public Builder connection(ConnectionSettings value) {
            this.connection = value;
            return this;
        }

        public Builder producerGroup(String value) {
            this.producerGroup = value;
            return this;
        }

        public Builder sendTimeoutMs(long value) {
            this.sendTimeoutMs = value;
            return this;
        }

        public Builder retryTimesWhenSendFailed(int value) {
            this.retryTimesWhenSendFailed = value;
            return this;
        }

        public Builder maxMessageBytes(int value) {
            this.maxMessageBytes = value;
            return this;
        }

        public Builder autoBatch(boolean value) {
            this.autoBatch = value;
            return this;
        }

        public Builder batchMaxBytes(int value) {
            this.batchMaxBytes = value;
            return this;
        }

        public Builder batchMaxDelayMs(long value) {
            this.batchMaxDelayMs = value;
            return this;
        }

        public Builder totalBatchMaxBytes(long value) {
            this.totalBatchMaxBytes = value;
            return this;
        }

        public Builder failWhenBatchMemoryFull(boolean value) {
            this.failWhenBatchMemoryFull = value;
            return this;
        }

        public Builder failedBrokerIsolationMs(long value) {
            this.failedBrokerIsolationMs = value;
            return this;
        }

        public Builder defaultTopicQueueNums(int value) {
            this.defaultTopicQueueNums = value;
            return this;
        }

        /** Validates and builds; the exception names the first bad value. */
        public ProducerSettings build() {
            return new ProducerSettings(this);
        }
    }
}
