package io.sluice.namesrv;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.remoting.ChannelEventListener;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.body.TopicList;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerResponseHeader;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real {@link NameServer} on a free loopback port, driven by the unmodified Apache client classes: brokers
 * register through Apache's {@code NettyRemotingClient} with an Apache {@code RegisterBrokerBody}, and the admin
 * tool ({@code DefaultMQAdminExt}) reads clusters, routes and topic lists. Run once with the default (JSON)
 * serialization and once more by Failsafe with {@code -Drocketmq.serialize.type=ROCKETMQ}; the per-request tests
 * below also pick each type explicitly.
 */
class NameServerIT {

    private static final String CLUSTER = "DefaultCluster";
    private static final String BROKER_ADDR = "127.0.0.1:10911";
    private static final String SLAVE_ADDR = "127.0.0.1:10921";
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** One admin and one broker-side client for the class: each Apache client takes about 3 s to shut down. */
    private static DefaultMQAdminExt admin;
    private static NettyRemotingClient broker;
    private static final Map<String, AtomicInteger> BROKER_SIDE_CLOSES = new ConcurrentHashMap<>();

    private final AtomicLong clockMs = new AtomicLong(1_000_000);
    private NameServer nameServer;
    private String nameServerAddr;

    @BeforeAll
    static void startClients() throws Exception {
        broker = new NettyRemotingClient(new NettyClientConfig(), new ClosedChannelRecorder());
        broker.start();
        admin = new DefaultMQAdminExt(5_000);
        admin.setNamesrvAddr("127.0.0.1:9");
        admin.setInstanceName("namesrv-it-" + System.nanoTime());
        admin.start();
    }

    @AfterAll
    static void stopClients() throws Exception {
        Thread adminStop = new Thread(admin::shutdown, "admin-shutdown");
        adminStop.start();
        broker.shutdown();
        adminStop.join();
    }

    /** Each test gets a fresh name server; the shared clients are pointed at it. */
    @BeforeEach
    void startNameServer() {
        NamesrvSettings settings = NamesrvSettings.defaults().withListen("127.0.0.1", 0).withExpiry(20, 120_000);
        nameServer = new NameServer(settings, clockMs::get);
        nameServer.start();
        nameServerAddr = "127.0.0.1:" + nameServer.port();
        admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl()
                .updateNameServerAddressList(nameServerAddr);
    }

    @AfterEach
    void stopNameServer() {
        nameServer.close();
    }

    /** Counts the connections the name server closes on the broker side, by name-server address. */
    private static final class ClosedChannelRecorder implements ChannelEventListener {
        @Override
        public void onChannelConnect(String remoteAddr, Channel channel) {
        }

        @Override
        public void onChannelClose(String remoteAddr, Channel channel) {
            BROKER_SIDE_CLOSES.computeIfAbsent(remoteAddr, addr -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void onChannelException(String remoteAddr, Channel channel) {
        }

        @Override
        public void onChannelIdle(String remoteAddr, Channel channel) {
        }

        @Override
        public void onChannelActive(String remoteAddr, Channel channel) {
        }
    }

    private static byte[] registerBody(long counter, String... topics) {
        TopicConfigAndMappingSerializeWrapper wrapper = new TopicConfigAndMappingSerializeWrapper();
        for (String topic : topics) {
            TopicConfig config = topic.equals("TBW102") ? new TopicConfig(topic, 8, 8, 7)
                    : new TopicConfig(topic, 4, 4, 6);
            wrapper.getTopicConfigTable().put(topic, config);
        }
        wrapper.getDataVersion().setCounter(new AtomicLong(counter));
        wrapper.getDataVersion().setTimestamp(counter);
        RegisterBrokerBody body = new RegisterBrokerBody();
        body.setTopicConfigSerializeWrapper(wrapper);
        return body.encode(false);
    }

    private static RemotingCommand registerRequest(long brokerId, String addr, byte[] body, SerializeType type) {
        return registerRequest(brokerId, addr, body, type, UtilAll.crc32(body));
    }

    private static RemotingCommand registerRequest(long brokerId, String addr, byte[] body, SerializeType type,
                                                   int bodyCrc32) {
        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader();
        header.setBrokerName("broker-a");
        header.setBrokerAddr(addr);
        header.setClusterName(CLUSTER);
        header.setHaServerAddr(addr.replace(":109", ":209"));
        header.setBrokerId(brokerId);
        header.setCompressed(false);
        header.setEnableActingMaster(false);
        header.setBodyCrc32(bodyCrc32);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, header);
        request.setBody(body);
        request.setSerializeTypeCurrentRPC(type);
        return request;
    }

    private RemotingCommand invoke(NettyRemotingClient client, RemotingCommand request) throws Exception {
        return client.invokeSync(nameServerAddr, request, 5_000);
    }

    private void registerMaster(NettyRemotingClient client) throws Exception {
        RemotingCommand response = invoke(client,
                registerRequest(0, BROKER_ADDR, registerBody(1, "TBW102", "TopicA"), SerializeType.JSON));
        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.getRemark());
    }

    private static int responseCodeOf(Exception e) {
        return ((MQClientException) e).getResponseCode();
    }

    @Test
    void apacheAdminSeesTheRegisteredBroker() throws Exception {
        registerMaster(broker);

        ClusterInfo cluster = admin.examineBrokerClusterInfo();
        TopicRouteData route = admin.examineTopicRouteInfo("TopicA");
        TopicList all = admin.fetchAllTopicList();
        TopicList ofCluster = admin.fetchTopicsByCLuster(CLUSTER);

        assertEquals(Set.of("broker-a"), cluster.getClusterAddrTable().get(CLUSTER));
        assertEquals(BROKER_ADDR, cluster.getBrokerAddrTable().get("broker-a").getBrokerAddrs().get(0L));
        assertEquals(1, route.getBrokerDatas().size());
        assertEquals(BROKER_ADDR, route.getBrokerDatas().get(0).selectBrokerAddr());
        assertEquals(4, route.getQueueDatas().get(0).getWriteQueueNums());
        assertEquals(6, route.getQueueDatas().get(0).getPerm());
        assertEquals(Set.of("TBW102", "TopicA"), all.getTopicList());
        assertTrue(ofCluster.getTopicList().contains("TopicA"), ofCluster.getTopicList().toString());
    }

    @Test
    void apacheAdminGetsTopicNotExistForAnUnknownTopic() throws Exception {
        registerMaster(broker);

        MQClientException error = assertThrows(MQClientException.class,
                () -> admin.examineTopicRouteInfo("NoSuchTopic"));

        assertEquals(ResponseCode.TOPIC_NOT_EXIST, error.getResponseCode());
    }

    @Test
    void incrementalRegistrationsAddTopicsForTheAdmin() throws Exception {
        registerMaster(broker);

        RemotingCommand response = invoke(broker,
                registerRequest(0, BROKER_ADDR, registerBody(2, "TopicB"), SerializeType.JSON));

        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.getRemark());
        assertEquals(Set.of("TBW102", "TopicA", "TopicB"), admin.fetchAllTopicList().getTopicList());
    }

    @Test
    void closingTheRegisteringConnectionRemovesTheRoutes() throws Exception {
        registerMaster(broker);
        assertEquals(1, admin.examineTopicRouteInfo("TopicA").getBrokerDatas().size());

        broker.closeChannels(List.of(nameServerAddr));

        Await.until("routes to be removed on close", WAIT, () -> nameServer.routes().routeOf("TopicA").isEmpty());
        Exception error = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo("TopicA"));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, responseCodeOf(error));
        assertTrue(admin.examineBrokerClusterInfo().getBrokerAddrTable().isEmpty());
    }

    @Test
    void aSilentBrokerExpiresAndItsConnectionIsClosed() throws Exception {
        registerMaster(broker);
        clockMs.addAndGet(120_000);
        registerMaster(broker);

        clockMs.addAndGet(120_000);
        assertTrue(nameServer.routes().routeOf("TopicA").isPresent(), "alive at exactly the timeout");
        clockMs.addAndGet(1);

        Await.until("the scan to expire the broker", WAIT, () -> nameServer.routes().routeOf("TopicA").isEmpty());
        Await.until("the broker's connection to close", WAIT, () -> BROKER_SIDE_CLOSES.containsKey(nameServerAddr));
        Exception error = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo("TopicA"));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, responseCodeOf(error));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void everyQueryWorksInEitherSerializeType(SerializeType type) throws Exception {
        RemotingCommand registered = invoke(broker,
                registerRequest(0, BROKER_ADDR, registerBody(1, "TBW102", "TopicA"), type));
        assertEquals(ResponseCode.SUCCESS, registered.getCode(), registered.getRemark());
        assertEquals(type, registered.getSerializeTypeCurrentRPC());

        GetRouteInfoRequestHeader routeHeader = new GetRouteInfoRequestHeader();
        routeHeader.setTopic("TopicA");
        RemotingCommand routeRequest = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                routeHeader);
        routeRequest.setSerializeTypeCurrentRPC(type);
        RemotingCommand route = invoke(broker, routeRequest);
        RemotingCommand clusterRequest = RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CLUSTER_INFO,
                null);
        clusterRequest.setSerializeTypeCurrentRPC(type);
        RemotingCommand cluster = invoke(broker, clusterRequest);
        RemotingCommand topicsRequest = RemotingCommand.createRequestCommand(
                RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, null);
        topicsRequest.setSerializeTypeCurrentRPC(type);
        RemotingCommand topics = invoke(broker, topicsRequest);

        assertEquals(type, route.getSerializeTypeCurrentRPC());
        TopicRouteData routeData = RemotingSerializable.decode(route.getBody(), TopicRouteData.class);
        assertEquals(BROKER_ADDR, routeData.getBrokerDatas().get(0).getBrokerAddrs().get(0L));
        assertEquals(type, cluster.getSerializeTypeCurrentRPC());
        assertEquals(Set.of("broker-a"), RemotingSerializable.decode(cluster.getBody(), ClusterInfo.class)
                .getClusterAddrTable().get(CLUSTER));
        assertEquals(type, topics.getSerializeTypeCurrentRPC());
        assertEquals(Set.of("TBW102", "TopicA"),
                RemotingSerializable.decode(topics.getBody(), TopicList.class).getTopicList());
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void aSlaveLearnsItsMasterFromTheResponseHeader(SerializeType type) throws Exception {
        registerMaster(broker);

        RemotingCommand response = invoke(broker,
                registerRequest(1, SLAVE_ADDR, registerBody(1, "TBW102", "TopicA"), type));

        RegisterBrokerResponseHeader header = response.decodeCommandCustomHeader(RegisterBrokerResponseHeader.class);
        assertEquals(BROKER_ADDR, header.getMasterAddr());
        assertEquals("127.0.0.1:20911", header.getHaServerAddr());
        Map<Long, String> expected = new HashMap<>(Map.of(0L, BROKER_ADDR, 1L, SLAVE_ADDR));
        assertEquals(expected, admin.examineTopicRouteInfo("TopicA").getBrokerDatas().get(0).getBrokerAddrs());
    }

    @Test
    void aBodyWithTheWrongCrcIsRefused() throws Exception {
        byte[] body = registerBody(1, "TBW102", "TopicA");
        RemotingCommand request = registerRequest(0, BROKER_ADDR, body, SerializeType.JSON, UtilAll.crc32(body) ^ 1);

        RemotingCommand response = invoke(broker, request);

        assertEquals(ResponseCode.SYSTEM_ERROR, response.getCode());
        assertEquals("crc32 not match", response.getRemark());
    }

    @Test
    void aMissingHeaderFieldIsNamedInTheRemark() throws Exception {
        RemotingCommand response = invoke(broker,
                RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, null));

        assertEquals(ResponseCode.SYSTEM_ERROR, response.getCode());
        assertTrue(response.getRemark().contains("'topic'"), response.getRemark());
    }

    @Test
    void anUnknownRequestCodeIsNotSupported() throws Exception {
        RemotingCommand response = invoke(broker, RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE,
                null));

        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, response.getCode());
    }

    @Test
    void apacheAdminManagesKvConfigAndDeletesTopics() throws Exception {
        registerMaster(broker);

        admin.createAndUpdateKvConfig("ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4");
        assertEquals("broker-a:4", admin.getKVConfig("ORDER_TOPIC_CONFIG", "TopicA"));
        admin.deleteKvConfig("ORDER_TOPIC_CONFIG", "TopicA");
        Exception missing = assertThrows(MQClientException.class,
                () -> admin.getKVConfig("ORDER_TOPIC_CONFIG", "TopicA"));
        assertEquals(ResponseCode.QUERY_NOT_FOUND, responseCodeOf(missing));

        admin.deleteTopicInNameServer(Set.of(nameServerAddr), "TopicA");
        Exception deleted = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo("TopicA"));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, responseCodeOf(deleted));
        assertEquals(List.of("TBW102"), List.copyOf(admin.fetchAllTopicList().getTopicList()));
    }
}
