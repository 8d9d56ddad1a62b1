package io.sluice.benchmark.load;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The Kafka Java client. Producer: {@code acks=1} (the leader's append; with one replica the same durability as
 * RocketMQ's ASYNC_FLUSH master), {@code linger.ms=1}, {@code batch.size=131072}, no compression, no idempotence.
 * Consumer: one polling thread per consumer, {@code auto.offset.reset=earliest}, auto-commit; created once it has
 * joined its group and been assigned partitions. Topics have one
 * replica; more than 5,000 partitions are added in steps, since KRaft takes at most 10,000 records per request.
 * Thread-safe.
 */
final class KafkaDriver implements Driver {

    private static final int PARTITIONS_PER_REQUEST = 5_000;

    private final String bootstrap;
    private final Admin admin;

    KafkaDriver(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        this.admin = Admin.create(properties);
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client", "Kafka Java client (kafka-clients) " + AppInfoParser.getVersion());
        settings.put("producer", "acks=1, linger.ms=1, batch.size=131072, compression.type=none, "
                + "enable.idempotence=false");
        settings.put("consumer", "KafkaConsumer poll loop, auto.offset.reset=earliest, enable.auto.commit=true, "
                + "max.poll.records=1000");
        settings.put("replicationFactor", "1");
        return settings;
    }

    @Override
    public void createTopic(String topic, int partitions) throws Exception {
        int first = Math.min(partitions, PARTITIONS_PER_REQUEST);
        admin.createTopics(List.of(new NewTopic(topic, first, (short) 1))).all().get(2, TimeUnit.MINUTES);
        for (int count = first; count < partitions; ) {
            count = Math.min(partitions, count + PARTITIONS_PER_REQUEST);
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(count))).all().get(2, TimeUnit.MINUTES);
        }
    }

    @Override
    public BenchProducer createProducer(String topic) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.ACKS_CONFIG, "1");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 131_072);
        properties.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256L * 1024 * 1024);
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-" + UUID.randomUUID());
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer());
        return new BenchProducer() {
            @Override
            public void send(byte[] body, Outcome outcome) {
                producer.send(new ProducerRecord<>(topic, body), (metadata, error) -> outcome.completed(error));
            }

            @Override
            public void close() {
                producer.close(Duration.ofSeconds(30));
            }
        };
    }

    @Override
    public BenchConsumer createConsumer(String topic, String subscription, int minQueues, Receiver receiver) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, subscription);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-" + UUID.randomUUID());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        // Join the group before producers start, as the RocketMQ consumers do in start(): poll until partitions are
        // assigned. Nothing is produced yet, so these polls return no records.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ASSIGNMENT_TIMEOUT_SECONDS);
        while (consumer.assignment().size() < Math.max(1, minQueues)) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                receiver.received(record.value());
            }
            if (System.nanoTime() - deadline > 0) {
                consumer.close(Duration.ofSeconds(10));
                throw new IllegalStateException("kafka consumer of " + topic + " got " + consumer.assignment().size()
                        + " of at least " + minQueues + " partitions within " + ASSIGNMENT_TIMEOUT_SECONDS + " s");
            }
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        // The poll thread owns the consumer from here on (KafkaConsumer is single-threaded).
        Thread poller = new Thread(() -> {
            try {
                while (running.get()) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        receiver.received(record.value());
                    }
                }
            } catch (RuntimeException e) {
                failure.set(e);
            } finally {
                consumer.close(Duration.ofSeconds(10));
            }
        }, "bench-kafka-consumer-" + subscription);
        poller.setDaemon(true);
        poller.start();
        return () -> {
            running.set(false);
            poller.join(TimeUnit.SECONDS.toMillis(30));
            if (failure.get() != null) {
                throw new IllegalStateException("kafka consumer of " + topic + " failed", failure.get());
            }
        };
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(10));
    }
}
