package io.sluice.namesrv.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.namesrv.route.BrokerRegistration;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicList;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RouteQueryHandlerTest {

    private final RouteTable routes = new RouteTable(120_000, () -> 0L);
    private final TestConnection connection = new TestConnection("c");

    @BeforeEach
    void registerOneBroker() {
        routes.register(new BrokerRegistration("DefaultCluster", "10.0.0.1:10911", "broker-a", 0, "", 0, false,
                TopicConfigSerializeWrapper.of(new DataVersion(0, 1, 1), Map.of(
                        "TBW102", TopicConfigWire.of("TBW102", 8, 7), "T1", TopicConfigWire.of("T1", 4, 6))),
                List.of(), connection));
    }

    private static RemotingCommand request(int code) {
        return RemotingCommand.request(code);
    }

    @Test
    void shouldAnswerARouteWithItsJsonBody() {
        RouteQueryHandler handler = new RouteQueryHandler(routes, true);

        RemotingCommand response = handler.handle(connection,
                request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "T1"));

        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals(routes.routeOf("T1").orElseThrow(), BodyCodec.decode(response.body(), TopicRouteData.class));
    }

    @Test
    void shouldAnswerTopicNotExistWithTheApacheRemark() {
        RouteQueryHandler handler = new RouteQueryHandler(routes, true);

        RemotingCommand response = handler.handle(connection,
                request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "%RETRY%sub-x"));

        assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
        assertTrue(response.remark().startsWith("No topic route info in name server for the topic: %RETRY%sub-x\n"),
                response.remark());
        assertEquals(null, response.body());
    }

    @Test
    void shouldNameAMissingTopic() {
        RouteQueryHandler handler = new RouteQueryHandler(routes, true);

        MalformedHeaderException error = assertThrows(MalformedHeaderException.class,
                () -> handler.handle(connection, request(RequestCode.GET_ROUTEINFO_BY_TOPIC)));

        assertEquals("topic", error.field());
    }

    @Test
    void shouldAnswerClusterInfo() {
        RouteQueryHandler handler = new RouteQueryHandler(routes, true);

        RemotingCommand response = handler.handle(connection, request(RequestCode.GET_BROKER_CLUSTER_INFO));

        assertEquals(routes.clusterInfo(), BodyCodec.decode(response.body(), ClusterInfo.class));
    }

    @Test
    void shouldListAllTopicsUnlessDisabled() {
        RemotingCommand enabled = new RouteQueryHandler(routes, true).handle(connection,
                request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER));
        RemotingCommand disabled = new RouteQueryHandler(routes, false).handle(connection,
                request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER));

        assertEquals(Set.of("TBW102", "T1"), BodyCodec.decode(enabled.body(), TopicList.class).topicList());
        assertEquals(ResponseCode.SYSTEM_ERROR, disabled.code());
        assertEquals("disable", disabled.remark());
    }

    @Test
    void shouldListTheTopicsOfACluster() {
        RouteQueryHandler handler = new RouteQueryHandler(routes, true);

        RemotingCommand known = handler.handle(connection,
                request(RequestCode.GET_TOPICS_BY_CLUSTER).putExtField("cluster", "DefaultCluster"));
        RemotingCommand unknown = handler.handle(connection,
                request(RequestCode.GET_TOPICS_BY_CLUSTER).putExtField("cluster", "Nope"));

        assertEquals(Set.of("TBW102", "T1"), BodyCodec.decode(known.body(), TopicList.class).topicList());
        assertEquals(Set.of(), BodyCodec.decode(unknown.body(), TopicList.class).topicList());
    }

    @Test
    void shouldDeleteATopicThroughTheAdminHandler() {
        TopicAdminHandler admin = new TopicAdminHandler(routes);

        RemotingCommand response = admin.handle(connection,
                request(RequestCode.DELETE_TOPIC_IN_NAMESRV).putExtField("topic", "T1"));
        RemotingCommand unknown = admin.handle(connection,
                request(RequestCode.DELETE_TOPIC_IN_NAMESRV).putExtField("topic", "nope")
                        .putExtField("clusterName", "DefaultCluster"));

        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals(ResponseCode.SUCCESS, unknown.code());
        assertEquals(Set.of("TBW102"), routes.allTopics());
    }
}
