package io.sluice.namesrv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.ConnectionEntry;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeStats;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerConnection;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.GetConsumerListByGroupResponseBody;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.protocol.body.LockBatchRequestBody;
import io.sluice.remoting.protocol.body.LockBatchResponseBody;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.OffsetWrapper;
import io.sluice.remoting.protocol.body.ProducerData;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.format.TopicFilterType;
import io.sluice.remoting.protocol.body.TopicList;
import io.sluice.remoting.protocol.body.TopicOffset;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.protocol.body.TopicStatsTable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.junit.jupiter.api.Test;

/**
 * Sluice's JSON bodies against the unmodified Apache classes, which parse with fastjson 1.2.83: what Sluice writes,
 * Apache reads; what Apache writes, Sluice reads.
 */
class BodyCompatibilityTest {

    private static final String ADDR = "127.0.0.1:10911";

    private static <T> T apacheDecode(Object sluiceBody, Class<T> apacheType) {
        return RemotingSerializable.decode(BodyCodec.encode(sluiceBody), apacheType);
    }

    private static org.apache.rocketmq.common.message.MessageQueue apacheQueue(String topic, String broker, int id) {
        return new org.apache.rocketmq.common.message.MessageQueue(topic, broker, id);
    }

    @Test
    void apacheClientReadsOurTopicRoute() {
        TopicRouteData route = TopicRouteData.of(
                List.of(new BrokerData("DefaultCluster", "broker-a", Map.of(0L, ADDR, 1L, "127.0.0.1:10921"), false)),
                List.of(new QueueData("broker-a", 4, 8, 6, 0)));

        var apache = RemotingSerializable.decode(BodyCodec.encode(route),
                org.apache.rocketmq.remoting.protocol.route.TopicRouteData.class);

        assertEquals(1, apache.getBrokerDatas().size());
        var broker = apache.getBrokerDatas().get(0);
        assertEquals("DefaultCluster", broker.getCluster());
        assertEquals("broker-a", broker.getBrokerName());
        assertEquals(ADDR, broker.getBrokerAddrs().get(0L));
        assertEquals(ADDR, broker.selectBrokerAddr());
        assertEquals("127.0.0.1:10921", broker.getBrokerAddrs().get(1L));
        var queue = apache.getQueueDatas().get(0);
        assertEquals("broker-a", queue.getBrokerName());
        assertEquals(4, queue.getReadQueueNums());
        assertEquals(8, queue.getWriteQueueNums());
        assertEquals(6, queue.getPerm());
        assertTrue(apache.getFilterServerTable().isEmpty());
        assertEquals(null, apache.getOrderTopicConf());
    }

    @Test
    void apacheClientReadsAnEmptyRouteAsEmptyLists() {
        var apache = apacheDecode(TopicRouteData.of(List.of(), List.of()),
                org.apache.rocketmq.remoting.protocol.route.TopicRouteData.class);

        assertTrue(apache.getBrokerDatas().isEmpty());
        assertTrue(apache.getQueueDatas().isEmpty());
    }

    @Test
    void weReadTheApacheRouteWithBareNumericKeys() {
        var apache = new org.apache.rocketmq.remoting.protocol.route.TopicRouteData();
        HashMap<Long, String> addrs = new HashMap<>();
        addrs.put(0L, ADDR);
        apache.setBrokerDatas(List.of(
                new org.apache.rocketmq.remoting.protocol.route.BrokerData("c", "broker-a", addrs)));
        var queue = new org.apache.rocketmq.remoting.protocol.route.QueueData();
        queue.setBrokerName("broker-a");
        queue.setReadQueueNums(2);
        queue.setWriteQueueNums(2);
        queue.setPerm(6);
        apache.setQueueDatas(List.of(queue));
        byte[] encoded = apache.encode();
        assertTrue(new String(encoded).contains("{0:"), "Apache writes bare numeric keys");

        TopicRouteData ours = BodyCodec.decode(encoded, TopicRouteData.class);

        assertEquals(List.of(new BrokerData("c", "broker-a", Map.of(0L, ADDR), false)), ours.brokerDatas());
        assertEquals(List.of(new QueueData("broker-a", 2, 2, 6, 0)), ours.queueDatas());
    }

    @Test
    void apacheClientReadsOurClusterInfo() {
        ClusterInfo info = new ClusterInfo(
                Map.of("broker-a", new BrokerData("DefaultCluster", "broker-a", Map.of(0L, ADDR), false),
                        "broker-b", new BrokerData("DefaultCluster", "broker-b", Map.of(0L, "127.0.0.2:10911"), false)),
                Map.of("DefaultCluster", Set.of("broker-a", "broker-b")));

        var apache = apacheDecode(info, org.apache.rocketmq.remoting.protocol.body.ClusterInfo.class);

        assertEquals(Set.of("broker-a", "broker-b"), apache.getClusterAddrTable().get("DefaultCluster"));
        assertEquals(ADDR, apache.getBrokerAddrTable().get("broker-a").getBrokerAddrs().get(0L));
        String[] all = apache.retrieveAllAddrByCluster("DefaultCluster");
        java.util.Arrays.sort(all);
        assertArrayEquals(new String[] {ADDR, "127.0.0.2:10911"}, all);
    }

    @Test
    void apacheClientReadsOurTopicStats() {
        TopicStatsTable stats = new TopicStatsTable(Map.of(
                new MessageQueue("T", "broker-a", 0), new TopicOffset(0, 10, 123),
                new MessageQueue("T", "broker-a", 1), new TopicOffset(5, 7, 456)), 1.5);

        var apache = apacheDecode(stats, org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable.class);

        assertEquals(2, apache.getOffsetTable().size());
        var q0 = apache.getOffsetTable().get(apacheQueue("T", "broker-a", 0));
        assertEquals(0, q0.getMinOffset());
        assertEquals(10, q0.getMaxOffset());
        assertEquals(123, q0.getLastUpdateTimestamp());
        var q1 = apache.getOffsetTable().get(apacheQueue("T", "broker-a", 1));
        assertEquals(5, q1.getMinOffset());
        assertEquals(7, q1.getMaxOffset());
    }

    @Test
    void weReadTheApacheTopicStatsWithObjectKeys() {
        var apache = new org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable();
        var offset = new org.apache.rocketmq.remoting.protocol.admin.TopicOffset();
        offset.setMinOffset(1);
        offset.setMaxOffset(9);
        offset.setLastUpdateTimestamp(77);
        apache.getOffsetTable().put(apacheQueue("T", "b", 2), offset);

        TopicStatsTable ours = BodyCodec.decode(apache.encode(), TopicStatsTable.class);

        assertEquals(Map.of(new MessageQueue("T", "b", 2), new TopicOffset(1, 9, 77)), ours.offsetTable());
    }

    @Test
    void apacheClientReadsOurConsumeStats() {
        ConsumeStats stats = new ConsumeStats(Map.of(
                new MessageQueue("T", "broker-a", 0), new OffsetWrapper(10, 4, 6, 99),
                new MessageQueue("T", "broker-a", 1), new OffsetWrapper(3, 3, 3, 98)), 2.5);

        var apache = apacheDecode(stats, org.apache.rocketmq.remoting.protocol.admin.ConsumeStats.class);

        assertEquals(2.5, apache.getConsumeTps());
        var q0 = apache.getOffsetTable().get(apacheQueue("T", "broker-a", 0));
        assertEquals(10, q0.getBrokerOffset());
        assertEquals(4, q0.getConsumerOffset());
        assertEquals(6, q0.getPullOffset());
        assertEquals(99, q0.getLastTimestamp());
        assertEquals(6, apache.computeTotalDiff());
    }

    @Test
    void weReadTheApacheConsumeStatsWithObjectKeys() {
        var apache = new org.apache.rocketmq.remoting.protocol.admin.ConsumeStats();
        var wrapper = new org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper();
        wrapper.setBrokerOffset(5);
        wrapper.setConsumerOffset(2);
        wrapper.setPullOffset(3);
        wrapper.setLastTimestamp(11);
        apache.getOffsetTable().put(apacheQueue("T", "b", 0), wrapper);
        apache.setConsumeTps(0.5);

        ConsumeStats ours = BodyCodec.decode(apache.encode(), ConsumeStats.class);

        assertEquals(new ConsumeStats(Map.of(new MessageQueue("T", "b", 0), new OffsetWrapper(5, 2, 3, 11)), 0.5),
                ours);
    }

    @Test
    void apacheClientReadsOurConsumerConnection() {
        ConsumerConnection connection = new ConsumerConnection(
                Set.of(new ConnectionEntry("cid", "1.2.3.4:5", "JAVA", 441)),
                Map.of("T1", new SubscriptionData("T1", "TagA || TagB", Set.of("TagA", "TagB"),
                        Set.of("TagA".hashCode(), "TagB".hashCode()), 7, "TAG", false)),
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);

        var apache = apacheDecode(connection, org.apache.rocketmq.remoting.protocol.body.ConsumerConnection.class);

        var only = apache.getConnectionSet().iterator().next();
        assertEquals("cid", only.getClientId());
        assertEquals("1.2.3.4:5", only.getClientAddr());
        assertEquals(org.apache.rocketmq.remoting.protocol.LanguageCode.JAVA, only.getLanguage());
        assertEquals(441, only.getVersion());
        assertEquals(org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType.CONSUME_PASSIVELY,
                apache.getConsumeType());
        assertEquals(org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel.CLUSTERING,
                apache.getMessageModel());
        assertEquals(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
                apache.getConsumeFromWhere());
        var subscription = apache.getSubscriptionTable().get("T1");
        assertEquals("TagA || TagB", subscription.getSubString());
        assertEquals(Set.of("TagA", "TagB"), subscription.getTagsSet());
        assertEquals(7, subscription.getSubVersion());
        assertEquals("TAG", subscription.getExpressionType());
    }

    @Test
    void weReadTheApacheHeartbeat() {
        var subscription = new org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData("T", "TagB || TagC");
        subscription.getTagsSet().add("TagB");
        subscription.getTagsSet().add("TagC");
        subscription.getCodeSet().add("TagB".hashCode());
        subscription.getCodeSet().add("TagC".hashCode());
        subscription.setSubVersion(1795250930484L);
        var consumer = new org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData();
        consumer.setGroupName("sub-x");
        consumer.setConsumeType(org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType.CONSUME_PASSIVELY);
        consumer.setMessageModel(org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel.CLUSTERING);
        consumer.setConsumeFromWhere(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        consumer.getSubscriptionDataSet().add(subscription);
        var producer = new org.apache.rocketmq.remoting.protocol.heartbeat.ProducerData();
        producer.setGroupName("CLIENT_INNER_PRODUCER");
        var heartbeat = new org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData();
        heartbeat.setClientID("192.0.2.2@instance");
        heartbeat.getConsumerDataSet().add(consumer);
        heartbeat.getProducerDataSet().add(producer);

        HeartbeatData ours = BodyCodec.decode(heartbeat.encode(), HeartbeatData.class);

        assertEquals("192.0.2.2@instance", ours.clientID());
        assertEquals(Set.of(new ProducerData("CLIENT_INNER_PRODUCER")), ours.producerDataSet());
        assertEquals(Set.of(new ConsumerData("sub-x", ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING,
                ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET, Set.of(new SubscriptionData("T", "TagB || TagC",
                        Set.of("TagB", "TagC"), Set.of("TagB".hashCode(), "TagC".hashCode()), 1795250930484L,
                        "TAG", false)), false)), ours.consumerDataSet());
        assertFalse(ours.withoutSub());
    }

    @Test
    void apacheReadsOurHeartbeat() {
        HeartbeatData heartbeat = new HeartbeatData("cid", Set.of(new ProducerData("P")), Set.of(new ConsumerData(
                "G", ConsumeType.CONSUME_ACTIVELY, MessageModel.BROADCASTING, ConsumeFromWhere.CONSUME_FROM_TIMESTAMP,
                Set.of(new SubscriptionData("T", "*", Set.of(), Set.of(), 5, "TAG", false)), false)), 0, false);

        var apache = apacheDecode(heartbeat, org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData.class);

        assertEquals("cid", apache.getClientID());
        var consumer = apache.getConsumerDataSet().iterator().next();
        assertEquals("G", consumer.getGroupName());
        assertEquals(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_TIMESTAMP,
                consumer.getConsumeFromWhere());
        assertEquals("*", consumer.getSubscriptionDataSet().iterator().next().getSubString());
    }

    @Test
    void apacheNameServerReadsOurRegisterBrokerBody() throws Exception {
        RegisterBrokerBody body = new RegisterBrokerBody(TopicConfigSerializeWrapper.of(new DataVersion(0, 1234, 3),
                Map.of("T", new TopicConfigWire("T", 4, 4, 6, TopicFilterType.SINGLE_TAG, 0, false,
                        Map.of("queue.type", "BatchCQ")), "TBW102", TopicConfigWire.of("TBW102", 8, 7))), List.of());

        var apache = org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody.decode(BodyCodec.encode(body),
                false, MQVersion.Version.V5_1_4);

        var wrapper = apache.getTopicConfigSerializeWrapper();
        assertEquals(3, wrapper.getDataVersion().getCounter().get());
        assertEquals(1234, wrapper.getDataVersion().getTimestamp());
        TopicConfig topic = wrapper.getTopicConfigTable().get("T");
        assertEquals(4, topic.getReadQueueNums());
        assertEquals(6, topic.getPerm());
        assertEquals(org.apache.rocketmq.common.TopicFilterType.SINGLE_TAG, topic.getTopicFilterType());
        assertEquals(Map.of("queue.type", "BatchCQ"), topic.getAttributes());
        assertEquals(7, wrapper.getTopicConfigTable().get("TBW102").getPerm());
        assertTrue(apache.getFilterServerList().isEmpty());
    }

    @Test
    void weReadTheApacheBrokersRegisterBrokerBody() {
        TopicConfig topic = new TopicConfig("T", 4, 2, 6);
        topic.setAttributes(Map.of("queue.type", "BatchCQ"));
        var wrapper = new TopicConfigAndMappingSerializeWrapper();
        wrapper.setTopicConfigTable(new ConcurrentHashMap<>(Map.of("T", topic)));
        wrapper.getDataVersion().nextVersion();
        var apache = new org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody();
        apache.setTopicConfigSerializeWrapper(wrapper);

        RegisterBrokerBody ours = BodyCodec.decode(apache.encode(false), RegisterBrokerBody.class);

        TopicConfigSerializeWrapper read = ours.topicConfigSerializeWrapper();
        assertEquals(wrapper.getDataVersion().getCounter().get(), read.dataVersion().counter());
        assertEquals(wrapper.getDataVersion().getTimestamp(), read.dataVersion().timestamp());
        assertEquals(new TopicConfigWire("T", 4, 2, 6, TopicFilterType.SINGLE_TAG, 0, false,
                Map.of("queue.type", "BatchCQ")), read.topicConfigTable().get("T"));
    }

    @Test
    void apacheReadsOurTopicConfigWrapperAsAllTopicConfig() {
        TopicConfigSerializeWrapper wrapper = TopicConfigSerializeWrapper.of(new DataVersion(1, 2, 3),
                Map.of("T", TopicConfigWire.of("T", 2, 6)));

        var apache = apacheDecode(wrapper, TopicConfigAndMappingSerializeWrapper.class);

        assertEquals(2, apache.getTopicConfigTable().get("T").getWriteQueueNums());
        assertEquals(1, apache.getDataVersion().getStateVersion());
        assertTrue(apache.getTopicQueueMappingDetailMap().isEmpty());
    }

    @Test
    void apacheReadsOurSmallBodies() {
        var topics = apacheDecode(TopicList.of(Set.of("TBW102", "%RETRY%g")),
                org.apache.rocketmq.remoting.protocol.body.TopicList.class);
        assertEquals(Set.of("TBW102", "%RETRY%g"), topics.getTopicList());

        var kv = apacheDecode(new KVTable(Map.of("brokerActive", "true")),
                org.apache.rocketmq.remoting.protocol.body.KVTable.class);
        assertEquals("true", kv.getTable().get("brokerActive"));

        var ids = apacheDecode(new GetConsumerListByGroupResponseBody(List.of("a@1", "b@2")),
                org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseBody.class);
        assertEquals(List.of("a@1", "b@2"), ids.getConsumerIdList());

        var version = apacheDecode(new DataVersion(4, 5, 6), org.apache.rocketmq.remoting.protocol.DataVersion.class);
        assertEquals(4, version.getStateVersion());
        assertEquals(5, version.getTimestamp());
        assertEquals(6, version.getCounter().get());

        var locked = apacheDecode(new LockBatchResponseBody(Set.of(new MessageQueue("T1", "broker-a", 3))),
                org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody.class);
        assertEquals(Set.of(apacheQueue("T1", "broker-a", 3)), locked.getLockOKMQSet());
    }

    @Test
    void weReadTheApacheLockRequest() {
        var apache = new org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody();
        apache.setConsumerGroup("CG");
        apache.setClientId("cid");
        apache.setMqSet(new HashSet<>(Set.of(apacheQueue("T1", "broker-a", 0))));

        LockBatchRequestBody ours = BodyCodec.decode(apache.encode(), LockBatchRequestBody.class);

        assertEquals(new LockBatchRequestBody("CG", "cid", false, Set.of(new MessageQueue("T1", "broker-a", 0))),
                ours);
    }

    @Test
    void weReadTheApacheTopicListAndDataVersion() {
        var apacheTopics = new org.apache.rocketmq.remoting.protocol.body.TopicList();
        apacheTopics.setTopicList(new HashSet<>(Set.of("A", "B")));
        var apacheVersion = new org.apache.rocketmq.remoting.protocol.DataVersion();
        apacheVersion.nextVersion();

        assertEquals(Set.of("A", "B"), BodyCodec.decode(apacheTopics.encode(), TopicList.class).topicList());
        DataVersion version = BodyCodec.decode(apacheVersion.encode(), DataVersion.class);
        assertEquals(apacheVersion.getCounter().get(), version.counter());
        assertEquals(apacheVersion.getTimestamp(), version.timestamp());
    }

    @Test
    void apacheAdminReadsOurTopicConfigAsTheGetTopicConfigBody() {
        TopicConfigWire config = new TopicConfigWire("T", 4, 2, 6, TopicFilterType.SINGLE_TAG, 0, true,
                Map.of("queue.type", "BatchCQ"));

        var apache = apacheDecode(config,
                org.apache.rocketmq.remoting.protocol.statictopic.TopicConfigAndQueueMapping.class);

        assertEquals("T", apache.getTopicName());
        assertEquals(4, apache.getReadQueueNums());
        assertEquals(2, apache.getWriteQueueNums());
        assertTrue(apache.isOrder());
        assertEquals(Map.of("queue.type", "BatchCQ"), apache.getAttributes());
        assertEquals(null, apache.getMappingDetail());
    }

    @Test
    void weReadApacheRuntimeInfoAndConsumerConnections() {
        var kv = new org.apache.rocketmq.remoting.protocol.body.KVTable();
        kv.getTable().put("brokerVersionDesc", "V5_1_4");
        var connection = new org.apache.rocketmq.remoting.protocol.body.Connection();
        connection.setClientId("cid");
        connection.setClientAddr("1.2.3.4:5");
        connection.setLanguage(org.apache.rocketmq.remoting.protocol.LanguageCode.JAVA);
        connection.setVersion(479);
        var consumers = new org.apache.rocketmq.remoting.protocol.body.ConsumerConnection();
        consumers.getConnectionSet().add(connection);
        consumers.getSubscriptionTable().put("T",
                new org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData("T", "*"));
        consumers.setConsumeType(org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType.CONSUME_ACTIVELY);
        consumers.setMessageModel(org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel.BROADCASTING);
        consumers.setConsumeFromWhere(
                org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);

        KVTable ourKv = BodyCodec.decode(kv.encode(), KVTable.class);
        ConsumerConnection ours = BodyCodec.decode(consumers.encode(), ConsumerConnection.class);

        assertEquals(Map.of("brokerVersionDesc", "V5_1_4"), ourKv.table());
        assertEquals(Set.of(new ConnectionEntry("cid", "1.2.3.4:5", "JAVA", 479)), ours.connectionSet());
        assertEquals("*", ours.subscriptionTable().get("T").subString());
        assertEquals(ConsumeType.CONSUME_ACTIVELY, ours.consumeType());
        assertEquals(MessageModel.BROADCASTING, ours.messageModel());
        assertEquals(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET, ours.consumeFromWhere());
    }

    @Test
    void ourBodyChecksumIsApachesChecksum() {
        byte[] body = BodyCodec.encode(new RegisterBrokerBody(
                TopicConfigSerializeWrapper.of(new DataVersion(0, 1, 1), Map.of("T", TopicConfigWire.of("T", 4, 6))),
                List.of()));

        assertEquals(org.apache.rocketmq.common.UtilAll.crc32(body), RegisterBrokerBody.crc32(body));
        assertEquals(0, RegisterBrokerBody.crc32(null));
    }
}
