package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The push consumer against the Sluice broker and the Apache 5.3.3 broker and name server. */
class PushConsumerIT {

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

    private static List<SendResult> produce(TestCluster cluster, String topic, int count) throws Exception {
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).autoBatch(true)
                .build())) {
            List<CompletableFuture<SendResult>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(producer.sendAsync(Message.of(topic, ("body-" + i).getBytes())));
            }
            List<SendResult> results = new ArrayList<>();
            for (CompletableFuture<SendResult> future : futures) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
            return results;
        }
    }

    private static PushSettings.Builder settings(TestCluster cluster, String group) {
        return PushSettings.builder(cluster.connection().withIntervals(30_000, 1000), group)
                .consumeFrom(ConsumeFrom.FIRST_OFFSET).rebalanceIntervalMs(1000).offsetCommitIntervalMs(200)
                .consumeThreads(4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldConsumeEveryMessageOnceAndCommitTheOffsets(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "PushBcq", 8, ConsumeQueueType.BATCH);
        List<SendResult> sent = produce(cluster, topic, 400);
        String group = "push-" + System.nanoTime();
        Map<String, ReceivedMessage> received = new ConcurrentHashMap<>();
        AtomicInteger duplicates = new AtomicInteger();
        PushConsumer consumer = PushConsumer.create(settings(cluster, group).consumeBatchMaxSize(4).build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            messages.forEach(message -> {
                if (received.put(message.msgId(), message) != null) {
                    duplicates.incrementAndGet();
                }
            });
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        try {
            Await.until("400 messages consumed", () -> received.size() == 400);
            assertEquals(0, duplicates.get());
            for (int i = 0; i < sent.size(); i++) {
                ReceivedMessage message = received.get(sent.get(i).msgId());
                assertArrayEquals(("body-" + i).getBytes(), message.body());
                assertEquals(sent.get(i).queueOffset(), message.queueOffset());
            }
        } finally {
            consumer.close();
        }
        Map<MessageQueue, Long> ends = new HashMap<>();
        sent.forEach(result -> ends.merge(result.queue(), result.queueOffset() + 1, Math::max));
        try (LitePullConsumer reader = LitePullConsumer.start(LitePullSettings.builder(cluster.connection(), group)
                .build())) {
            ends.forEach((queue, end) -> assertEquals(end, reader.committed(queue), "committed offset of " + queue));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldRebalanceAveragelyWhenMembersComeAndGo(TestCluster cluster) {
        String topic = ClusterExtension.createTopic(cluster, "PushGroup", 8, ConsumeQueueType.SIMPLE);
        String group = "rebalance-" + System.nanoTime();
        PushConsumer first = PushConsumer.create(settings(cluster, group).build());
        PushConsumer second = PushConsumer.create(settings(cluster, group).build());
        for (PushConsumer consumer : List.of(first, second)) {
            consumer.subscribe(topic, "*");
            consumer.registerListener(messages -> ConsumeStatus.SUCCESS);
        }
        try {
            first.start();
            Await.until("the only member owning all 8 queues", () -> topicQueues(first, topic).size() == 8);
            second.start();
            Await.until("two members owning 4 queues each", () -> {
                Set<MessageQueue> a = topicQueues(first, topic);
                Set<MessageQueue> b = topicQueues(second, topic);
                Set<MessageQueue> union = new HashSet<>(a);
                union.addAll(b);
                return a.size() == 4 && b.size() == 4 && union.size() == 8;
            });
            second.close();
            Await.until("the remaining member owning all 8 again", () -> topicQueues(first, topic).size() == 8);
        } finally {
            first.close();
            second.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldRedeliverAMessageTheListenerFailed(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "PushRetry", 1, ConsumeQueueType.SIMPLE);
        String group = "retry-" + System.nanoTime();
        List<ReceivedMessage> deliveries = new CopyOnWriteArrayList<>();
        PushConsumer consumer = PushConsumer.create(settings(cluster, group).build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            deliveries.addAll(messages);
            return deliveries.size() == 1 ? ConsumeStatus.RECONSUME_LATER : ConsumeStatus.SUCCESS;
        });
        consumer.start();
        try {
            SendResult sent = produce(cluster, topic, 1).get(0);
            Await.until("a redelivery", 60_000, () -> deliveries.size() >= 2);
            ReceivedMessage again = deliveries.get(1);
            assertEquals(sent.msgId(), again.msgId());
            assertEquals(topic, again.topic(), "the original topic is restored");
            if (cluster.label().equals("apache")) {
                assertEquals(1, again.reconsumeTimes(), "redelivered by the broker through the retry topic");
            }
        } finally {
            consumer.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldConsumeEachQueueInOrderUnderALock(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "PushOrder", 4, ConsumeQueueType.SIMPLE);
        List<SendResult> sent = produce(cluster, topic, 200);
        Map<MessageQueue, List<Long>> seen = new ConcurrentHashMap<>();
        AtomicInteger suspended = new AtomicInteger();
        AtomicInteger count = new AtomicInteger();
        PushConsumer consumer = PushConsumer.create(settings(cluster, "orderly-" + System.nanoTime())
                .suspendCurrentQueueTimeMs(50).consumeBatchMaxSize(3).build());
        consumer.subscribe(topic, "*");
        consumer.registerOrderlyListener(messages -> {
            if (suspended.get() < 3 && messages.stream().anyMatch(message -> message.queueOffset() == 10)) {
                suspended.incrementAndGet();
                return OrderlyStatus.SUSPEND;
            }
            messages.forEach(message -> seen.computeIfAbsent(message.queue(), q -> new CopyOnWriteArrayList<>())
                    .add(message.queueOffset()));
            count.addAndGet(messages.size());
            return OrderlyStatus.SUCCESS;
        });
        consumer.start();
        try {
            Await.until("every message consumed in order", 60_000, () -> count.get() == sent.size());
            for (List<Long> offsets : seen.values()) {
                for (int i = 0; i < offsets.size(); i++) {
                    assertEquals(i, offsets.get(i), "queue consumed in offset order without gaps or repeats");
                }
            }
            assertTrue(suspended.get() >= 1);
        } finally {
            consumer.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldStopPullingAQueueWhoseMessagesPileUp(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "PushFlow", 1, ConsumeQueueType.SIMPLE);
        produce(cluster, topic, 300);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger consumed = new AtomicInteger();
        PushConsumer consumer = PushConsumer.create(settings(cluster, "flow-" + System.nanoTime())
                .pullThresholdForQueue(20).pullBatchSize(10).consumeThreads(1).build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            consumed.addAndGet(messages.size());
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        try {
            Await.until("pulls put off by flow control", () -> consumer.flowControlCount() > 3);
            release.countDown();
            Await.until("every message once the listener goes on", 60_000, () -> consumed.get() == 300);
        } finally {
            release.countDown();
            consumer.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldCommitTheOffsetOfAListenerCallThatFinishesDuringClose(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "PushClose", 1, ConsumeQueueType.SIMPLE);
        SendResult sent = produce(cluster, topic, 1).get(0);
        String group = "close-" + System.nanoTime();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PushConsumer consumer = PushConsumer.create(settings(cluster, group).offsetCommitIntervalMs(600_000)
                .build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        Thread closer = new Thread(consumer::close, "push-closer");
        try {
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the listener got the message");
            closer.start();
            Await.until("close waiting for the running listener call",
                    () -> closer.getState() == Thread.State.TIMED_WAITING);
            release.countDown();
            closer.join(30_000);
            assertEquals(Thread.State.TERMINATED, closer.getState(), "close returned");
        } finally {
            release.countDown();
            consumer.close();
        }
        try (LitePullConsumer reader = LitePullConsumer.start(LitePullSettings.builder(cluster.connection(), group)
                .build())) {
            assertEquals(sent.queueOffset() + 1, reader.committed(sent.queue()),
                    "the offset after the message consumed while closing");
        }
    }

    private static Set<MessageQueue> topicQueues(PushConsumer consumer, String topic) {
        Set<MessageQueue> queues = new HashSet<>();
        for (MessageQueue queue : consumer.assignment()) {
            if (queue.topic().equals(topic)) {
                queues.add(queue);
            }
        }
        return queues;
    }
}
