package io.sluice.benchmark.omb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.client.Admin;
import io.sluice.format.ConsumeQueueType;
import io.sluice.client.TopicSpec;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.stats.NullStatsLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The driver through OMB's driver API against an embedded name server and broker, as OMB's local worker uses it. */
@Timeout(120)
class SluiceBenchmarkDriverIT {
    private static final int MESSAGES = 5_000;
    private static final int QUEUES = 4;
    private static final int BODY_BYTES = 200;

    @TempDir
    Path dir;

    @Test
    void sendsAndReceivesEveryMessageWithItsPayloadAndBornTimestamp() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir.resolve("store"), Map.of())) {
            Path yaml = Files.writeString(dir.resolve("sluice-native.yaml"), String.join("\n",
                    "name: Sluice",
                    "driverClass: " + SluiceBenchmarkDriver.class.getName(),
                    "namesrvAddr: " + cluster.namesrvAddr(),
                    "batchMaxDelayMs: 2",
                    "maxInFlightMessages: 64",
                    ""));
            SluiceBenchmarkDriver driver = new SluiceBenchmarkDriver();
            driver.initialize(yaml.toFile(), NullStatsLogger.INSTANCE);
            String topic = driver.getTopicNamePrefix() + "-it";
            driver.createTopic(topic, QUEUES).get(30, TimeUnit.SECONDS);
            try (Admin admin = Admin.start(cluster.namesrvAddr())) {
                TopicSpec created = admin.topicConfig(topic, cluster.brokerAddr());
                assertNotNull(created, "topic on the broker");
                assertEquals(ConsumeQueueType.BATCH, created.queueType());
                assertEquals(QUEUES, created.writeQueueNums());
            }

            Received received = new Received();
            BenchmarkConsumer consumer = driver.createConsumer(topic, "it-readers", received).get(30, TimeUnit.SECONDS);
            BenchmarkProducer producer = driver.createProducer(topic).get(30, TimeUnit.SECONDS);
            long firstSendMs = System.currentTimeMillis();
            List<CompletableFuture<Void>> sends = new ArrayList<>(MESSAGES);
            for (int i = 0; i < MESSAGES; i++) {
                Optional<String> key = i % 2 == 0 ? Optional.empty() : Optional.of("key-" + i);
                sends.add(producer.sendAsync(key, body(i)));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long lastSendMs = System.currentTimeMillis();

            assertTrue(received.all.await(60, TimeUnit.SECONDS),
                    "received " + received.byIndex.size() + " of " + MESSAGES);
            assertEquals(MESSAGES, received.byIndex.size());
            for (int i = 0; i < MESSAGES; i++) {
                Arrival arrival = received.byIndex.get(i);
                assertArrayEquals(body(i), arrival.body, "body of message " + i);
                assertTrue(arrival.bornMs >= firstSendMs && arrival.bornMs <= lastSendMs,
                        "born timestamp " + arrival.bornMs + " of message " + i + " outside the sends' "
                                + firstSendMs + ".." + lastSendMs);
            }
            assertEquals(0, received.duplicates.get(), "messages received twice");

            producer.close();
            consumer.close();
            driver.close();
        }
    }

    /** Message {@code i}: its index, then bytes that depend on it, so that a mixed-up body is caught. */
    private static byte[] body(int i) {
        ByteBuffer body = ByteBuffer.allocate(BODY_BYTES).putInt(i);
        while (body.hasRemaining()) {
            body.put((byte) (i * 31 + body.position()));
        }
        return body.array();
    }

    private record Arrival(byte[] body, long bornMs) {
    }

    /** OMB's callback: keeps each message by the index in its body; counts every arrival beyond the first. */
    private static final class Received implements ConsumerCallback {
        final Map<Integer, Arrival> byIndex = new ConcurrentHashMap<>();
        final CountDownLatch all = new CountDownLatch(MESSAGES);
        final AtomicInteger duplicates = new AtomicInteger();

        @Override
        public void messageReceived(byte[] payload, long publishTimestamp) {
            int index = ByteBuffer.wrap(payload).getInt();
            if (byIndex.putIfAbsent(index, new Arrival(Arrays.copyOf(payload, payload.length), publishTimestamp))
                    == null) {
                all.countDown();
            } else {
                duplicates.incrementAndGet();
            }
        }

        @Override
        public void messageReceived(ByteBuffer payload, long publishTimestamp) {
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            messageReceived(bytes, publishTimestamp);
        }
    }
}
