package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.store.GetResult;
import io.sluice.store.MessageStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.CommandUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenMessaging Benchmark flow against an embedded name server and broker, driven by the unmodified Apache
 * client 5.3.1 (OMB's path): the admin tool finds the broker through the cluster info and creates a BatchCQ
 * and a SimpleCQ topic on every address; an auto-batching producer sends asynchronously and synchronously; a push
 * consumer receives every message with intact bodies and, per queue, every offset exactly once; a lite pull consumer
 * reads from a sought offset.
 */
class BrokerDataPathIT {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerDataPathIT.class);

    private static final int ASYNC_MESSAGES = 20_000;
    private static final int SYNC_MESSAGES = 200;
    private static final int BODY_BYTES = 1024;
    private static final int QUEUES = 16;
    private static final int ASYNC_WINDOW = 128;
    private static final int INNER_BATCH = 0x80;
    private static final long CONSUME_DEADLINE_MS = 60_000;

    @TempDir
    static Path dir;

    private static EmbeddedCluster cluster;
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(dir);
        admin = new DefaultMQAdminExt(5_000);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName("AdminInstance-" + System.nanoTime());
        admin.start();
    }

    @AfterAll
    static void stop() {
        try {
            if (admin != null) {
                admin.shutdown();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** OMB's createTopic: fetch every address of the cluster and create the topic on each. */
    private static void createTopic(String topic, boolean batchCq) throws Exception {
        Set<String> addresses = CommandUtil.fetchMasterAndSlaveAddrByClusterName(admin, EmbeddedCluster.CLUSTER);
        assertEquals(Set.of(cluster.brokerAddr()), addresses);
        TopicConfig config = new TopicConfig(topic, QUEUES, QUEUES, 6);
        if (batchCq) {
            config.getAttributes().put("+queue.type", "BatchCQ");
        }
        for (String address : addresses) {
            admin.createAndUpdateTopicConfig(address, config);
        }
    }

    @Test
    void ombFlowDeliversEveryMessageOnBatchAndSimpleTopics() throws Exception {
        ClusterInfo clusterInfo = admin.examineBrokerClusterInfo();
        assertEquals(Set.of(EmbeddedCluster.BROKER_NAME),
                clusterInfo.getClusterAddrTable().get(EmbeddedCluster.CLUSTER));
        BrokerData brokerData = clusterInfo.getBrokerAddrTable().get(EmbeddedCluster.BROKER_NAME);
        assertEquals(cluster.brokerAddr(), brokerData.getBrokerAddrs().get(0L));

        String batchTopic = "omb-bcq";
        String simpleTopic = "omb-scq";
        createTopic(batchTopic, true);
        createTopic(simpleTopic, false);
        for (String topic : List.of(batchTopic, simpleTopic)) {
            TopicRouteData route = admin.examineTopicRouteInfo(topic);
            assertEquals(1, route.getQueueDatas().size(), topic);
            QueueData queues = route.getQueueDatas().get(0);
            assertEquals(QUEUES, queues.getWriteQueueNums(), topic);
            assertEquals(QUEUES, queues.getReadQueueNums(), topic);
            assertEquals(EmbeddedCluster.BROKER_NAME, queues.getBrokerName());
        }
        assertEquals("BatchCQ", admin.examineTopicConfig(cluster.brokerAddr(), batchTopic).getAttributes()
                .get("queue.type"));

        Received received = new Received();
        DefaultMQPushConsumer consumer = ApacheClients.withTestIntervals(new DefaultMQPushConsumer("sub-omb"),
                cluster.namesrvAddr());
        DefaultMQProducer producer = new DefaultMQProducer("ProducerGroup_omb");
        try {
            consumer.subscribe(batchTopic, "*");
            consumer.subscribe(simpleTopic, "*");
            // From the first offset: with OMB's LAST_OFFSET a queue that receives its first messages between the
            // consumer's offset query (nothing committed, queue empty) and its max-offset query starts after them.
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(received::add);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();

            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setInstanceName("ProducerInstance-" + System.nanoTime());
            producer.setAutoBatch(true);
            producer.setEnableBackpressureForAsyncMode(true);
            // OMB allows 1024 batches in flight; on a shared 2-core test machine a heartbeat queued behind 32 MiB of
            // batches on the producer's connection can miss the client's 3 s timeout, so keep the window smaller.
            producer.setBackPressureForAsyncSendNum(ASYNC_WINDOW);
            producer.setSendMsgTimeout(10_000);
            producer.start();

            AtomicLong acked = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<SendResult> notOk = new ConcurrentLinkedQueue<>();
            SendCallback callback = new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    if (result.getSendStatus() != SendStatus.SEND_OK) {
                        notOk.add(result);
                    }
                    acked.incrementAndGet();
                }

                @Override
                public void onException(Throwable error) {
                    failures.add(error);
                    acked.incrementAndGet();
                }
            };
            long startNs = System.nanoTime();
            long id = 0;
            for (int i = 0; i < ASYNC_MESSAGES; i++) {
                producer.send(message(batchTopic, id++), callback);
                producer.send(message(simpleTopic, id++), callback);
            }
            Await.until("every async send acknowledged", CONSUME_DEADLINE_MS,
                    () -> acked.get() >= 2L * ASYNC_MESSAGES, acked::get);
            LOG.info("{} async sends acknowledged after {} ms", acked.get(), (System.nanoTime() - startNs) / 1_000_000);
            for (int i = 0; i < SYNC_MESSAGES; i++) {
                for (String topic : List.of(batchTopic, simpleTopic)) {
                    SendResult result = producer.send(message(topic, id++));
                    assertEquals(SendStatus.SEND_OK, result.getSendStatus());
                    assertNotNull(result.getOffsetMsgId());
                    assertEquals(cluster.broker().address(),
                            MessageDecoder.decodeMessageId(result.getOffsetMsgId()).getAddress());
                }
            }
            long total = id;
            assertTrue(failures.isEmpty(), () -> failures.size() + " failed sends, first: " + failures.peek());
            assertTrue(notOk.isEmpty(), () -> "not SEND_OK: " + notOk.peek());
            LOG.info("{} messages sent in {} ms", total, (System.nanoTime() - startNs) / 1_000_000);

            Await.until("every message consumed", CONSUME_DEADLINE_MS, () -> received.distinct() == total,
                    () -> received.distinct() + " of " + total + "; queues behind: "
                            + received.deficits(List.of(batchTopic, simpleTopic), QUEUES, cluster.broker().store())
                            + "; stored but not received: " + storeCheck(List.of(batchTopic, simpleTopic), received));
            LOG.info("{} messages consumed {} ms after the first send", total, (System.nanoTime() - startNs) / 1_000_000);
            received.assertComplete(total);
            for (String topic : List.of(batchTopic, simpleTopic)) {
                received.assertEveryOffsetOnce(topic, QUEUES, cluster.broker().store());
            }
            // The producer spreads its batches over the queues in turn, so BatchCQ slots span other queues' (and
            // the other topic's) records: the consumer above read through such slots. A queue's first slot then
            // holds several of its batches, returned as more than one view.
            MessageStore store = cluster.broker().store();
            assertTrue(java.util.stream.IntStream.range(0, QUEUES).anyMatch(
                    q -> store.getMessages(batchTopic, q, 0, 1, Integer.MAX_VALUE, null).records().size() > 1),
                    "no queue's first BatchCQ slot spans other records");
        } finally {
            shutdownAll(producer::shutdown, consumer::shutdown);
        }
    }

    @Test
    void litePullConsumerReadsFromSoughtOffset() throws Exception {
        String topic = "lite-scq";
        createTopic(topic, false);
        DefaultMQProducer producer = new DefaultMQProducer("ProducerGroup_lite");
        DefaultLitePullConsumer lite = new DefaultLitePullConsumer("lite-group");
        try {
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setInstanceName("ProducerInstance-lite-" + System.nanoTime());
            producer.start();
            MessageQueue target = new MessageQueue(topic, EmbeddedCluster.BROKER_NAME, 3);
            for (long i = 0; i < 20; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(message(topic, i), target).getSendStatus());
            }

            lite.setNamesrvAddr(cluster.namesrvAddr());
            lite.setInstanceName("LiteInstance-" + System.nanoTime());
            lite.setAutoCommit(false);
            lite.start();
            Collection<MessageQueue> queues = lite.fetchMessageQueues(topic);
            assertEquals(QUEUES, queues.size());
            MessageQueue assigned = queues.stream().filter(q -> q.getQueueId() == 3).findFirst().orElseThrow();
            lite.assign(List.of(assigned));
            lite.seek(assigned, 5);
            // A pull started by assign() may still deliver from the old position; the seek restarts at 5, so the
            // delivery ends with offsets 5..19 in order.
            List<MessageExt> polled = new ArrayList<>();
            Await.until("the message at offset 19 polled", 20_000, () -> {
                polled.addAll(lite.poll(200));
                return !polled.isEmpty() && polled.get(polled.size() - 1).getQueueOffset() == 19;
            }, () -> offsets(polled));
            int restart = -1;
            for (int i = 0; i < polled.size(); i++) {
                if (polled.get(i).getQueueOffset() == 5) {
                    restart = i;
                }
            }
            assertTrue(restart >= 0, () -> "no message at offset 5: " + offsets(polled));
            List<MessageExt> afterSeek = polled.subList(restart, polled.size());
            assertEquals(15, afterSeek.size(), () -> offsets(polled).toString());
            for (int i = 0; i < afterSeek.size(); i++) {
                MessageExt m = afterSeek.get(i);
                assertEquals(5 + i, m.getQueueOffset());
                assertEquals(5 + i, ByteBuffer.wrap(m.getBody()).getLong());
            }
        } finally {
            shutdownAll(producer::shutdown, lite::shutdown);
        }
    }

    /** Decodes every stored record of the topics with the Apache decoder; names those not received (at most 20). */
    private static String storeCheck(List<String> topics, Received received) {
        MessageStore store = cluster.broker().store();
        List<String> problems = new ArrayList<>();
        for (String topic : topics) {
            for (int q = 0; q < QUEUES && problems.size() < 20; q++) {
                long offset = 0;
                long max = store.maxOffset(topic, q);
                while (offset < max && problems.size() < 20) {
                    GetResult r = store.getMessages(topic, q, offset, 32, 1 << 20, null);
                    for (ByteBuffer record : r.records()) {
                        MessageExt m = MessageDecoder.decode(record.duplicate(), true, true, true);
                        if (m == null) {
                            problems.add(topic + "/" + q + ": undecodable record near offset " + offset);
                        } else {
                            List<byte[]> bodies = new ArrayList<>();
                            if ((m.getSysFlag() & INNER_BATCH) != 0) {
                                try {
                                    MessageDecoder.decodeMessages(ByteBuffer.wrap(m.getBody()))
                                            .forEach(inner -> bodies.add(inner.getBody()));
                                } catch (Exception e) {
                                    problems.add(topic + "/" + q + "@" + m.getQueueOffset() + ": " + e);
                                }
                            } else {
                                bodies.add(m.getBody());
                            }
                            for (byte[] body : bodies) {
                                if (!received.ids.contains(ByteBuffer.wrap(body).getLong())) {
                                    problems.add(topic + "/" + q + "@" + m.getQueueOffset());
                                }
                            }
                        }
                    }
                    if (r.nextOffset() <= offset) {
                        problems.add(topic + "/" + q + ": read stuck at " + offset + " " + r.status());
                        break;
                    }
                    offset = r.nextOffset();
                }
            }
        }
        return problems.toString();
    }

    private static List<Long> offsets(List<MessageExt> messages) {
        return messages.stream().map(MessageExt::getQueueOffset).toList();
    }

    /** A 1 KiB message whose body starts with {@code id}, keyed. */
    static Message message(String topic, long id) {
        ByteBuffer body = ByteBuffer.allocate(BODY_BYTES);
        body.putLong(id);
        while (body.hasRemaining()) {
            body.put((byte) (id + body.position()));
        }
        Message message = new Message(topic, body.array());
        message.setKeys("key-" + id);
        return message;
    }

    /** Shuts Apache clients down in parallel (each takes a moment); waits for all. */
    static void shutdownAll(Runnable... shutdowns) {
        List<Thread> threads = new ArrayList<>();
        for (Runnable shutdown : shutdowns) {
            Thread thread = new Thread(shutdown, "client-shutdown");
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** What a consumer received: ids, duplicates, and per-queue offsets. Thread-safe. */
    static final class Received {
        private final Set<Long> ids = ConcurrentHashMap.newKeySet();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong deliveries = new AtomicLong();
        private final AtomicLong redeliveries = new AtomicLong();
        private final Map<String, AtomicLong> duplicatesByQueue = new ConcurrentHashMap<>();
        private final Map<String, Set<Long>> offsetsByQueue = new ConcurrentHashMap<>();
        private final AtomicReference<String> badBody = new AtomicReference<>();

        void add(MessageExt message) {
            ByteBuffer body = ByteBuffer.wrap(message.getBody());
            long id = body.getLong();
            if (!ids.add(id)) {
                duplicates.incrementAndGet();
                duplicatesByQueue.computeIfAbsent(message.getTopic() + "/" + message.getQueueId(),
                        k -> new AtomicLong()).incrementAndGet();
            }
            for (int i = Long.BYTES; i < message.getBody().length; i++) {
                if (message.getBody()[i] != (byte) (id + i)) {
                    badBody.compareAndSet(null, "message " + id + " byte " + i);
                    break;
                }
            }
            deliveries.incrementAndGet();
            if (!offsetsByQueue.computeIfAbsent(message.getTopic() + "/" + message.getQueueId(),
                    k -> ConcurrentHashMap.newKeySet()).add(message.getQueueOffset())) {
                redeliveries.incrementAndGet();
            }
        }

        long distinct() {
            return ids.size();
        }

        /**
         * Every message sent was received intact, and no stored offset was delivered twice. (A message stored twice
         * because the producer re-sent a batch whose answer it missed is delivered twice, once per offset.)
         */
        void assertComplete(long total) {
            assertEquals(total, ids.size());
            assertEquals(null, badBody.get());
            assertEquals(0, redeliveries.get(), "stored offsets delivered more than once");
            if (duplicates.get() > 0) {
                LOG.warn("{} messages were stored twice (producer re-sends): {}", duplicates.get(),
                        new TreeMap<>(duplicatesByQueue));
            }
        }

        /** Queues whose delivered offsets do not yet cover 0 .. maxOffset - 1: queue to "received/max". */
        Map<String, String> deficits(List<String> topics, int queues, MessageStore store) {
            Map<String, String> behind = new TreeMap<>();
            for (String topic : topics) {
                for (int q = 0; q < queues; q++) {
                    int got = offsetsByQueue.getOrDefault(topic + "/" + q, Set.of()).size();
                    long max = store.maxOffset(topic, q);
                    if (got != max) {
                        behind.put(topic + "/" + q, got + "/" + max);
                    }
                }
            }
            return behind;
        }

        /** Every offset of every queue of {@code topic} was delivered, 0 .. maxOffset - 1. */
        void assertEveryOffsetOnce(String topic, int queues, MessageStore store) {
            Map<Integer, String> problems = new TreeMap<>();
            long seen = 0;
            for (int q = 0; q < queues; q++) {
                Set<Long> offsets = offsetsByQueue.getOrDefault(topic + "/" + q, Set.of());
                long max = store.maxOffset(topic, q);
                seen += offsets.size();
                if (offsets.size() != max || !offsets.stream().allMatch(o -> o >= 0 && o < max)) {
                    problems.put(q, offsets.size() + " offsets, max offset " + max);
                }
            }
            assertTrue(problems.isEmpty(), topic + ": " + problems);
            assertFalse(seen == 0, topic + " delivered nothing");
        }
    }
}
