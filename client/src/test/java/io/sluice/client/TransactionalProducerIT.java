package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Sluice transactional producer against the Sluice broker: commit delivered once, rollback never, unknown
 * (or a failing local transaction) decided by the checker when the broker checks back.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TransactionalProducerIT {

    private static final int EACH = 5;
    private static TestCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestCluster.start("sluice");
    }

    @AfterAll
    static void stopCluster() {
        cluster.stop();
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void commitIsDeliveredOnceRollbackNeverAndUnknownAsTheCheckerSays() {
        String topic = ClusterExtension.createTopic(cluster, "Tx", 2, ConsumeQueueType.SIMPLE);
        Set<String> checked = ConcurrentHashMap.newKeySet();
        TransactionChecker checker = message -> {
            String body = text(message.body());
            checked.add(body);
            assertEquals(topic, message.topic(), "the check carries the real topic");
            return body.startsWith("rollback-") ? TransactionState.ROLLBACK : TransactionState.COMMIT;
        };
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        PushConsumer consumer = PushConsumer.create(PushSettings.builder(
                cluster.connection().withIntervals(30_000, 1000), "tx-client-g").consumeFrom(ConsumeFrom.FIRST_OFFSET)
                .rebalanceIntervalMs(1000).build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            messages.forEach(m -> delivered.computeIfAbsent(text(m.body()), k -> new AtomicInteger())
                    .incrementAndGet());
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        // Heartbeats every second: the broker checks back through a connection it knows from a heartbeat.
        try (TransactionalProducer producer = TransactionalProducer.start(ProducerSettings.builder(
                cluster.connection().withIntervals(30_000, 1000)).producerGroup("tx-client-pg").build(), checker)) {
            for (int i = 0; i < EACH; i++) {
                assertEquals(TransactionState.COMMIT, send(producer, topic, "commit-" + i, TransactionState.COMMIT));
                assertEquals(TransactionState.ROLLBACK,
                        send(producer, topic, "rollback-" + i, TransactionState.ROLLBACK));
                assertEquals(TransactionState.UNKNOWN,
                        send(producer, topic, "unknown-" + i, TransactionState.UNKNOWN));
                TransactionResult failing = producer.sendInTransaction(
                        Message.of(topic, ("failing-" + i).getBytes(StandardCharsets.UTF_8)), (message, half) -> {
                            throw new IllegalStateException("the local transaction fails");
                        });
                assertEquals(TransactionState.UNKNOWN, failing.state(), "a failing local transaction is UNKNOWN");
            }
            Await.until("commits and checked-back transactions delivered (" + delivered.keySet() + ")", 60_000,
                    () -> delivered.size() == 3 * EACH);
            for (int i = 0; i < EACH; i++) {
                assertTrue(checked.contains("unknown-" + i) && checked.contains("failing-" + i), checked::toString);
                assertFalse(delivered.containsKey("rollback-" + i), "rollback-" + i + " is never delivered");
            }
            delivered.forEach((body, count) -> assertEquals(1, count.get(), body + " delivered once"));
            assertTrue(producer.checksAnsweredCount() >= 2 * EACH);
            assertEquals(0, producer.endFailureCount());

        } finally {
            consumer.close();
        }
    }

    private static TransactionState send(TransactionalProducer producer, String topic, String body,
                                         TransactionState state) {
        TransactionResult result = producer.sendInTransaction(Message.of(topic, body.getBytes(StandardCharsets.UTF_8)),
                (message, half) -> {
                    assertEquals(SendStatus.SEND_OK, half.status());
                    return state;
                });
        return result.state();
    }
}
