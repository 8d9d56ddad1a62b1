package io.sluice.benchmark.load;

import io.sluice.client.ConnectionSettings;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.LitePullConsumer;
import io.sluice.client.LitePullSettings;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.ReceivedMessage;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Sluice client against a Sluice cluster, configured as the project's OMB driver with its shipped driver file
 * ({@code benchmark/src/omb/sluice-native.yaml}), so that {@code bench --system sluice} and
 * {@code run.sh sluice-native} measure the same client: producers send asynchronously with auto-batching (32 KiB or
 * 10 ms per batch; sends block while batches hold 32 MiB, the client's back-pressure); consumers are
 * {@link LitePullConsumer}s from the first offset, pulls of up to {@value #PULL_BATCH_SIZE} messages, pulling paused
 * while {@value #PULL_THRESHOLD_MESSAGES} wait, one poll thread each. Thread-safe.
 */
final class SluiceDriver implements Driver {

    /** Messages one pull asks for (the OMB driver file's {@code pullBatchSize}). */
    static final int PULL_BATCH_SIZE = 1024;
    /** Pulled messages that may wait for the poll thread (the OMB driver file's {@code pullThresholdMessages}). */
    static final int PULL_THRESHOLD_MESSAGES = 10_000;
    /** How long one poll waits; it bounds how late the poll thread sees the consumer's close. */
    private static final long POLL_TIMEOUT_MS = 100;

    private final String namesrvAddr;
    private final RocketMqTopics topics;

    SluiceDriver(String namesrvAddr, String brokerAddr, boolean batchCq) {
        this.namesrvAddr = namesrvAddr;
        this.topics = new RocketMqTopics(namesrvAddr, brokerAddr, batchCq);
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client", "Sluice Java client (io.sluice.client)");
        settings.put(CLIENT_VERSION, Environment.sluiceVersion());
        settings.put("producer", "Producer.sendAsync, autoBatch=true (batchMaxBytes "
                + ProducerSettings.DEFAULT_BATCH_MAX_BYTES + " B, batchMaxDelayMs "
                + ProducerSettings.DEFAULT_BATCH_MAX_DELAY_MS + ", totalBatchMaxBytes "
                + ProducerSettings.DEFAULT_TOTAL_BATCH_MAX_BYTES + " B)");
        settings.put("consumer", "LitePullConsumer, FIRST_OFFSET, pullBatchSize " + PULL_BATCH_SIZE
                + ", pullThresholdMessages " + PULL_THRESHOLD_MESSAGES + ", one poll thread (as sluice-native.yaml)");
        settings.put("queueType", topics.queueType());
        return settings;
    }

    @Override
    public void createTopic(String topic, int partitions) {
        topics.create(topic, partitions);
    }

    @Override
    public BenchProducer createProducer(String topic) {
        ConnectionSettings connection = ConnectionSettings.of(namesrvAddr).withClientIp("127.0.0.1")
                .withInstanceName("bench-" + UUID.randomUUID());
        Producer producer = Producer.start(ProducerSettings.builder(connection)
                .producerGroup("bench-producer").autoBatch(true).sendTimeoutMs(10_000).build());
        return new BenchProducer() {
            @Override
            public void send(byte[] body, Outcome outcome) {
                producer.sendAsync(Message.of(topic, body), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        outcome.completed(null);
                    }

                    @Override
                    public void onException(Throwable error) {
                        outcome.completed(error);
                    }
                });
            }

            @Override
            public void close() {
                producer.close();
            }
        };
    }

    @Override
    public BenchConsumer createConsumer(String topic, String subscription, int minQueues, Receiver receiver)
            throws InterruptedException {
        ConnectionSettings connection = ConnectionSettings.of(namesrvAddr).withClientIp("127.0.0.1")
                .withInstanceName("bench-" + UUID.randomUUID());
        LitePullConsumer consumer = LitePullConsumer.start(LitePullSettings.builder(connection, subscription)
                .consumeFrom(ConsumeFrom.FIRST_OFFSET).pullBatchSize(PULL_BATCH_SIZE)
                .pullThresholdMessages(PULL_THRESHOLD_MESSAGES).build());
        try {
            consumer.subscribe(topic, "*");
            AssignmentWait.await("lite pull consumer of " + topic, () -> (int) consumer.assignment().stream()
                    .filter(queue -> queue.topic().equals(topic)).count(), minQueues);
        } catch (InterruptedException | RuntimeException e) {
            consumer.close();
            throw e;
        }
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        // The poll thread is the consumer's only caller of poll until close.
        Thread poller = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    List<ReceivedMessage> messages = consumer.poll(POLL_TIMEOUT_MS);
                    for (int i = 0; i < messages.size(); i++) {
                        ReceivedMessage message = messages.get(i);
                        receiver.received(message.body().length, message.bornTimestampMs());
                    }
                }
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }, "bench-sluice-poll-" + subscription);
        poller.setDaemon(true);
        poller.start();
        return () -> {
            poller.interrupt();
            poller.join(TimeUnit.SECONDS.toMillis(30));
            consumer.close();
            if (failure.get() != null) {
                throw new IllegalStateException("lite pull consumer of " + topic + " failed", failure.get());
            }
        };
    }

    @Override
    public void close() {
        topics.close();
    }
}
