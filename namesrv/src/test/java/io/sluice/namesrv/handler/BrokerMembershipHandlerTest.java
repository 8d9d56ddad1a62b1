package io.sluice.namesrv.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.namesrv.route.KvConfigTable;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.KVTable;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BrokerMembershipHandlerTest {

    private static final String MASTER = "10.0.0.1:10911";

    private final AtomicLong clock = new AtomicLong(1_000);
    private final RouteTable routes = new RouteTable(120_000, clock::get);
    private final KvConfigTable kvConfig = new KvConfigTable();
    private final BrokerMembershipHandler handler = new BrokerMembershipHandler(routes, kvConfig);
    private final TestConnection connection = new TestConnection("c1");

    private static byte[] body(long counter, String... topics) {
        Map<String, TopicConfigWire> table = new LinkedHashMap<>();
        for (String topic : topics) {
            table.put(topic, TopicConfigWire.of(topic, 4, 6));
        }
        return BodyCodec.encode(new RegisterBrokerBody(
                TopicConfigSerializeWrapper.of(new DataVersion(0, counter, counter), table), List.of()));
    }

    private static RemotingCommand register(long brokerId, String addr, byte[] body) {
        return RemotingCommand.request(RequestCode.REGISTER_BROKER)
                .putExtField("brokerName", "broker-a").putExtField("brokerAddr", addr)
                .putExtField("clusterName", "DefaultCluster").putExtField("haServerAddr", "10.0.0.1:10912")
                .putExtField("brokerId", brokerId).putExtField("compressed", false)
                .putExtField("enableActingMaster", false)
                .putExtField("bodyCrc32", RegisterBrokerBody.crc32(body)).setBody(body);
    }

    @Test
    void shouldRegisterABrokerAndAnswerAnEmptyHeaderToAMaster() {
        RemotingCommand response = handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")));

        assertEquals(ResponseCode.SUCCESS, response.code());
        assertTrue(response.hasExtFields());
        assertEquals(Map.of(), response.extFields());
        assertNull(response.body());
        assertTrue(routes.routeOf("T1").isPresent());
    }

    @Test
    void shouldRejectABodyWhoseCrcDoesNotMatch() {
        RemotingCommand request = register(0, MASTER, body(1, "TBW102", "T1")).putExtField("bodyCrc32", 12345);

        RemotingCommand response = handler.handle(connection, request);

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertEquals("crc32 not match", response.remark());
        assertTrue(routes.allTopics().isEmpty());
    }

    @Test
    void shouldSkipTheCrcCheckWhenTheBrokerSendsZero() {
        RemotingCommand request = register(0, MASTER, body(1, "TBW102", "T1")).putExtField("bodyCrc32", 0);

        assertEquals(ResponseCode.SUCCESS, handler.handle(connection, request).code());
    }

    @Test
    void shouldAcceptARegistrationWithoutBody() {
        RemotingCommand request = register(0, MASTER, null);

        assertEquals(ResponseCode.SUCCESS, handler.handle(connection, request).code());
        assertEquals(1, routes.liveBrokerCount());
    }

    @Test
    void shouldRefuseAnIncrementalRegistrationBeforeTheFullOne() {
        RemotingCommand response = handler.handle(connection, register(0, MASTER, body(1, "T1")));

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertEquals("register broker failed", response.remark());
    }

    @Test
    void shouldNameTheTypeOfAMalformedBody() {
        byte[] bad = "{\"topicConfigSerializeWrapper\":".getBytes(StandardCharsets.UTF_8);

        RemotingCommand response = handler.handle(connection, register(0, MASTER, bad));

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertTrue(response.remark().contains("RegisterBrokerBody"), response.remark());
    }

    @Test
    void shouldRefuseCompressedBodies() {
        RemotingCommand request = register(0, MASTER, body(1, "TBW102", "T1")).putExtField("compressed", true);

        RemotingCommand response = handler.handle(connection, request);

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertTrue(response.remark().contains("compressed"), response.remark());
    }

    @Test
    void shouldNameAMissingHeaderField() {
        RemotingCommand request = RemotingCommand.request(RequestCode.REGISTER_BROKER)
                .putExtField("brokerName", "broker-a").putExtField("brokerAddr", MASTER)
                .putExtField("haServerAddr", "").putExtField("brokerId", 0);

        MalformedHeaderException error = assertThrows(MalformedHeaderException.class,
                () -> handler.handle(connection, request));

        assertEquals("clusterName", error.field());
    }

    @Test
    void shouldRejectABlankBrokerName() {
        RemotingCommand request = register(0, MASTER, body(1, "TBW102", "T1")).putExtField("brokerName", " ");

        RemotingCommand response = handler.handle(connection, request);

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertTrue(response.remark().contains("brokerName"), response.remark());
    }

    @Test
    void shouldTellASlaveItsMaster() {
        handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")));

        RemotingCommand response = handler.handle(new TestConnection("c2"),
                register(1, "10.0.0.2:10911", body(1, "TBW102", "T1")).putExtField("haServerAddr", "x"));

        assertEquals(Map.of("masterAddr", MASTER, "haServerAddr", "10.0.0.1:10912"), response.extFields());
    }

    @Test
    void shouldRefuseAMasterWhoseEpochIsOlderThanTheRegisteredMasters() {
        String elected = "10.0.0.2:10911";
        handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")).putExtField("masterEpoch", 1));
        handler.handle(new TestConnection("c2"),
                register(0, elected, body(1, "TBW102", "T1")).putExtField("masterEpoch", 2));

        RemotingCommand response = handler.handle(connection,
                register(0, MASTER, body(1, "TBW102", "T1")).putExtField("masterEpoch", 1));

        assertEquals(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH, response.code());
        assertEquals("master epoch 1 of broker-a at " + MASTER + " is stale: this name server accepted a master of"
                + " epoch 2", response.remark());
        assertEquals(Map.of(0L, elected), routes.routeOf("T1").orElseThrow().brokerDatas().get(0).brokerAddrs());
        assertEquals(ResponseCode.SUCCESS, handler.handle(connection,
                register(0, MASTER, body(1, "TBW102", "T1"))).code(), "a registration without an epoch is as before");
    }

    @Test
    void shouldReturnTheOrderedTopicConfigToRegisteringBrokers() {
        kvConfig.put(KvConfigTable.ORDER_TOPIC_CONFIG, "T1", "broker-a:4");

        RemotingCommand response = handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")));

        assertEquals(new KVTable(Map.of("T1", "broker-a:4")), BodyCodec.decode(response.body(), KVTable.class));
    }

    @Test
    void shouldUnregisterABroker() {
        handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")));

        RemotingCommand response = handler.handle(connection, RemotingCommand.request(RequestCode.UNREGISTER_BROKER)
                .putExtField("brokerName", "broker-a").putExtField("brokerAddr", MASTER)
                .putExtField("clusterName", "DefaultCluster").putExtField("brokerId", 0));

        assertEquals(ResponseCode.SUCCESS, response.code());
        assertTrue(routes.routeOf("T1").isEmpty());
    }

    @Test
    void shouldAnswerWhetherTheDataVersionChanged() {
        handler.handle(connection, register(0, MASTER, body(7, "TBW102", "T1")));
        DataVersion stored = new DataVersion(0, 7, 7);

        RemotingCommand same = handler.handle(connection, queryDataVersion(stored));
        RemotingCommand changed = handler.handle(connection, queryDataVersion(stored.next(9)));

        assertEquals("false", same.extField("changed"));
        assertEquals(stored, BodyCodec.decode(same.body(), DataVersion.class));
        assertEquals("true", changed.extField("changed"));
    }

    @Test
    void shouldRequireADataVersionBody() {
        RemotingCommand response = handler.handle(connection, queryDataVersion(null).setBody((byte[]) null));

        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
    }

    @Test
    void shouldRefreshLivenessOnBrokerHeartbeat() {
        handler.handle(connection, register(0, MASTER, body(1, "TBW102", "T1")));
        clock.addAndGet(100_000);

        handler.handle(connection, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT)
                .putExtField("clusterName", "DefaultCluster").putExtField("brokerAddr", MASTER)
                .putExtField("brokerName", "broker-a"));

        assertEquals(List.of(), routes.expire(clock.get() + 100_000));
    }

    private static RemotingCommand queryDataVersion(DataVersion version) {
        RemotingCommand request = RemotingCommand.request(RequestCode.QUERY_DATA_VERSION)
                .putExtField("brokerName", "broker-a").putExtField("brokerAddr", MASTER)
                .putExtField("clusterName", "DefaultCluster").putExtField("brokerId", 0);
        return version == null ? request : request.setBody(BodyCodec.encode(version));
    }
}
