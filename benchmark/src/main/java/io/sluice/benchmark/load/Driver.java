package io.sluice.benchmark.load;

import java.util.Map;

/**
 * The client side of one system under test: creates topics, producers and consumers. Implementations are
 * thread-safe; the harness owns the driver and closes it after the run (closing producers and consumers first).
 */
interface Driver extends AutoCloseable {

    /** The settings key naming the client library's version (charts and legends name it). */
    String CLIENT_VERSION = "clientVersion";

    /**
     * The settings that matter for comparison (acks, linger, batching, queue type...) and the client's version
     * under {@link #CLIENT_VERSION}, written into the result.
     */
    Map<String, String> settings();

    /** Creates a topic with {@code partitions} partitions (queues) and returns once clients can use it. */
    void createTopic(String topic, int partitions) throws Exception;

    /** A producer for {@code topic}. */
    BenchProducer createProducer(String topic) throws Exception;

    /** Longest wait for a new consumer's first assignment (a 10,000-queue rebalance takes a while). */
    long ASSIGNMENT_TIMEOUT_SECONDS = 120;

    /**
     * A consumer of {@code topic} in group {@code subscription}, starting from the earliest stored message when the
     * group is new; {@code receiver} is told of every message. Returns once the consumer owns at least
     * {@code minQueues} queues (its share of the topic), as OMB waits for consumers to be ready before it produces:
     * otherwise a slow first rebalance (two calls per queue for the Apache push consumer) is counted as backlog.
     *
     * @throws IllegalStateException if the consumer does not get {@code minQueues} queues within
     *                               {@link #ASSIGNMENT_TIMEOUT_SECONDS}
     */
    BenchConsumer createConsumer(String topic, String subscription, int minQueues, Receiver receiver)
            throws Exception;

    @Override
    void close() throws Exception;

    /** Sends messages; thread-safe. */
    interface BenchProducer extends AutoCloseable {

        /** Sends {@code body} asynchronously; {@code outcome} is told the result exactly once. */
        void send(byte[] body, Outcome outcome);

        @Override
        void close() throws Exception;
    }

    /** Receives messages until closed. */
    interface BenchConsumer extends AutoCloseable {

        @Override
        void close() throws Exception;
    }

    /** The result of one send; called on a client thread, must not block. */
    interface Outcome {

        /** The message was stored ({@code error} null) or the send failed. */
        void completed(Throwable error);
    }

    /** Told each received message; called on client threads, must not block. */
    interface Receiver {

        /**
         * @param bodyBytes       the body's size
         * @param bornTimestampMs the producer client's wall clock when it sent the message (RocketMQ's born
         *                        timestamp, Kafka's CreateTime): OMB measures end-to-end latency from it
         */
        void received(int bodyBytes, long bornTimestampMs);
    }
}
