package io.sluice.remoting.transport;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RemotingClientTest {
    private final ConcurrentLinkedQueue<CompletableFuture<RemotingCommand>> held = new ConcurrentLinkedQueue<>();
    private RemotingServer server;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void start() {
        server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        server.registerHandler(1, RequestHandler.sync((connection, request) -> RemotingCommand.responseTo(request)));
        server.registerHandler(2, (connection, request) -> {
            CompletableFuture<RemotingCommand> response = new CompletableFuture<>();
            held.add(response);
            return response.thenApply(ignored -> RemotingCommand.responseTo(request));
        });
        server.registerHandler(3, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).setBody(request.body())));
        server.start();
        address = "127.0.0.1:" + server.port();
        client = new RemotingClient(ClientSettings.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void reusesOneConnectionPerAddress() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertEquals(ResponseCode.SUCCESS, client.invoke(address, RemotingCommand.request(1), 5_000)
                    .get(5, TimeUnit.SECONDS).code());
        }
        ConnectionContext first = client.connect(address).get(5, TimeUnit.SECONDS);
        assertSame(first, client.connect(address).get(5, TimeUnit.SECONDS));
        assertEquals(1, server.counters().connectionsOpened());

        client.closeConnection(address);
        Await.until("old connection closed", () -> !first.isActive());
        assertEquals(ResponseCode.SUCCESS, client.invoke(address, RemotingCommand.request(1), 5_000)
                .get(5, TimeUnit.SECONDS).code());
        assertEquals(2, server.counters().connectionsOpened());
    }

    @Test
    void aLateResponseTimesOutAndIsDroppedWhenItArrives() throws Exception {
        // Connected first: the 100 ms must cover only the wait for the response, not a slow connect.
        client.connect(address).get(5, TimeUnit.SECONDS);
        CompletableFuture<RemotingCommand> call = client.invoke(address, RemotingCommand.request(2), 100);
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        assertInstanceOf(RemotingTimeoutException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("request code 2"), e.getCause().getMessage());
        assertEquals(1, client.counters().outboundTimeouts());

        Await.until("the request reached the handler", () -> !held.isEmpty());
        held.remove().complete(null);
        Await.until("late response dropped", () -> client.counters().unmatchedResponses() == 1);
        assertEquals(ResponseCode.SUCCESS, client.invoke(address, RemotingCommand.request(1), 5_000)
                .get(5, TimeUnit.SECONDS).code(), "the connection stays usable");
    }

    @Test
    void outstandingCallsFailWhenTheConnectionCloses() throws Exception {
        CompletableFuture<RemotingCommand> call = client.invoke(address, RemotingCommand.request(2), 5_000);
        Await.until("the request reached the handler", () -> !held.isEmpty());
        server.connections().forEach(ConnectionContext::close);
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        assertInstanceOf(ConnectionClosedException.class, e.getCause());
    }

    @Test
    void connectFailuresAndBadAddressesAreReported() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ExecutionException refused = assertThrows(ExecutionException.class, () -> client.invoke(
                "127.0.0.1:" + closedPort, RemotingCommand.request(1), 5_000).get(5, TimeUnit.SECONDS));
        assertInstanceOf(RemotingConnectException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains(String.valueOf(closedPort)));

        for (String bad : new String[] {"localhost", "host:", ":80", "host:x", "host:70000"}) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.invoke(bad, RemotingCommand.request(1), 5_000).get(5, TimeUnit.SECONDS), bad);
            assertInstanceOf(IllegalArgumentException.class, e.getCause(), bad);
            assertTrue(e.getCause().getMessage().contains(bad), e.getCause().getMessage());
        }
        assertEquals(9876, RemotingClient.parseAddress("[::1]:9876").getPort());
    }

    @Test
    void aBodyHandedOverByReferenceIsSentAndFreedOnEveryPath() throws Exception {
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
        ByteBuf sent = allocator.directBuffer(3000);
        for (int i = 0; i < 3000; i++) {
            sent.writeByte(i);
        }
        byte[] expected = ByteBufUtil.getBytes(sent);
        RemotingCommand echo = client.invoke(address, RemotingCommand.request(3).setBody(sent), 5_000)
                .get(5, TimeUnit.SECONDS);
        assertArrayEquals(expected, echo.body());
        Await.until("the written body freed", () -> sent.refCnt() == 0);

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ByteBuf refused = allocator.directBuffer(8).writeLong(1);
        assertThrows(ExecutionException.class, () -> client.invoke("127.0.0.1:" + closedPort,
                RemotingCommand.request(3).setBody(refused), 5_000).get(5, TimeUnit.SECONDS));
        assertEquals(0, refused.refCnt(), "freed when the connection could not be made");

        ByteBuf badTimeout = allocator.directBuffer(8).writeLong(2);
        assertThrows(IllegalArgumentException.class,
                () -> client.invoke(address, RemotingCommand.request(3).setBody(badTimeout), 0));
        assertEquals(0, badTimeout.refCnt(), "freed when the call was refused");

        ConnectionContext connection = client.connect(address).get(5, TimeUnit.SECONDS);
        connection.close();
        Await.until("connection closed", () -> !connection.isActive());
        ByteBuf unwritable = allocator.directBuffer(8).writeLong(3);
        assertThrows(ExecutionException.class, () -> connection.sendRequest(RemotingCommand.request(3)
                .setBody(unwritable), 5_000).get(5, TimeUnit.SECONDS));
        Await.until("freed when the write failed", () -> unwritable.refCnt() == 0);
        // The count drops to 0 before the releasing thread returns the memory: wait for the metric too.
        Await.until("every body's memory returned", () -> allocator.metric().usedDirectMemory() == 0,
                () -> allocator.metric().usedDirectMemory());
    }

    @Test
    void settingsNameTheBadValue() {
        IllegalArgumentException marks = assertThrows(IllegalArgumentException.class,
                () -> ServerSettings.builder().waterMarkRequests(10, 5).build());
        assertTrue(marks.getMessage().contains("low 10 high 5"), marks.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> ServerSettings.builder().port(70_000).build());
        assertTrue(port.getMessage().contains("70000"), port.getMessage());
        IllegalArgumentException lanes = assertThrows(IllegalArgumentException.class,
                () -> new ClientSettings(1, 0, 3000, 1 << 20, 0, true));
        assertTrue(lanes.getMessage().contains("laneCount"), lanes.getMessage());
    }
}
