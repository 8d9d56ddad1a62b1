package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The lite pull consumer against the Sluice broker and the Apache 5.3.3 broker and name server. */
class LitePullConsumerIT {

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

    /**
     * Sends {@code count} auto-batched messages with body "i"; returns the results in send order. The batches are
     * held until the producer closes, so each queue's messages go out as one batch however slow the machine.
     */
    private static List<SendResult> produce(TestCluster cluster, String topic, int count, String tag)
            throws Exception {
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .batchMaxDelayMs(30_000).build())) {
            for (int i = 0; i < count; i++) {
                futures.add(producer.sendAsync(Message.builder(topic, ("body-" + i).getBytes()).tags(tag).build()));
            }
        }
        List<SendResult> results = new ArrayList<>();
        for (CompletableFuture<SendResult> future : futures) {
            results.add(future.get(30, TimeUnit.SECONDS));
        }
        return results;
    }

    private static LitePullConsumer consumer(TestCluster cluster, String group) {
        return LitePullConsumer.start(LitePullSettings.builder(cluster.connection(), group)
                .consumeFrom(ConsumeFrom.FIRST_OFFSET).autoCommit(false).rebalanceIntervalMs(1000).build());
    }

    private static Map<String, ReceivedMessage> pollAll(LitePullConsumer consumer, int expected) {
        Map<String, ReceivedMessage> received = new HashMap<>();
        Await.until(expected + " messages", 60_000, () -> {
            for (ReceivedMessage message : consumer.poll(100)) {
                if (received.put(message.msgId(), message) != null) {
                    throw new AssertionError("received twice: " + message);
                }
            }
            return received.size() >= expected;
        });
        return received;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldUnwrapInnerBatchesIntoMessagesWithTheirOwnOffsets(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "LiteBcq", 4, ConsumeQueueType.BATCH);
        List<SendResult> sent = produce(cluster, topic, 300, "T");
        try (LitePullConsumer consumer = consumer(cluster, "lite-" + System.nanoTime())) {
            consumer.assign(consumer.fetchQueues(topic));
            Map<String, ReceivedMessage> received = pollAll(consumer, 300);
            for (int i = 0; i < sent.size(); i++) {
                SendResult result = sent.get(i);
                ReceivedMessage message = received.get(result.msgId());
                assertArrayEquals(("body-" + i).getBytes(), message.body());
                assertEquals(result.queue(), message.queue());
                assertEquals(result.queueOffset(), message.queueOffset());
                assertEquals(topic, message.topic());
                assertEquals("T", message.tags());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldSkipTheMessagesBeforeAnOffsetInsideAnInnerBatch(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "LiteSeek", 1, ConsumeQueueType.BATCH);
        List<SendResult> sent = produce(cluster, topic, 50, null);
        assertTrue(sent.get(10).batchUniqId() != null && sent.get(10).batchUniqId().equals(sent.get(11).batchUniqId()),
                "messages 10 and 11 share an inner batch");
        MessageQueue queue = sent.get(0).queue();
        try (LitePullConsumer consumer = consumer(cluster, "seek-" + System.nanoTime())) {
            consumer.assign(List.of(queue));
            pollAll(consumer, 50);
            consumer.seek(queue, 11);
            List<ReceivedMessage> again = new ArrayList<>();
            Await.until("messages from offset 11 on", () -> {
                again.addAll(consumer.poll(100));
                return again.size() >= 39;
            });
            assertEquals(11, again.get(0).queueOffset(), "the pull starts at the requested offset, inside the batch");
            assertEquals(sent.get(11).msgId(), again.get(0).msgId());
            assertEquals(39, again.size());
            IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                    () -> consumer.seek(queue, 51));
            assertTrue(outside.getMessage().contains("offset 51"), outside.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldResumeAtTheCommittedOffset(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "LiteCommit", 2, ConsumeQueueType.SIMPLE);
        produce(cluster, topic, 40, null);
        String group = "commit-" + System.nanoTime();
        Map<MessageQueue, Long> consumed = new HashMap<>();
        try (LitePullConsumer consumer = consumer(cluster, group)) {
            consumer.assign(consumer.fetchQueues(topic));
            for (ReceivedMessage message : pollAll(consumer, 40).values()) {
                consumed.merge(message.queue(), message.queueOffset() + 1, Math::max);
            }
            consumer.commit();
            consumed.forEach((queue, offset) -> assertEquals(offset, consumer.committed(queue)));
        }
        produce(cluster, topic, 10, null);
        try (LitePullConsumer consumer = consumer(cluster, group)) {
            consumer.assign(consumer.fetchQueues(topic));
            Map<String, ReceivedMessage> rest = pollAll(consumer, 10);
            for (ReceivedMessage message : rest.values()) {
                assertTrue(message.queueOffset() >= consumed.getOrDefault(message.queue(), 0L));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldShareQueuesAmongTheGroupAndFilterByTag(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "LiteGroup", 8, ConsumeQueueType.SIMPLE);
        String group = "group-" + System.nanoTime();
        try (LitePullConsumer first = consumer(cluster, group); LitePullConsumer second = consumer(cluster, group)) {
            first.subscribe(topic, "A");
            second.subscribe(topic, "A");
            Await.until("each member owning half of the queues", () -> {
                Set<MessageQueue> a = first.assignment();
                Set<MessageQueue> b = second.assignment();
                Set<MessageQueue> union = new HashSet<>(a);
                union.addAll(b);
                return a.size() == 4 && b.size() == 4 && union.size() == 8;
            });
            produce(cluster, topic, 30, "A");
            produce(cluster, topic, 30, "B");
            Map<String, ReceivedMessage> received = new HashMap<>();
            Await.until("the 30 messages tagged A", () -> {
                for (LitePullConsumer consumer : List.of(first, second)) {
                    for (ReceivedMessage message : consumer.poll(50)) {
                        assertEquals("A", message.tags());
                        received.put(message.msgId(), message);
                    }
                }
                return received.size() == 30;
            });
        }
    }

    /**
     * One topic of 10,000 BatchCQ queues on one broker (operators run such topics): created with Admin, written
     * with auto-batching to queues the caller names, a selector picks and the producer picks, read back per queue.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldServeATopicOfTenThousandBatchCqQueues(TestCluster cluster) throws Exception {
        int queueNums = 10_000;
        String topic = ClusterExtension.createTopic(cluster, "Wide", queueNums, ConsumeQueueType.BATCH);
        try (Admin admin = Admin.start(cluster.connection())) {
            TopicSpec created = admin.topicConfig(topic, cluster.brokerAddress());
            assertEquals(queueNums, created.writeQueueNums());
            assertEquals(queueNums, created.readQueueNums());
            assertEquals(ConsumeQueueType.BATCH, created.queueType());
            Await.until("a route of " + queueNums + " queues",
                    () -> admin.topicRoute(topic).queueDatas().get(0).writeQueueNums() == queueNums);
        }
        List<MessageQueue> named = new ArrayList<>();
        for (int queueId : new int[] {0, 1, 4_999, 9_998, queueNums - 1}) {
            named.add(new MessageQueue(topic, cluster.brokerName(), queueId));
        }
        List<CompletableFuture<SendResult>> futures = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .build())) {
            assertEquals(queueNums, producer.publishQueues(topic).size());
            for (int i = 0; i < 100; i++) {
                String body = "wide-" + i;
                Message message = Message.builder(topic, body.getBytes()).tags("W").build();
                bodies.add(body);
                futures.add(switch (i % 7) {
                    case 5 -> producer.sendAsync(message, (queues, m, arg) -> queues.get((int) arg), 7_777);
                    case 6 -> producer.sendAsync(message);
                    default -> producer.sendAsync(message, named.get(i % named.size()));
                });
            }
            MessageQueue outside = new MessageQueue(topic, cluster.brokerName(), queueNums);
            assertThrows(IllegalArgumentException.class, () -> producer.sendAsync(
                    Message.of(topic, "x".getBytes()), (queues, m, arg) -> outside, null));
        }
        Map<String, SendResult> sent = new HashMap<>();
        Map<MessageQueue, Set<Long>> offsets = new HashMap<>();
        for (int i = 0; i < futures.size(); i++) {
            SendResult result = futures.get(i).get(30, TimeUnit.SECONDS);
            assertEquals(SendStatus.SEND_OK, result.status());
            assertTrue(result.queue().queueId() >= 0 && result.queue().queueId() < queueNums, result.toString());
            assertTrue(result.batchUniqId() != null, "stored in an inner batch: " + result);
            assertTrue(offsets.computeIfAbsent(result.queue(), q -> new HashSet<>()).add(result.queueOffset()),
                    "offset " + result.queueOffset() + " of " + result.queue() + " given twice");
            sent.put(bodies.get(i), result);
        }
        assertTrue(offsets.containsKey(new MessageQueue(topic, cluster.brokerName(), 7_777)));
        assertTrue(offsets.keySet().containsAll(named));
        for (Map.Entry<MessageQueue, Set<Long>> queue : offsets.entrySet()) {
            assertEquals(queue.getValue().size() - 1, queue.getValue().stream().mapToLong(Long::longValue).max()
                    .orElseThrow(), "offsets of " + queue.getKey() + " are 0..n-1");
        }
        try (LitePullConsumer consumer = consumer(cluster, "wide-" + System.nanoTime())) {
            consumer.assign(offsets.keySet());
            Map<String, ReceivedMessage> received = pollAll(consumer, sent.size());
            assertEquals(sent.size(), received.size());
            for (Map.Entry<String, SendResult> entry : sent.entrySet()) {
                ReceivedMessage message = received.get(entry.getValue().msgId());
                assertArrayEquals(entry.getKey().getBytes(), message.body());
                assertEquals(entry.getValue().queue(), message.queue());
                assertEquals(entry.getValue().queueOffset(), message.queueOffset());
                assertEquals("W", message.tags());
            }
        }
    }
}
