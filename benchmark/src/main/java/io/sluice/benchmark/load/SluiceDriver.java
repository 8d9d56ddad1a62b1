package io.sluice.benchmark.load;

import io.sluice.client.ConnectionSettings;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.ProducerSettings;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The Sluice client against a Sluice cluster: producers send asynchronously with auto-batching (32 KiB or 10 ms per
 * batch, the client's defaults). The Sluice client has no consumer yet, so consumers are the Apache 5.3 push
 * consumer (see {@link #settings()}). Thread-safe.
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
        settings.put("consumer", ApacheRocketMqDriver.consumerDescription()
                + " (the Sluice client has no consumer yet)");
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
    public BenchConsumer createConsumer(String topic, String subscription, Receiver receiver) throws Exception {
        return ApacheRocketMqDriver.pushConsumer(namesrvAddr, topic, subscription, receiver);
    }

    @Override
    public void close() {
        topics.close();
    }
}
