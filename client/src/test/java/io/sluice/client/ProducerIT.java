package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The producer against the Sluice broker and the Apache 5.3.3 broker and name server (child JVMs). */
class ProducerIT {

    @BeforeAll
    static void startClusters() {
        ClusterExtension.startBoth();
    }

    @AfterAll
    static void stopClusters() {
        ClusterExtension.stopAll();
    }

    static Stream<TestCluster> clusters() {
        return ClusterExtension.clusters();
    }

    private static String createTopic(TestCluster cluster, String prefix, int queues, ConsumeQueueType type) {
        return ClusterExtension.createTopic(cluster, prefix, queues, type);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldGiveEveryAutoBatchedMessageItsOwnOffsetOnABatchCqTopic(TestCluster cluster) throws Exception {
        String topic = createTopic(cluster, "Bcq", 16, ConsumeQueueType.BATCH);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .build())) {
            List<CompletableFuture<SendResult>> futures = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                futures.add(producer.sendAsync(Message.builder(topic, new byte[100]).tags("T").build()));
            }
            Map<MessageQueue, Set<Long>> offsets = new HashMap<>();
            Set<String> ids = new HashSet<>();
            int inner = 0;
            for (CompletableFuture<SendResult> future : futures) {
                SendResult result = future.get(30, TimeUnit.SECONDS);
                assertEquals(SendStatus.SEND_OK, result.status());
                assertTrue(offsets.computeIfAbsent(result.queue(), q -> new HashSet<>()).add(result.queueOffset()),
                        "offset " + result.queueOffset() + " of " + result.queue() + " given twice");
                assertTrue(ids.add(result.msgId()));
                inner += result.batchUniqId() != null ? 1 : 0;
                assertOffsetIdNamesTheBroker(cluster, result.offsetMsgId());
            }
            assertEquals(2000, inner, "every message of a BatchCQ topic went in an inner batch");
            Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
            assertStatsCount(cluster, topic, 2000, offsets);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldSplitUnpackedBatchesOnASimpleTopic(TestCluster cluster) throws Exception {
        String topic = createTopic(cluster, "Scq", 4, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .batchMaxDelayMs(20).build())) {
            List<CompletableFuture<SendResult>> futures = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                futures.add(producer.sendAsync(Message.of(topic, ("m" + i).getBytes())));
            }
            Map<MessageQueue, Set<Long>> offsets = new HashMap<>();
            Set<String> offsetIds = new HashSet<>();
            for (CompletableFuture<SendResult> future : futures) {
                SendResult result = future.get(30, TimeUnit.SECONDS);
                assertNull(result.batchUniqId());
                assertTrue(offsets.computeIfAbsent(result.queue(), q -> new HashSet<>()).add(result.queueOffset()));
                assertTrue(offsetIds.add(result.offsetMsgId()), "each stored record has its own id");
            }
            assertStatsCount(cluster, topic, 500, offsets);
            SendResult single = producer.send(Message.of(topic, "sync".getBytes()));
            assertEquals(SendStatus.SEND_OK, single.status());
            List<SendResult> batch = producer.send(List.of(Message.of(topic, "a".getBytes()),
                    Message.of(topic, "b".getBytes())));
            assertEquals(batch.get(0).queueOffset() + 1, batch.get(1).queueOffset());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldSendWithoutAutoBatchSyncAsyncAndOneway(TestCluster cluster) throws Exception {
        String topic = createTopic(cluster, "Plain", 2, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).build())) {
            SendResult sync = producer.send(Message.builder(topic, "s".getBytes()).keys("k").build());
            assertEquals(SendStatus.SEND_OK, sync.status());
            SendResult async = producer.sendAsync(Message.of(topic, "a".getBytes())).get(10, TimeUnit.SECONDS);
            assertNotNull(async.offsetMsgId());
            producer.sendOneway(Message.of(topic, "o".getBytes()));
            try (Admin admin = Admin.start(cluster.connection())) {
                Await.until("three messages stored",
                        () -> admin.maxOffset(new MessageQueue(topic, cluster.brokerName(), 0))
                        + admin.maxOffset(new MessageQueue(topic, cluster.brokerName(), 1)) == 3);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldTurnBrokerErrorsIntoTypedExceptions(TestCluster cluster) {
        String topic = createTopic(cluster, "Errors", 2, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection())
                .retryTimesWhenSendFailed(0).build())) {
            MessageQueue missing = new MessageQueue(topic, cluster.brokerName(), 9);
            BrokerErrorException error = assertThrows(BrokerErrorException.class,
                    () -> producer.send(Message.of(topic, "x".getBytes()), missing));
            assertEquals(ResponseCode.INVALID_PARAMETER, error.code());
            assertTrue(error.remark().contains("queueId[9]"), error.remark());
            assertEquals(cluster.brokerAddress(), error.address());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldAutoCreateAnUnknownTopicThroughTheDefaultTopicRoute(TestCluster cluster) throws Exception {
        String topic = "Auto_" + Long.toHexString(System.nanoTime());
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).build())) {
            SendResult result = producer.send(Message.of(topic, "x".getBytes()));
            assertEquals(SendStatus.SEND_OK, result.status());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldFailEveryCoBatchedMessageWithTheBrokersError(TestCluster cluster) throws Exception {
        String topic = createTopic(cluster, "Small", 1, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .retryTimesWhenSendFailed(0).build())) {
            MessageQueue missing = new MessageQueue(topic, cluster.brokerName(), 7);
            List<CompletableFuture<SendResult>> futures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                futures.add(producer.sendAsync(Message.of(topic, "x".getBytes()), missing));
            }
            for (CompletableFuture<SendResult> future : futures) {
                ExecutionException failure = assertThrows(ExecutionException.class,
                        () -> future.get(20, TimeUnit.SECONDS));
                BrokerErrorException error = assertInstanceOf(BrokerErrorException.class, failure.getCause());
                assertEquals(ResponseCode.INVALID_PARAMETER, error.code());
            }
            Await.until("batch memory given back", () -> producer.heldBatchBytes() == 0);
        }
    }

    private static void assertOffsetIdNamesTheBroker(TestCluster cluster, String offsetMsgId) throws Exception {
        MessageId id = MessageDecoder.decodeMessageId(offsetMsgId);
        InetSocketAddress address = (InetSocketAddress) id.getAddress();
        assertEquals(cluster.brokerAddress(), "127.0.0.1:" + address.getPort());
    }

    private static void assertStatsCount(TestCluster cluster, String topic, long count,
                                         Map<MessageQueue, Set<Long>> offsets) {
        try (Admin admin = Admin.start(cluster.connection())) {
            for (Map.Entry<MessageQueue, Set<Long>> queue : offsets.entrySet()) {
                long expected = queue.getValue().size();
                assertEquals(expected - 1, queue.getValue().stream().mapToLong(Long::longValue).max().orElse(-1));
                Await.until("max offset " + expected + " of " + queue.getKey() + " (offsets are exactly 0..max-1)",
                        () -> admin.maxOffset(queue.getKey()) == expected);
            }
            assertEquals(count, offsets.values().stream().mapToLong(Set::size).sum());
        }
    }
}
