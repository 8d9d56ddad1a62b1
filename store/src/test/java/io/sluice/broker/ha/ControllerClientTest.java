package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.HandlerOptions;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A broker's calls to the controller quorum: tried in turn until the leader answers, the leader remembered for
 * the next call; a refusal or an answer without a body is an error naming it; no leader at all is an error listing
 * what each controller said.
 */
@Timeout(30)
class ControllerClientTest {

    private static final ReplicaInfo GROUP = new ReplicaInfo(1, 1, "127.0.0.1:10911", "127.0.0.1:10912", 3,
            Set.of(1L, 2L), 5, List.of(new ReplicaInfo.ReplicaStatus(2, "127.0.0.1:20911", true, 4096)));
    private static final ControllerClient.Heartbeat BEAT = new ControllerClient.Heartbeat("C", "broker-a",
            "127.0.0.1:10911", "127.0.0.1:10912", 8192, 10_000);

    private final List<RemotingServer> servers = new ArrayList<>();
    private final RemotingClient client = new RemotingClient(ClientSettings.defaults());

    @AfterEach
    void closeAll() {
        client.close();
        servers.forEach(RemotingServer::close);
    }

    @Test
    void theLeaderIsFoundByTryingEachControllerAndThenAskedFirst() throws Exception {
        AtomicInteger followerCalls = new AtomicInteger();
        AtomicReference<RemotingCommand> seen = new AtomicReference<>();
        String follower = controller(request -> {
            followerCalls.incrementAndGet();
            return RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_NOT_LEADER, "not the leader");
        });
        String leader = controller(request -> {
            seen.set(request);
            return RemotingCommand.response(ResponseCode.SUCCESS, null)
                    .setBody(ControllerWireDescriptor.encodeReplicaInfo(GROUP));
        });
        ControllerClient controllers = new ControllerClient(client, List.of(follower, leader), 5_000);

        assertEquals(GROUP, controllers.heartbeat(BEAT));
        assertEquals(1, followerCalls.get());
        RemotingCommand request = seen.get();
        assertEquals(ControllerWireDescriptor.BROKER_HEARTBEAT, request.code());
        assertEquals("broker-a", request.extField(ControllerWireDescriptor.BROKER_NAME));
        assertEquals("127.0.0.1:10912", request.extField(ControllerWireDescriptor.HA_SERVER_ADDR));
        assertEquals("8192", request.extField(ControllerWireDescriptor.LOG_END_POSITION));
        assertEquals("10000", request.extField(ControllerWireDescriptor.HEARTBEAT_TIMEOUT_MILLIS));

        assertEquals(GROUP, controllers.heartbeat(BEAT));
        assertEquals(1, followerCalls.get(), "the remembered leader is asked first");
    }

    @Test
    void anUnreachableControllerIsSkipped() throws Exception {
        String gone = controller(request -> RemotingCommand.response(ResponseCode.SUCCESS, null));
        servers.remove(servers.size() - 1).close();
        String leader = controller(request -> RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(ControllerWireDescriptor.encodeReplicaInfo(GROUP)));
        assertEquals(GROUP, new ControllerClient(client, List.of(gone, leader), 2_000).heartbeat(BEAT));
    }

    @Test
    void anInSyncSetChangeReturnsTheNewEpochOrTheRefusal() throws Exception {
        AtomicReference<RemotingCommand> seen = new AtomicReference<>();
        String leader = controller(request -> {
            seen.set(request);
            Set<Long> asked = ControllerWireDescriptor.decodeSyncStateSet(request.body());
            return asked.contains(9L)
                    ? RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_INVALID_REPLICAS, "no broker 9")
                    : RemotingCommand.response(ResponseCode.SUCCESS, null)
                            .putExtField(ControllerWireDescriptor.NEW_SYNC_STATE_SET_EPOCH, 6);
        });
        ControllerClient controllers = new ControllerClient(client, List.of(leader), 5_000);
        assertEquals(6, controllers.alterSyncStateSet("broker-a", 1, 3, 5, Set.of(1L, 2L)));
        assertEquals("3", seen.get().extField(ControllerWireDescriptor.MASTER_EPOCH));
        assertEquals("5", seen.get().extField(ControllerWireDescriptor.SYNC_STATE_SET_EPOCH));

        ControllerClient.ControllerException refused = assertThrows(ControllerClient.ControllerException.class,
                () -> controllers.alterSyncStateSet("broker-a", 1, 3, 5, Set.of(1L, 9L)));
        assertEquals("controller " + leader + " refused: " + ControllerWireDescriptor.CONTROLLER_INVALID_REPLICAS
                + " no broker 9", refused.getMessage());
    }

    @Test
    void noLeaderOrNoBodyIsAnErrorSayingWhatEachControllerSaid() {
        String first = controller(request -> RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_NOT_LEADER,
                "electing"));
        String second = controller(request -> RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_NOT_LEADER,
                "no quorum"));
        ControllerClient.ControllerException none = assertThrows(ControllerClient.ControllerException.class,
                () -> new ControllerClient(client, List.of(first, second), 5_000).heartbeat(BEAT));
        assertTrue(none.getMessage().startsWith("no controller leader answered: " + first + ": electing; " + second
                + ": no quorum"), none.getMessage());

        String empty = controller(request -> RemotingCommand.response(ResponseCode.SUCCESS, null));
        ControllerClient.ControllerException noBody = assertThrows(ControllerClient.ControllerException.class,
                () -> new ControllerClient(client, List.of(empty), 5_000).heartbeat(BEAT));
        assertEquals("the controller's heartbeat answer has no body", noBody.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ControllerClient(client, List.of(), 5_000));
    }

    @Test
    void theEpochCacheAnswerCarriesTheHistoryAndTheLogEnd() {
        JSONObject json = JSON.parseObject(new String(ControllerClient.encodeEpochCache(
                List.of(new EpochEntry(1, 0), new EpochEntry(3, 4096)), 9000), StandardCharsets.UTF_8));
        assertEquals(9000, json.getLongValue("logEndPosition"));
        assertEquals(2, json.getJSONArray("epochs").size());
        assertEquals(3, json.getJSONArray("epochs").getJSONObject(1).getIntValue("epoch"));
        assertEquals(4096, json.getJSONArray("epochs").getJSONObject(1).getLongValue("startPosition"));
    }

    /** A controller on a free loopback port answering every request with {@code answer}; its address. */
    private String controller(Function<RemotingCommand, RemotingCommand> answer) {
        RemotingServer server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        server.registerDefaultHandler(RequestHandler.sync((connection, request) -> answer.apply(request)),
                HandlerOptions.LANE);
        server.start();
        servers.add(server);
        return "127.0.0.1:" + server.port();
    }
}
