package io.sluice.benchmark.load;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The Kafka Java client, configured as OMB's Kafka driver with the driver file of the project's OMB kit
 * ({@code kafka.yaml}): producer {@code acks=all} (with one replica, the leader's append), {@code linger.ms=1},
 * {@code batch.size=1048576}, the client's default {@code buffer.memory} (32 MiB, its back-pressure); consumer
 * {@code auto.offset.reset=earliest}, no auto-commit but asynchronous commits of what the polls returned (one
 * in flight at a time, see {@link OffsetCommitter}),
 * {@code max.partition.fetch.bytes=10485760}, one polling thread per consumer, created once it has joined its group
 * and been assigned partitions. Topics have one replica and {@code min.insync.replicas=1}; more than 5,000
 * partitions are added in steps, since KRaft takes at most 10,000 records per request. Thread-safe.
 */
final class KafkaDriver implements Driver {

    private static final int PARTITIONS_PER_REQUEST = 5_000;
    /** The OMB kit's request.timeout.ms and default.api.timeout.ms. */
    private static final int REQUEST_TIMEOUT_MS = 1_200_000;
    /** OMB's poll timeout. */
    private static final long POLL_TIMEOUT_MS = 100;

    private final String bootstrap;
    private final Admin admin;

    KafkaDriver(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties properties = new Properties();
        common(properties);
        this.admin = Admin.create(properties);
    }

    /**
     * The OMB kit's {@code commonConfig}: the bootstrap address and 20-minute request and API timeouts, so that
     * an asynchronous offset commit queued behind a busy coordinator waits rather than fails.
     */
    private void common(Properties properties) {
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
        properties.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client", "Kafka Java client (kafka-clients) " + AppInfoParser.getVersion());
        settings.put(CLIENT_VERSION, AppInfoParser.getVersion());
        settings.put("common", "request.timeout.ms=default.api.timeout.ms=" + REQUEST_TIMEOUT_MS);
        settings.put("producer", "acks=all, linger.ms=1, batch.size=1048576 (OMB kit's kafka.yaml)");
        settings.put("consumer", "KafkaConsumer poll loop, auto.offset.reset=earliest, enable.auto.commit=false with "
                + "commitAsync of the polled offsets, one commit in flight, max.partition.fetch.bytes=10485760");
        settings.put("replicationFactor", "1");
        return settings;
    }

    @Override
    public void createTopic(String topic, int partitions) throws Exception {
        int first = Math.min(partitions, PARTITIONS_PER_REQUEST);
        admin.createTopics(List.of(new NewTopic(topic, first, (short) 1).configs(Map.of("min.insync.replicas", "1"))))
                .all().get(2, TimeUnit.MINUTES);
        for (int count = first; count < partitions; ) {
            count = Math.min(partitions, count + PARTITIONS_PER_REQUEST);
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(count))).all().get(2, TimeUnit.MINUTES);
        }
    }

    @Override
    public BenchProducer createProducer(String topic) {
        Properties properties = new Properties();
        common(properties);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 1_048_576);
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
        common(properties);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, subscription);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 10_485_760);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-" + UUID.randomUUID());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        OffsetCommitter committer = new OffsetCommitter(consumer);
        // Join the group before producers start, as the RocketMQ consumers do in start(): poll until partitions are
        // assigned. Nothing is produced yet, so these polls return no records.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ASSIGNMENT_TIMEOUT_SECONDS);
        while (consumer.assignment().size() < Math.max(1, minQueues)) {
            committer.deliver(consumer.poll(Duration.ofMillis(POLL_TIMEOUT_MS)), receiver);
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
                    committer.deliver(consumer.poll(Duration.ofMillis(POLL_TIMEOUT_MS)), receiver);
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

    /**
     * Delivers polled records and commits their offsets asynchronously, at most one commit in flight: offsets
     * polled while a commit is out wait and go with the next one. A commit per poll, as OMB's driver-kafka sends,
     * queues requests faster than the group coordinator answers them when a fast poll loop returns small batches
     * (tens of thousands pending within a minute), and the queue slows client and broker alike. Poll thread only:
     * the commit callback runs inside {@code poll}.
     */
    private static final class OffsetCommitter {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();
        private final OffsetCommitCallback done = (offsets, error) -> this.inFlight = false;
        private boolean inFlight;

        OffsetCommitter(KafkaConsumer<byte[], byte[]> consumer) {
            this.consumer = consumer;
        }

        /** Hands each record to {@code receiver}, then commits unless a commit is still out. */
        void deliver(ConsumerRecords<byte[], byte[]> records, Receiver receiver) {
            for (ConsumerRecord<byte[], byte[]> record : records) {
                receiver.received(record.value().length, record.timestamp());
                uncommitted.put(new TopicPartition(record.topic(), record.partition()),
                        new OffsetAndMetadata(record.offset() + 1));
            }
            if (!inFlight && !uncommitted.isEmpty()) {
                // A failed commit is superseded by the next one, which carries the same or later offsets.
                inFlight = true;
                consumer.commitAsync(new HashMap<>(uncommitted), done);
                uncommitted.clear();
            }
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(10));
    }
}
