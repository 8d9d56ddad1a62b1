package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.body.ProducerConnection;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin requests behind mqadmin clusterList, topicStatus, consumerProgress and queryMsgById. */
class AdminIT {

    private static final String TOPIC = "AdminTopic";
    private static final String GROUP = "admin-g";
    private static final int MESSAGES = 10;

    @TempDir
    Path dir;

    @Test
    void adminToolsSeeTheBrokerTheTopicAndTheConsumerProgress() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "admin-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), GROUP);
            try {
                admin.start();
                String addr = clusterList(admin, cluster);
                admin.createAndUpdateTopicConfig(addr, new TopicConfig(TOPIC, 2, 2, 6));

                producer.start();
                List<SendResult> sent = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    SendResult r = producer.send(new Message(TOPIC, "TagA", "key-" + i,
                            ("body-" + i).getBytes(StandardCharsets.UTF_8)));
                    assertEquals(SendStatus.SEND_OK, r.getSendStatus());
                    sent.add(r);
                }

                // A send is acknowledged once stored; its consume-queue slot follows with dispatch.
                Await.until("topic stats count every sent message", 30_000,
                        () -> storedCount(topicStats(admin)) == MESSAGES, () -> topicStats(admin).getOffsetTable());
                TopicStatsTable stats = admin.examineTopicStats(TOPIC);
                assertEquals(2, stats.getOffsetTable().size());
                assertEquals(MESSAGES, storedCount(stats));
                assertTrue(stats.getOffsetTable().values().stream().anyMatch(o -> o.getLastUpdateTimestamp() > 0));

                MessageExt viewed = admin.viewMessage(TOPIC, sent.get(3).getOffsetMsgId());
                assertEquals("body-3", new String(viewed.getBody(), StandardCharsets.UTF_8));
                assertEquals(sent.get(3).getMsgId(), viewed.getMsgId());
                assertEquals("key-3", viewed.getKeys());

                ProducerConnection producers = admin.examineProducerConnectionInfo("admin-pg", TOPIC);
                assertEquals(1, producers.getConnectionSet().size());

                consume(consumer);
                Await.until("consumerProgress shows diff 0", 30_000, () -> totalDiff(admin) == 0,
                        () -> "diff " + totalDiff(admin));
                ConsumeStats progress = admin.examineConsumeStats(GROUP);
                for (Map.Entry<MessageQueue, ?> e : progress.getOffsetTable().entrySet()) {
                    assertEquals("broker-a", e.getKey().getBrokerName());
                }
                long consumed = progress.getOffsetTable().entrySet().stream()
                        .filter(e -> e.getKey().getTopic().equals(TOPIC))
                        .mapToLong(e -> e.getValue().getConsumerOffset()).sum();
                assertEquals(MESSAGES, consumed);

                ConsumerConnection connection = admin.examineConsumerConnectionInfo(GROUP);
                assertEquals(1, connection.getConnectionSet().size());
                assertTrue(connection.getSubscriptionTable().containsKey(TOPIC));
                assertTrue(connection.getSubscriptionTable().containsKey("%RETRY%" + GROUP));

                KVTable runtime = admin.fetchBrokerRuntimeStats(addr);
                assertTrue(Long.parseLong(runtime.getTable().get("msgPutTotalTodayNow")) >= MESSAGES,
                        runtime.getTable().toString());
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    /** GET_BROKER_CLUSTER_INFO, then GET_BROKER_RUNTIME_INFO and GET_BROKER_CONFIG of the broker. */
    private static String clusterList(DefaultMQAdminExt admin, NamesrvAndBroker cluster) throws Exception {
        ClusterInfo info = admin.examineBrokerClusterInfo();
        String addr = info.getBrokerAddrTable().get("broker-a").getBrokerAddrs().get(0L);
        assertEquals(cluster.brokerAddr(), addr);
        assertEquals(Set.of("broker-a"), info.getClusterAddrTable().get("DefaultCluster"));
        KVTable runtime = admin.fetchBrokerRuntimeStats(addr);
        Map<String, String> t = runtime.getTable();
        for (String key : List.of("brokerVersionDesc", "putTps", "getTransferredTps", "msgPutTotalTodayNow",
                "msgGetTotalTodayNow", "commitLogDiskRatio", "earliestMessageTimeStamp", "sendThreadPoolQueueSize")) {
            assertNotNull(t.get(key), key);
        }
        Double.parseDouble(t.get("putTps").split(" ")[0]);
        Properties config = admin.getBrokerConfig(addr);
        assertEquals("broker-a", config.getProperty("brokerName"));
        assertEquals("DefaultCluster", config.getProperty("brokerClusterName"));
        return addr;
    }

    private static void consume(DefaultMQPushConsumer consumer) throws MQClientException {
        Set<String> received = ConcurrentHashMap.newKeySet();
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        Await.until("every message is consumed", 30_000, () -> received.size() == MESSAGES, () -> received);
    }

    /** consumerProgress's total diff, or -1 while the broker reports no offsets yet. */
    private static long totalDiff(DefaultMQAdminExt admin) {
        try {
            ConsumeStats stats = admin.examineConsumeStats(GROUP);
            return stats.getOffsetTable().isEmpty() ? -1 : stats.computeTotalDiff();
        } catch (Exception e) {
            return -1;
        }
    }

    private static TopicStatsTable topicStats(DefaultMQAdminExt admin) {
        try {
            return admin.examineTopicStats(TOPIC);
        } catch (Exception e) {
            throw new AssertionError("examineTopicStats(" + TOPIC + ") failed", e);
        }
    }

    private static long storedCount(TopicStatsTable stats) {
        return stats.getOffsetTable().values().stream().mapToLong(o -> o.getMaxOffset() - o.getMinOffset()).sum();
    }
}
