package io.sluice.remoting.protocol.body;

import io.sluice.format.TopicFilterType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BodyCodecTest {

    private static String text(Object body) {
        return new String(BodyCodec.encode(body), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldWriteTopicRouteDataExactlyAsTheApacheNameServer() {
        TopicRouteData route = TopicRouteData.of(
                List.of(new BrokerData("DefaultCluster", "broker-a", Map.of(0L, "127.0.0.1:10911"), false)),
                List.of(new QueueData("broker-a", 4, 4, 6, 0)));

        assertEquals("{\"brokerDatas\":[{\"brokerAddrs\":{\"0\":\"127.0.0.1:10911\"},\"brokerName\":\"broker-a\","
                + "\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}],\"filterServerTable\":{},"
                + "\"queueDatas\":[{\"brokerName\":\"broker-a\",\"perm\":6,\"readQueueNums\":4,\"topicSysFlag\":0,"
                + "\"writeQueueNums\":4}]}", text(route));
    }

    @Test
    void shouldAlwaysWriteEmptyRouteListsRatherThanOmitThem() {
        JSONObject json = JSON.parseObject(text(TopicRouteData.of(null, null)));

        assertEquals(Set.of("brokerDatas", "queueDatas", "filterServerTable"), json.keySet());
        assertEquals(0, json.getJSONArray("brokerDatas").size());
        assertEquals(0, json.getJSONArray("queueDatas").size());
    }

    @Test
    void shouldWriteOrderTopicConfOnlyWhenPresent() {
        TopicRouteData ordered = new TopicRouteData(List.of(), List.of(), Map.of(), "broker-a:4");

        assertEquals("broker-a:4", JSON.parseObject(text(ordered)).getString("orderTopicConf"));
    }

    @Test
    void shouldQuoteBrokerIdKeysAndSortThem() {
        BrokerData broker = new BrokerData("c", "b", Map.of(2L, "h2:1", 0L, "h0:1", 1L, "h1:1"), true);

        assertEquals("{\"brokerAddrs\":{\"0\":\"h0:1\",\"1\":\"h1:1\",\"2\":\"h2:1\"},\"brokerName\":\"b\","
                + "\"cluster\":\"c\",\"enableActingMaster\":true}", text(broker));
    }

    @Test
    void shouldReadBrokerIdKeysInBothQuotedAndBareForm() {
        BrokerData broker = BodyCodec.decode(
                bytes("{\"brokerAddrs\":{0:\"a:1\",\"1\":\"b:1\"},\"brokerName\":\"b\",\"cluster\":\"c\"}"),
                BrokerData.class);

        assertEquals(Map.of(0L, "a:1", 1L, "b:1"), broker.brokerAddrs());
    }

    @Test
    void shouldWriteClusterInfoWithSortedMembers() {
        ClusterInfo info = new ClusterInfo(
                Map.of("broker-a", new BrokerData("DefaultCluster", "broker-a", Map.of(0L, "127.0.0.1:10911"), false)),
                Map.of("DefaultCluster", Set.of("broker-a")));

        assertEquals("{\"brokerAddrTable\":{\"broker-a\":{\"brokerAddrs\":{\"0\":\"127.0.0.1:10911\"},"
                + "\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}},"
                + "\"clusterAddrTable\":{\"DefaultCluster\":[\"broker-a\"]}}", text(info));
    }

    @Test
    void shouldReadTheObservedRegisterBrokerBody() {
        String observed = "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{"
                + "\"dataVersion\":{\"counter\":1,\"stateVersion\":0,\"timestamp\":1795250930447},"
                + "\"mappingDataVersion\":{\"counter\":0,\"stateVersion\":0,\"timestamp\":1795250930455},"
                + "\"topicConfigTable\":{\"RocketMQ-Benchmark-bcq\":{\"attributes\":{\"queue.type\":\"BatchCQ\"},"
                + "\"order\":false,\"perm\":6,\"readQueueNums\":4,\"topicFilterType\":\"SINGLE_TAG\","
                + "\"topicName\":\"RocketMQ-Benchmark-bcq\",\"topicSysFlag\":0,\"writeQueueNums\":4}},"
                + "\"topicQueueMappingDetailMap\":{},\"topicQueueMappingInfoMap\":{}}}";

        RegisterBrokerBody body = BodyCodec.decode(bytes(observed), RegisterBrokerBody.class);

        TopicConfigSerializeWrapper wrapper = body.topicConfigSerializeWrapper();
        assertEquals(new DataVersion(0, 1795250930447L, 1), wrapper.dataVersion());
        assertEquals(new TopicConfigWire("RocketMQ-Benchmark-bcq", 4, 4, 6, TopicFilterType.SINGLE_TAG, 0, false,
                Map.of("queue.type", "BatchCQ")), wrapper.topicConfigTable().get("RocketMQ-Benchmark-bcq"));
        assertEquals(List.of(), body.filterServerList());
    }

    @Test
    void shouldWriteRegisterBrokerBodyWithEmptyMappingSections() {
        RegisterBrokerBody body = new RegisterBrokerBody(TopicConfigSerializeWrapper.of(new DataVersion(0, 5, 1),
                Map.of("T", TopicConfigWire.of("T", 4, 6))), List.of());

        assertEquals("{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{"
                + "\"dataVersion\":{\"counter\":1,\"stateVersion\":0,\"timestamp\":5},"
                + "\"mappingDataVersion\":{\"counter\":0,\"stateVersion\":0,\"timestamp\":0},"
                + "\"topicConfigTable\":{\"T\":{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
                + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"T\",\"topicSysFlag\":0,\"writeQueueNums\":4}},"
                + "\"topicQueueMappingDetailMap\":{},\"topicQueueMappingInfoMap\":{}}}", text(body));
    }

    @Test
    void shouldWriteQueueKeysAsQuotedQueueJson() {
        TopicStatsTable stats = new TopicStatsTable(
                Map.of(new MessageQueue("T", "broker-a", 0), new TopicOffset(0, 10, 123)), 0.0);

        assertEquals("{\"offsetTable\":{\"{\\\"brokerName\\\":\\\"broker-a\\\",\\\"queueId\\\":0,"
                + "\\\"topic\\\":\\\"T\\\"}\":{\"lastUpdateTimestamp\":123,\"maxOffset\":10,\"minOffset\":0}},"
                + "\"topicPutTps\":0.0}", text(stats));
    }

    @Test
    void shouldReadTheApacheBareObjectQueueKeys() {
        String apache = "{\"consumeTps\":2.1,\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,"
                + "\"topic\":\"T\"}:{\"brokerOffset\":1,\"consumerOffset\":1,\"lastTimestamp\":1795250979449,"
                + "\"pullOffset\":1}}}";

        ConsumeStats stats = BodyCodec.decode(bytes(apache), ConsumeStats.class);

        assertEquals(2.1, stats.consumeTps());
        assertEquals(Map.of(new MessageQueue("T", "broker-a", 0), new OffsetWrapper(1, 1, 1, 1795250979449L)),
                stats.offsetTable());
    }

    @Test
    void shouldReadTheApacheBareObjectQueueKeysOfTopicStats() {
        String apache = "{\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":3,\"topic\":\"T\"}:"
                + "{\"lastUpdateTimestamp\":9,\"maxOffset\":1,\"minOffset\":0}}}";

        TopicStatsTable stats = BodyCodec.decode(bytes(apache), TopicStatsTable.class);

        assertEquals(Map.of(new MessageQueue("T", "b", 3), new TopicOffset(0, 1, 9)), stats.offsetTable());
        assertEquals(0.0, stats.topicPutTps());
    }

    @Test
    void shouldReadTheObservedHeartbeat() {
        String observed = "{\"clientID\":\"192.0.2.2@ConsumerInstancex\",\"consumerDataSet\":[{"
                + "\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\","
                + "\"groupName\":\"sub-x\",\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":["
                + "{\"classFilterMode\":false,\"codeSet\":[2598921,2598920],\"expressionType\":\"TAG\","
                + "\"subString\":\"TagB || TagC\",\"subVersion\":1795250930484,\"tagsSet\":[\"TagC\",\"TagB\"],"
                + "\"topic\":\"RocketMQ-Benchmark-bcq\"}],\"unitMode\":false}],\"heartbeatFingerprint\":0,"
                + "\"producerDataSet\":[{\"groupName\":\"CLIENT_INNER_PRODUCER\"}],\"withoutSub\":false}";

        HeartbeatData heartbeat = BodyCodec.decode(bytes(observed), HeartbeatData.class);

        assertEquals("192.0.2.2@ConsumerInstancex", heartbeat.clientID());
        assertEquals(Set.of(new ProducerData("CLIENT_INNER_PRODUCER")), heartbeat.producerDataSet());
        ConsumerData consumer = heartbeat.consumerDataSet().iterator().next();
        assertEquals(new ConsumerData("sub-x", ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING,
                ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET, Set.of(new SubscriptionData("RocketMQ-Benchmark-bcq",
                        "TagB || TagC", Set.of("TagB", "TagC"), Set.of(2598921, 2598920), 1795250930484L, "TAG",
                        false)), false), consumer);
    }

    @Test
    void shouldWriteLockBodiesWithApacheKeys() {
        LockBatchRequestBody request = new LockBatchRequestBody("CG", "cid", false,
                Set.of(new MessageQueue("T1", "broker-a", 0)));
        LockBatchResponseBody response = new LockBatchResponseBody(Set.of(new MessageQueue("T1", "broker-a", 0)));

        assertEquals("{\"clientId\":\"cid\",\"consumerGroup\":\"CG\",\"mqSet\":[{\"brokerName\":\"broker-a\","
                + "\"queueId\":0,\"topic\":\"T1\"}],\"onlyThisBroker\":false}", text(request));
        assertEquals("{\"lockOKMQSet\":[{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"T1\"}]}",
                text(response));
    }

    @Test
    void shouldWriteSmallBodiesWithApacheKeys() {
        assertEquals("{\"consumerIdList\":[\"a@1\"]}", text(new GetConsumerListByGroupResponseBody(List.of("a@1"))));
        assertEquals("{\"topicList\":[\"TBW102\"]}", text(TopicList.of(Set.of("TBW102"))));
        assertEquals("{\"table\":{\"a\":\"1\",\"b\":\"2\"}}", text(new KVTable(Map.of("b", "2", "a", "1"))));
        assertEquals("{\"counter\":3,\"stateVersion\":1,\"timestamp\":2}", text(new DataVersion(1, 2, 3)));
    }

    @Test
    void shouldWriteConsumerConnectionWithApacheKeys() {
        ConsumerConnection connection = new ConsumerConnection(
                Set.of(new ConnectionEntry("cid", "1.2.3.4:5", "JAVA", 441)),
                Map.of("T1", new SubscriptionData("T1", "*", Set.of(), Set.of(), 7, "TAG", false)),
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);

        assertEquals("{\"connectionSet\":[{\"clientAddr\":\"1.2.3.4:5\",\"clientId\":\"cid\",\"language\":\"JAVA\","
                + "\"version\":441}],\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\","
                + "\"consumeType\":\"CONSUME_PASSIVELY\",\"messageModel\":\"CLUSTERING\",\"subscriptionTable\":{"
                + "\"T1\":{\"classFilterMode\":false,\"codeSet\":[],\"expressionType\":\"TAG\",\"subString\":\"*\","
                + "\"subVersion\":7,\"tagsSet\":[],\"topic\":\"T1\"}}}", text(connection));
    }

    @Test
    void shouldTreatAbsentCollectionsAsEmpty() {
        ClusterInfo info = BodyCodec.decode(bytes("{}"), ClusterInfo.class);
        TopicList list = BodyCodec.decode(bytes("{\"unknownKey\":[1,2]}"), TopicList.class);

        assertEquals(Map.of(), info.brokerAddrTable());
        assertEquals(Map.of(), info.clusterAddrTable());
        assertEquals(Set.of(), list.topicList());
    }

    @Test
    void shouldNameTheTypeWhenTheJsonIsMalformed() {
        BodyFormatException error = assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"brokerDatas\":[{\"brokerName\":"), TopicRouteData.class));

        assertTrue(error.getMessage().startsWith("malformed TopicRouteData body: "), error.getMessage());
        assertEquals(TopicRouteData.class, error.bodyType());
    }

    @Test
    void shouldRejectEmptyNullAndTrailingInput() {
        assertThrows(BodyFormatException.class, () -> BodyCodec.decode(new byte[0], KVTable.class));
        assertThrows(BodyFormatException.class, () -> BodyCodec.decode(null, KVTable.class));
        assertThrows(BodyFormatException.class, () -> BodyCodec.decode(bytes("null"), KVTable.class));
        assertThrows(BodyFormatException.class, () -> BodyCodec.decode(bytes("{} x"), KVTable.class));
        assertThrows(BodyFormatException.class, () -> BodyCodec.decode(bytes("[1]"), KVTable.class));
    }

    @Test
    void shouldNameAMissingRequiredMember() {
        BodyFormatException error = assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"producerDataSet\":[]}"), HeartbeatData.class));

        assertTrue(error.getMessage().contains("clientID is missing"), error.getMessage());
    }

    @Test
    void shouldRejectAnUnknownEnumName() {
        String json = "{\"clientID\":\"c\",\"consumerDataSet\":[{\"groupName\":\"g\",\"consumeType\":\"SOMETIMES\","
                + "\"messageModel\":\"CLUSTERING\",\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\"}]}";

        BodyFormatException error = assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes(json), HeartbeatData.class));

        assertTrue(error.getMessage().contains("SOMETIMES"), error.getMessage());
    }

    @Test
    void shouldRejectNullElements() {
        BodyFormatException error = assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"consumerIdList\":[\"a\",null]}"),
                        GetConsumerListByGroupResponseBody.class));

        assertTrue(error.getMessage().contains("consumerIdList has a null element"), error.getMessage());
    }

    @Test
    void shouldRejectAWrongValueType() {
        assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"readQueueNums\":\"four\",\"topicName\":\"T\"}"),
                        TopicConfigWire.class));
        assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"offsetTable\":{\"not json\":{}}}"), TopicStatsTable.class));
        assertThrows(BodyFormatException.class,
                () -> BodyCodec.decode(bytes("{\"offsetTable\":[1]}"), ConsumeStats.class));
    }

    @Test
    void shouldKeepNonAsciiTextIntact() {
        TopicList list = TopicList.of(Set.of("主题-ü"));

        assertEquals(list, BodyCodec.decode(BodyCodec.encode(list), TopicList.class));
    }
}
