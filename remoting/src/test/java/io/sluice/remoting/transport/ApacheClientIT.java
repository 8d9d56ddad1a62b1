package io.sluice.remoting.transport;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Apache's own {@code NettyRemotingClient} (rocketmq-remoting 5.3.1) against our server. */
class ApacheClientIT {
    private static final long TIMEOUT_MS = 5_000;

    // One server and one Apache client for the whole class: Apache's client takes seconds to shut down.
    private static final List<String> onewayTopics = new CopyOnWriteArrayList<>();
    private static final AtomicReference<ConnectionContext> lastConnection = new AtomicReference<>();
    private static RemotingServer server;
    private static NettyRemotingClient apache;
    private static ExecutorService apacheProcessorPool;
    private static String address;

    @BeforeAll
    static void start() {
        server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        server.registerHandler(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestHandler.sync((connection, request) -> {
            lastConnection.set(connection);
            return RemotingCommand.responseTo(request)
                    .putExtField("topic", request.requireString("topic"))
                    .setBody(("route of " + request.requireString("topic")).getBytes());
        }));
        server.registerHandler(RequestCode.UPDATE_CONSUMER_OFFSET, RequestHandler.sync((connection, request) -> {
            onewayTopics.add(request.requireString("topic"));
            return null;
        }));
        server.registerHandler(RequestCode.PULL_MESSAGE, (connection, request) -> CompletableFuture.supplyAsync(
                () -> RemotingCommand.responseTo(request, ResponseCode.PULL_NOT_FOUND, "no new message"),
                CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)), HandlerOptions.LANE.withoutFlowControl());
        server.start();
        address = "127.0.0.1:" + server.port();

        apache = new NettyRemotingClient(new NettyClientConfig());
        apacheProcessorPool = Executors.newSingleThreadExecutor();
        apache.start();
    }

    @AfterAll
    static void stop() {
        apache.shutdown();
        apacheProcessorPool.shutdownNow();
        server.close();
    }

    private static org.apache.rocketmq.remoting.protocol.RemotingCommand apacheRequest(int code, SerializeType type) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand request =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(code, null);
        request.setVersion(479);
        request.setSerializeTypeCurrentRPC(type);
        return request;
    }

    @Test
    void synchronousCallsWorkWithBothSerializations() throws Exception {
        for (SerializeType type : SerializeType.values()) {
            org.apache.rocketmq.remoting.protocol.RemotingCommand request =
                    apacheRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, type);
            request.addExtField("topic", "T-" + type);
            org.apache.rocketmq.remoting.protocol.RemotingCommand response =
                    apache.invokeSync(address, request, TIMEOUT_MS);
            assertEquals(ResponseCode.SUCCESS, response.getCode(), type.name());
            assertEquals(type, response.getSerializeTypeCurrentRPC(), "answered in the request's serialization");
            assertEquals("T-" + type, response.getExtFields().get("topic"));
            assertArrayEquals(("route of T-" + type).getBytes(), response.getBody());
            assertTrue(response.isResponseType());
        }
    }

    @Test
    void unknownCodesAndMissingFieldsGetErrorAnswers() throws Exception {
        org.apache.rocketmq.remoting.protocol.RemotingCommand unknown =
                apache.invokeSync(address, apacheRequest(4711, SerializeType.JSON), TIMEOUT_MS);
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, unknown.getCode());
        assertEquals(" request type 4711 not supported", unknown.getRemark());

        org.apache.rocketmq.remoting.protocol.RemotingCommand missing = apache.invokeSync(address,
                apacheRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, SerializeType.ROCKETMQ), TIMEOUT_MS);
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.getCode());
        assertTrue(missing.getRemark().contains("topic"), missing.getRemark());
    }

    @Test
    void onewayAndAsynchronousCallsWork() throws Exception {
        org.apache.rocketmq.remoting.protocol.RemotingCommand oneway =
                apacheRequest(RequestCode.UPDATE_CONSUMER_OFFSET, SerializeType.JSON);
        oneway.addExtField("topic", "offsets");
        apache.invokeOneway(address, oneway, TIMEOUT_MS);

        long responsesBefore = server.counters().responses();
        List<CompletableFuture<org.apache.rocketmq.remoting.protocol.RemotingCommand>> pulls =
                new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) {
            pulls.add(apache.invoke(address, apacheRequest(RequestCode.PULL_MESSAGE, SerializeType.JSON),
                    TIMEOUT_MS));
        }
        for (CompletableFuture<org.apache.rocketmq.remoting.protocol.RemotingCommand> pull : pulls) {
            assertEquals(ResponseCode.PULL_NOT_FOUND, pull.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).getCode());
        }
        Await.until("oneway handled", () -> onewayTopics.equals(List.of("offsets")), onewayTopics::toString);
        // At least: a response of an earlier test in this class may be counted late (after its write completed).
        Await.until("20 responses counted", () -> server.counters().responses() - responsesBefore >= 20);
    }

    @Test
    void apacheClientReceivesOurServerRequests() throws Exception {
        List<String> notified = new CopyOnWriteArrayList<>();
        apache.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, new NettyRequestProcessor() {
            @Override
            public org.apache.rocketmq.remoting.protocol.RemotingCommand processRequest(ChannelHandlerContext ctx,
                    org.apache.rocketmq.remoting.protocol.RemotingCommand request) {
                notified.add(request.getExtFields().get("consumerGroup"));
                return null;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, apacheProcessorPool);
        org.apache.rocketmq.remoting.protocol.RemotingCommand route =
                apacheRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, SerializeType.JSON);
        route.addExtField("topic", "t");
        apache.invokeSync(address, route, TIMEOUT_MS);
        ConnectionContext toApache = lastConnection.get();
        assertNotNull(toApache);

        toApache.sendOneway(RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED)
                .putExtField("consumerGroup", "sub-x")).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Await.until("Apache client notified", () -> notified.equals(List.of("sub-x")), notified::toString);

        RemotingCommand unknown = toApache.sendRequest(RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO),
                TIMEOUT_MS).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, unknown.code());
    }
}
