package io.sluice.benchmark.load;

import io.sluice.client.ConnectionSettings;
import io.sluice.client.ConsumeFrom;
import io.sluice.client.ConsumeStatus;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.PushConsumer;
import io.sluice.client.PushSettings;
import io.sluice.client.ReceivedMessage;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The Sluice client against a Sluice cluster: producers send asynchronously with auto-batching (32 KiB or 10 ms per
 * batch, the client's defaults); consumers are {@link PushConsumer}s starting from the first offset, with the same
 * pull batch (32) and consume threads (20) as the Apache push consumer of the other RocketMQ drivers.
 * Thread-safe.
 */
final class SluiceDriver implements Driver {

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
        settings.put("producer", "Producer.sendAsync, autoBatch=true (batchMaxBytes "
                + ProducerSettings.DEFAULT_BATCH_MAX_BYTES + " B, batchMaxDelayMs "
                + ProducerSettings.DEFAULT_BATCH_MAX_DELAY_MS + ")");
        settings.put("consumer", "PushConsumer, FIRST_OFFSET, pullBatchSize 32, consumeBatchMaxSize 32, "
                + "20 consume threads");
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
        PushConsumer consumer = PushConsumer.create(PushSettings.builder(connection, subscription)
                .consumeFrom(ConsumeFrom.FIRST_OFFSET).pullBatchSize(32).consumeBatchMaxSize(32).consumeThreads(20)
                .build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            for (ReceivedMessage message : messages) {
                receiver.received(message.body());
            }
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        try {
            AssignmentWait.await("push consumer of " + topic, () -> (int) consumer.assignment().stream()
                    .filter(queue -> queue.topic().equals(topic)).count(), minQueues);
        } catch (InterruptedException | RuntimeException e) {
            consumer.close();
            throw e;
        }
        return consumer::close;
    }

    @Override
    public void close() {
        topics.close();
    }
}
