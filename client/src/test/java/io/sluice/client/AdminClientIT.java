package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.TopicOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The admin client against the Sluice broker and the Apache 5.3.3 broker and name server. */
class AdminClientIT {

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

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldCreateReadUpdateAndDeleteTopicsWithTheirQueueType(TestCluster cluster) {
        try (Admin admin = Admin.start(cluster.connection())) {
            ClusterInfo info = admin.clusterInfo();
            BrokerData broker = info.brokerAddrTable().get(cluster.brokerName());
            assertEquals(cluster.brokerAddress(), broker.brokerAddrs().get(0L));
            assertEquals(List.of(cluster.brokerAddress()), admin.masterAddresses(TestCluster.CLUSTER));

            String topic = "AdminT_" + Long.toHexString(System.nanoTime());
            admin.createTopic(TopicSpec.of(topic, 4).withQueueType(ConsumeQueueType.BATCH), TestCluster.CLUSTER);
            TopicSpec created = admin.topicConfig(topic, cluster.brokerAddress());
            assertEquals(ConsumeQueueType.BATCH, created.queueType());
            assertEquals(4, created.readQueueNums());
            assertEquals(6, created.perm());
            Await.until("route with 4 queues", () -> routeQueues(admin, topic) == 4);

            admin.updateTopic(TopicSpec.of(topic, 8).withQueueType(ConsumeQueueType.BATCH), TestCluster.CLUSTER);
            assertEquals(8, admin.topicConfig(topic, cluster.brokerAddress()).writeQueueNums());
            assertEquals(ConsumeQueueType.BATCH, admin.topicConfig(topic, cluster.brokerAddress()).queueType());
            Await.until("route with 8 queues", () -> routeQueues(admin, topic) == 8);
            IllegalArgumentException change = assertThrows(IllegalArgumentException.class,
                    () -> admin.updateTopic(TopicSpec.of(topic, 8), TestCluster.CLUSTER));
            assertTrue(change.getMessage().contains("BatchCQ and cannot change to SimpleCQ"), change.getMessage());
            assertTrue(admin.topicList().contains(topic));

            admin.deleteTopic(topic, TestCluster.CLUSTER);
            assertEquals(null, admin.topicConfig(topic, cluster.brokerAddress()));
            BrokerErrorException gone = assertThrows(BrokerErrorException.class, () -> admin.topicRoute(topic));
            assertEquals(ResponseCode.TOPIC_NOT_EXIST, gone.code());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldReportTopicStatsAndConsumerLag(TestCluster cluster) throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "AdminStats", 2, ConsumeQueueType.SIMPLE);
        String group = "admin-" + System.nanoTime();
        MessageQueue queue = new MessageQueue(topic, cluster.brokerName(), 0);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).build());
             Admin admin = Admin.start(cluster.connection());
             LitePullConsumer consumer = LitePullConsumer.start(LitePullSettings.builder(cluster.connection(), group)
                     .build())) {
            for (int i = 0; i < 10; i++) {
                producer.send(Message.of(topic, "x".getBytes()), queue);
            }
            Await.until("10 messages indexed", () -> admin.maxOffset(queue) == 10);
            consumer.commit(Map.of(queue, 4L));
            Map<MessageQueue, TopicOffset> stats = admin.topicStats(topic);
            assertEquals(10, stats.get(queue).maxOffset());
            assertEquals(0, stats.get(queue).minOffset());
            ConsumerProgress progress = admin.consumerProgress(group, topic);
            assertEquals(4, progress.queues().get(queue).consumerOffset());
            assertEquals(6, progress.totalLag());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void shouldRejectBadTopicSpecsBeforeSending(TestCluster cluster) {
        assertEquals("readQueueNums must be in [1, 65535], was 0",
                assertThrows(IllegalArgumentException.class, () -> TopicSpec.of("T", 0)).getMessage());
        assertEquals("topic 'a b' contains characters outside [%|a-zA-Z0-9_-]",
                assertThrows(IllegalArgumentException.class, () -> TopicSpec.of("a b", 1)).getMessage());
        try (Admin admin = Admin.start(cluster.connection())) {
            ClientException noCluster = assertThrows(ClientException.class,
                    () -> admin.createTopic(TopicSpec.of("T1", 1), "NoSuchCluster"));
            assertTrue(noCluster.getMessage().contains("NoSuchCluster"), noCluster.getMessage());
        }
    }

    private static int routeQueues(Admin admin, String topic) {
        try {
            return admin.topicRoute(topic).queueDatas().get(0).writeQueueNums();
        } catch (ClientException e) {
            return -1;
        }
    }
}
