package io.sluice.broker;

import static io.sluice.broker.BrokerDataPathIT.message;
import static io.sluice.broker.BrokerDataPathIT.shutdownAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.broker.meta.MetadataStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tag filtering and consumer offsets across a broker restart, with the unmodified Apache client: a push consumer
 * subscribed to one tag receives exactly the messages carrying it (on a BatchCQ and a SimpleCQ topic); a group's
 * committed offsets survive a restart, so a new consumer of the group receives only what was sent afterwards.
 */
class BrokerFilterAndRestartIT {

    private static final int QUEUES = 4;
    private static final long DEADLINE_MS = 40_000;

    @TempDir
    Path dir;

    private EmbeddedCluster cluster;

    @BeforeEach
    void start() throws Exception {
        // A pipeline shaped through broker.conf, far from the defaults: small chunks, one parse worker, a small
        // ring and no inline chunks, so every message passes reader, worker and writer (before and after restart).
        // Sends run on the send lanes and pulls on the pull pool, not on the I/O threads (the default elsewhere).
        cluster = EmbeddedCluster.start(dir, Map.of("dispatchChunkBytes", "4096", "dispatchMaxRecordsPerChunk", "8",
                "dispatchParseThreads", "1", "dispatchRingSlots", "2", "dispatchInlineMaxBytes", "0",
                "sendOnIoThread", "false", "pullOnIoThread", "false"));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void createTopics(String... topics) throws Exception {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(5_000);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName("AdminInstance-" + System.nanoTime());
        admin.start();
        try {
            for (String topic : topics) {
                TopicConfig config = new TopicConfig(topic, QUEUES, QUEUES, 6);
                if (topic.endsWith("bcq")) {
                    config.getAttributes().put("+queue.type", "BatchCQ");
                }
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), config);
            }
        } finally {
            admin.shutdown();
        }
    }

    private DefaultMQProducer startProducer(String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName("ProducerInstance-" + System.nanoTime());
        producer.setAutoBatch(true);
        producer.setSendMsgTimeout(10_000);
        producer.start();
        return producer;
    }

    private DefaultMQPushConsumer startConsumer(String group, String expression, Map<Long, String> received,
                                                String... topics) throws Exception {
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), group);
        for (String topic : topics) {
            consumer.subscribe(topic, expression);
        }
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.merge(ByteBuffer.wrap(m.getBody()).getLong(),
                    m.getTopic() + ":" + m.getTags(), (a, b) -> a + "," + b));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    @Test
    void pushConsumerReceivesOnlyItsTag() throws Exception {
        createTopics("tag-bcq", "tag-scq");
        Map<Long, String> received = new ConcurrentHashMap<>();
        DefaultMQProducer producer = startProducer("tag-producer");
        DefaultMQPushConsumer consumer = null;
        try {
            int perTopic = 60;
            long id = 0;
            long expectedA = 0;
            for (String topic : List.of("tag-bcq", "tag-scq")) {
                for (int i = 0; i < perTopic; i++) {
                    Message m = message(topic, id++);
                    m.setTags(i % 3 == 0 ? "TagA" : "TagB");
                    expectedA += i % 3 == 0 ? 1 : 0;
                    assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
                }
            }
            consumer = startConsumer("tag-group", "TagA", received, "tag-bcq", "tag-scq");
            long wanted = expectedA;
            Await.until(wanted + " TagA messages", DEADLINE_MS, () -> received.size() >= wanted, received::size);
            for (Map.Entry<Long, String> e : received.entrySet()) {
                assertTrue(e.getValue().endsWith(":TagA") && !e.getValue().contains(","),
                        "message " + e.getKey() + " delivered as " + e.getValue());
                assertEquals(0, (e.getKey() % perTopic) % 3, "message " + e.getKey() + " is not a TagA message");
            }
            assertEquals(wanted, received.size());
        } finally {
            DefaultMQPushConsumer c = consumer;
            shutdownAll(producer::shutdown, c == null ? () -> { } : c::shutdown);
        }
    }

    @Test
    void committedOffsetsSurviveABrokerRestart() throws Exception {
        String topic = "restart-scq";
        String group = "restart-group";
        createTopics(topic);
        Map<Long, String> received = new ConcurrentHashMap<>();
        DefaultMQProducer producer = startProducer("restart-producer");
        DefaultMQPushConsumer consumer = startConsumer(group, "*", received, topic);
        try {
            for (long id = 0; id < 100; id++) {
                producer.send(message(topic, id));
            }
            Await.until("100 messages consumed", DEADLINE_MS, () -> received.size() == 100, received::size);
            Await.until("offsets committed", DEADLINE_MS, () -> committed(topic, group) == 100,
                    () -> committed(topic, group));
        } finally {
            shutdownAll(producer::shutdown, consumer::shutdown);
        }

        cluster.restartBroker();
        assertEquals(100, committed(topic, group), "offsets read back from the metadata store");
        try (RemotingClient client = new RemotingClient(ClientSettings.defaults())) {
            long total = 0;
            for (int q = 0; q < QUEUES; q++) {
                RemotingCommand query = RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                        .putExtField("consumerGroup", group).putExtField("topic", topic)
                        .putExtField("queueId", Integer.toString(q));
                RemotingCommand answer = client.invoke(cluster.brokerAddr(), query, 5_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                total += Long.parseLong(answer.extField("offset"));
            }
            assertEquals(100, total, "QUERY_CONSUMER_OFFSET after the restart");
        }

        Map<Long, String> afterRestart = new ConcurrentHashMap<>();
        DefaultMQProducer producer2 = startProducer("restart-producer");
        DefaultMQPushConsumer consumer2 = startConsumer(group, "*", afterRestart, topic);
        try {
            for (long id = 100; id < 150; id++) {
                assertEquals(SendStatus.SEND_OK, producer2.send(message(topic, id)).getSendStatus());
            }
            Await.until("the 50 new messages consumed", DEADLINE_MS, () -> afterRestart.size() >= 50,
                    afterRestart::size);
            Set<Long> ids = Set.copyOf(afterRestart.keySet());
            assertTrue(ids.stream().allMatch(id -> id >= 100), () -> "re-delivered old messages: " + ids);
            assertEquals(50, ids.size());
        } finally {
            shutdownAll(producer2::shutdown, consumer2::shutdown);
        }
    }

    private long committed(String topic, String group) {
        MetadataStore metadata = cluster.broker().metadata();
        long sum = 0;
        for (int q = 0; q < QUEUES; q++) {
            sum += Math.max(0, metadata.queryOffset(group, topic, q));
        }
        return sum;
    }
}
