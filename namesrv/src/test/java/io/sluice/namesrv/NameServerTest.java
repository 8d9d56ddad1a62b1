package io.sluice.namesrv;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.SerializeType;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The name server's lifecycle and its wiring, driven by Sluice's own remoting client. */
class NameServerTest {

    private static NamesrvSettings loopback() {
        return NamesrvSettings.defaults().withListen("127.0.0.1", 0);
    }

    private static RemotingCommand registration(SerializeType type) {
        byte[] body = BodyCodec.encode(new RegisterBrokerBody(TopicConfigSerializeWrapper.of(new DataVersion(0, 1, 1),
                Map.of("TBW102", TopicConfigWire.of("TBW102", 8, 7), "T1", TopicConfigWire.of("T1", 4, 6))),
                List.of()));
        return RemotingCommand.request(RequestCode.REGISTER_BROKER).setSerializeType(type)
                .putExtField("brokerName", "broker-a").putExtField("brokerAddr", "127.0.0.1:10911")
                .putExtField("clusterName", "DefaultCluster").putExtField("haServerAddr", "127.0.0.1:10912")
                .putExtField("brokerId", 0).putExtField("bodyCrc32", RegisterBrokerBody.crc32(body))
                .setBody(body);
    }

    @Test
    void shouldStartOnceAndCloseIdempotently() {
        NameServer server = new NameServer(loopback());
        assertThrows(IllegalStateException.class, server::port);

        server.start();
        try {
            assertThrows(IllegalStateException.class, server::start);
        } finally {
            server.close();
            server.close();
        }
        assertThrows(IllegalStateException.class, server::start);
    }

    @Test
    void shouldServeRoutesToSluiceClientsAndDropThemWhenTheBrokerDisconnects() throws Exception {
        try (NameServer server = new NameServer(loopback());
             RemotingClient client = new RemotingClient(ClientSettings.defaults())) {
            server.start();
            String address = "127.0.0.1:" + server.port();
            for (SerializeType type : SerializeType.values()) {
                RemotingCommand registered = client.invoke(address, registration(type), 5_000).get();
                assertEquals(ResponseCode.SUCCESS, registered.code(), registered.remark());

                RemotingCommand route = client.invoke(address, RemotingCommand.request(
                        RequestCode.GET_ROUTEINFO_BY_TOPIC).setSerializeType(type).putExtField("topic", "T1"),
                        5_000).get();

                assertEquals(ResponseCode.SUCCESS, route.code(), route.remark());
                assertEquals(type, route.serializeType());
                assertEquals(server.routes().routeOf("T1").orElseThrow(),
                        BodyCodec.decode(route.body(), TopicRouteData.class));
            }

            client.closeConnection(address);

            Await.until("the broker's routes to go with its connection", Duration.ofSeconds(10),
                    () -> server.routes().routeOf("T1").isEmpty());
        }
    }
}
