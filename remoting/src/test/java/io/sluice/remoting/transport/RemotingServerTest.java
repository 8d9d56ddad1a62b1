package io.sluice.remoting.transport;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.SerializeType;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RemotingServerTest {
    private static final long TIMEOUT_MS = 5_000;
    /** How long a test may hold a handler thread: longer than any wait the test does meanwhile. */
    private static final long HOLD_MS = 60_000;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(closeables);
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private RemotingServer server(ServerSettings.Builder settings) {
        RemotingServer server = new RemotingServer(settings.bindAddress("127.0.0.1").port(0).build());
        closeables.add(server);
        return server;
    }

    private String start(RemotingServer server) {
        server.start();
        return "127.0.0.1:" + server.port();
    }

    private RemotingClient client() {
        RemotingClient client = new RemotingClient(ClientSettings.defaults());
        closeables.add(client);
        return client;
    }

    /** 0, 1, ... count - 1. */
    private static List<Integer> sequence(int count) {
        List<Integer> sequence = new ArrayList<>();
        for (int seq = 0; seq < count; seq++) {
            sequence.add(seq);
        }
        return sequence;
    }

    /** A client with its connection to {@code address} open. */
    private RemotingClient connectedClient(String address) throws Exception {
        RemotingClient client = client();
        client.connect(address).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return client;
    }

    private static RemotingCommand call(RemotingClient client, String address, RemotingCommand request)
            throws Exception {
        return client.invoke(address, request, TIMEOUT_MS).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    @Test
    void unknownCodeIsAnsweredRequestCodeNotSupported() throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        String address = start(server);
        RemotingCommand response = call(client(), address, RemotingCommand.request(9999));
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, response.code());
        assertEquals(" request type 9999 not supported", response.remark());
        assertTrue(response.isResponse());
        assertEquals(1, server.counters().requestsNotSupported());
    }

    @Test
    void worksOnTheNioTransportToo() throws Exception {
        RemotingServer server = server(ServerSettings.builder().preferEpoll(false));
        server.registerHandler(1, RequestHandler.sync((connection, request) -> RemotingCommand.responseTo(request)));
        String address = start(server);
        assertFalse(server.usesEpoll());
        RemotingClient client = new RemotingClient(new ClientSettings(1, 1, 3000, 1 << 20, 0, false));
        closeables.add(client);
        assertEquals(ResponseCode.SUCCESS, call(client, address, RemotingCommand.request(1)).code());
    }

    @Test
    void missingHeaderFieldIsAnsweredWithARemarkNamingIt() throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("topic", request.requireString("topic"))));
        server.registerHandler(RequestCode.GET_MAX_OFFSET, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("offset", request.requireLong("queueId"))));
        String address = start(server);
        RemotingClient client = client();

        RemotingCommand missing = call(client, address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.code());
        assertTrue(missing.remark().contains("'topic'"), missing.remark());

        RemotingCommand malformed = call(client, address,
                RemotingCommand.request(RequestCode.GET_MAX_OFFSET).putExtField("queueId", "x1"));
        assertEquals(ResponseCode.SYSTEM_ERROR, malformed.code());
        assertTrue(malformed.remark().contains("'queueId'") && malformed.remark().contains("x1"), malformed.remark());

        RemotingCommand ok = call(client, address,
                RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "t"));
        assertEquals(ResponseCode.SUCCESS, ok.code());
        assertEquals("t", ok.extField("topic"));
    }

    @Test
    void handlerFailuresBecomeSystemErrorsAndTheConnectionStaysOpen() throws Exception {
        assertHandlerFailuresAnswered(HandlerOptions.LANE);
    }

    @Test
    void handlerFailuresOnTheIoThreadBecomeSystemErrorsAndTheConnectionStaysOpen() throws Exception {
        assertHandlerFailuresAnswered(HandlerOptions.IO_THREAD);
    }

    private void assertHandlerFailuresAnswered(HandlerOptions options) throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(1, (connection, request) -> {
            throw new IllegalStateException("boom in handler");
        }, options);
        server.registerHandler(2, (connection, request) ->
                CompletableFuture.failedFuture(new IllegalArgumentException("late failure")), options);
        server.registerHandler(3, (connection, request) -> CompletableFuture.completedFuture(null), options);
        server.registerHandler(4, (connection, request) -> null, options);
        server.registerHandler(5, RequestHandler.sync((connection, request) -> RemotingCommand.responseTo(request)),
                options);
        String address = start(server);
        RemotingClient client = client();

        assertTrue(call(client, address, RemotingCommand.request(1)).remark().contains("boom in handler"));
        assertTrue(call(client, address, RemotingCommand.request(2)).remark().contains("late failure"));
        assertTrue(call(client, address, RemotingCommand.request(3)).remark().contains("without a response"));
        assertTrue(call(client, address, RemotingCommand.request(4)).remark().contains("returned no future"));
        for (int code = 1; code <= 4; code++) {
            assertEquals(ResponseCode.SYSTEM_ERROR, call(client, address, RemotingCommand.request(code)).code());
        }
        assertEquals(ResponseCode.SUCCESS, call(client, address, RemotingCommand.request(5)).code());
        assertEquals(1, server.counters().connectionsOpened());
        assertEquals(0, server.counters().connectionsClosed());
        assertEquals(8, server.counters().handlerErrors());
    }

    @Test
    void requestsOfOneConnectionRunInArrivalOrderWhileResponsesCompleteInAnyOrder() throws Exception {
        int count = 400;
        List<Integer> invocationOrder = new CopyOnWriteArrayList<>();
        ConcurrentLinkedQueue<Runnable> completions = new ConcurrentLinkedQueue<>();
        RemotingServer server = server(ServerSettings.builder().laneCount(3));
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, (connection, request) -> {
            int seq = request.requireInt("seq");
            invocationOrder.add(seq);
            CompletableFuture<RemotingCommand> response = new CompletableFuture<>();
            completions.add(() -> response.complete(RemotingCommand.responseTo(request).putExtField("seq", seq)));
            return response;
        });
        String address = start(server);
        RemotingClient client = connectedClient(address);

        List<CompletableFuture<RemotingCommand>> responses = new ArrayList<>();
        for (int seq = 0; seq < count; seq++) {
            SerializeType type = seq % 2 == 0 ? SerializeType.JSON : SerializeType.ROCKETMQ;
            responses.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                    .putExtField("seq", seq).setSerializeType(type), TIMEOUT_MS));
        }
        Await.until("all requests handled", () -> completions.size() == count, completions::size);
        List<Runnable> shuffled = new ArrayList<>(completions);
        Collections.shuffle(shuffled, new Random(42));
        shuffled.parallelStream().forEach(Runnable::run);

        for (int seq = 0; seq < count; seq++) {
            RemotingCommand response = responses.get(seq).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertEquals(seq, response.requireInt("seq"), "response matched by opaque");
            assertEquals(seq % 2 == 0 ? SerializeType.JSON : SerializeType.ROCKETMQ, response.serializeType(),
                    "a response uses its request's serialization");
        }
        assertEquals(sequence(count), invocationOrder);
    }

    @Test
    void manyConnectionsKeepTheirOwnOrderAcrossLanes() throws Exception {
        int clients = 4;
        int perClient = 200;
        ExecutorService completer = Executors.newFixedThreadPool(3);
        closeables.add(completer::shutdownNow);
        ConcurrentHashMap<String, List<Integer>> seenByConnection = new ConcurrentHashMap<>();
        RemotingServer server = server(ServerSettings.builder().laneCount(2).ioThreads(2));
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, (connection, request) -> {
            int seq = request.requireInt("seq");
            seenByConnection.computeIfAbsent(connection.id(), id -> new CopyOnWriteArrayList<>()).add(seq);
            return CompletableFuture.supplyAsync(() -> RemotingCommand.responseTo(request).putExtField("seq", seq),
                    completer);
        });
        String address = start(server);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            RemotingClient client = client();
            client.connect(address).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            done.add(CompletableFuture.runAsync(() -> {
                List<CompletableFuture<RemotingCommand>> calls = new ArrayList<>();
                for (int seq = 0; seq < perClient; seq++) {
                    calls.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                            .putExtField("seq", seq), TIMEOUT_MS));
                }
                for (int seq = 0; seq < perClient; seq++) {
                    assertEquals(seq, calls.get(seq).join().requireInt("seq"));
                }
            }));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertEquals(clients, seenByConnection.size());
        List<Integer> expected = sequence(perClient);
        seenByConnection.values().forEach(seen -> assertEquals(expected, seen));
    }

    @Test
    void largeBodiesTravelBothWays() throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.SEND_BATCH_MESSAGE, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).setBody(java.nio.ByteBuffer.wrap(request.body()),
                        java.nio.ByteBuffer.wrap(new byte[] {42}))));
        String address = start(server);
        byte[] body = new byte[4 * 1024 * 1024];
        new Random(7).nextBytes(body);
        for (SerializeType type : SerializeType.values()) {
            RemotingCommand response = call(client(), address, RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE)
                    .setBody(body).setSerializeType(type));
            byte[] echoed = response.body();
            assertEquals(body.length + 1, echoed.length);
            assertEquals(42, echoed[body.length]);
            assertTrue(java.util.Arrays.equals(body, 0, body.length, echoed, 0, body.length));
        }
    }

    @Test
    void aBodyLeftInTheFrameIsReadableWhileTheHandlerRunsAndReleasedAfter() throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        // Bodies that lie within one socket read stay there (a direct view); one straddling two reads is copied.
        List<RemotingCommand> kept = new CopyOnWriteArrayList<>();
        server.registerHandler(RequestCode.SEND_BATCH_MESSAGE, RequestHandler.sync((connection, request) -> {
            java.nio.ByteBuffer view = request.bodyView();
            if (view.isDirect()) {
                kept.add(request);
            }
            byte[] copy = new byte[view.remaining()];
            view.duplicate().get(copy);
            return RemotingCommand.responseTo(request).setBody(copy);
        }), HandlerOptions.IO_THREAD.withBurstGroup(request -> 0).withBodyInFrame());
        String address = start(server);
        RemotingClient client = connectedClient(address);
        Random random = new Random(11);
        List<CompletableFuture<RemotingCommand>> answers = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] body = new byte[1 + random.nextInt(40_000)];
            random.nextBytes(body);
            bodies.add(body);
            answers.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE).setBody(body),
                    TIMEOUT_MS));
        }
        for (int i = 0; i < bodies.size(); i++) {
            assertTrue(java.util.Arrays.equals(bodies.get(i),
                    answers.get(i).get(TIMEOUT_MS, TimeUnit.MILLISECONDS).body()), "echo of request " + i);
        }
        assertFalse(kept.isEmpty(), "no body was left in its frame");
        for (RemotingCommand request : kept) {
            assertNull(request.bodyView(), "the transport released the body once the handler returned");
        }
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        RemotingServer server = server(ServerSettings.builder().idleTimeoutMs(100));
        String address = start(server);
        RemotingClient client = new RemotingClient(new ClientSettings(1, 1, 3000, 1 << 20, 0, true));
        closeables.add(client);
        ConnectionContext connection = client.connect(address).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Await.until("idle connection closed", () -> !connection.isActive()
                && server.counters().connectionsClosed() == 1);
    }

    @Test
    void readingPausesAtTheHighMarkAndResumesAtTheLowMark() throws Exception {
        int count = 30;
        ConcurrentLinkedQueue<CompletableFuture<RemotingCommand>> held = new ConcurrentLinkedQueue<>();
        AtomicReference<ConnectionContext> serverSide = new AtomicReference<>();
        RemotingServer server = server(ServerSettings.builder().waterMarkRequests(2, 8));
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, (connection, request) -> {
            serverSide.set(connection);
            CompletableFuture<RemotingCommand> release = new CompletableFuture<>();
            held.add(release);
            return release.thenApply(ignored -> RemotingCommand.responseTo(request));
        });
        String address = start(server);
        RemotingClient client = connectedClient(address);
        List<CompletableFuture<RemotingCommand>> responses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            responses.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2), TIMEOUT_MS));
        }
        Await.until("reading paused at the high mark", () -> server.counters().readPauses() == 1
                && held.size() == 8, held::size);
        ConnectionContext connection = serverSide.get();
        assertTrue(connection.isReadPaused());
        assertEquals(8, connection.inFlightRequests(), "nothing is decoded while paused");
        assertEquals(8, server.counters().requests());
        assertEquals(0, server.counters().readResumes());
        // Down to 3 in flight: still above the low mark.
        completeHeld(held, 5);
        Await.until("5 responses written", () -> server.counters().responses() == 5);
        assertEquals(3, connection.inFlightRequests());
        assertTrue(connection.isReadPaused());
        assertEquals(0, server.counters().readResumes());
        assertEquals(8, server.counters().requests());
        // Down to 2: at the low mark, reading resumes and the next 6 requests fill it up to 8 again.
        completeHeld(held, 1);
        Await.until("reading resumed and paused again", () -> server.counters().readResumes() == 1
                && server.counters().readPauses() == 2 && server.counters().requests() == 14,
                () -> server.counters().toString());
        while (server.counters().responses() < count) {
            Await.until("a held request", () -> !held.isEmpty() || server.counters().responses() == count);
            completeHeld(held, held.size());
        }
        for (CompletableFuture<RemotingCommand> response : responses) {
            assertEquals(ResponseCode.SUCCESS, response.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).code());
        }
        Await.until("all released", () -> connection.inFlightRequests() == 0 && !connection.isReadPaused());
        assertEquals(count, server.counters().requests());
        assertTrue(server.counters().readPauses() >= 3, server.counters().toString());
    }

    @Test
    void inFlightBytesAlsoPauseReading() throws Exception {
        ConcurrentLinkedQueue<CompletableFuture<RemotingCommand>> held = new ConcurrentLinkedQueue<>();
        RemotingServer server = server(ServerSettings.builder().waterMarkBytes(4_000, 10_000));
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, (connection, request) -> {
            CompletableFuture<RemotingCommand> response = new CompletableFuture<>();
            held.add(response);
            return response.thenApply(ignored -> RemotingCommand.responseTo(request));
        });
        String address = start(server);
        RemotingClient client = connectedClient(address);
        List<CompletableFuture<RemotingCommand>> responses = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            responses.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                    .setBody(new byte[3_000]), TIMEOUT_MS));
        }
        // 4 frames of ~3.1 KB pass 10 000 bytes.
        Await.until("paused on bytes", () -> server.counters().readPauses() == 1 && held.size() == 4, held::size);
        assertEquals(4, server.counters().requests());
        completeHeld(held, 3);
        Await.until("resumed", () -> server.counters().readResumes() == 1 && held.size() == 3, held::size);
        completeHeld(held, 3);
        for (CompletableFuture<RemotingCommand> response : responses) {
            assertEquals(ResponseCode.SUCCESS, response.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).code());
        }
    }

    private static void completeHeld(ConcurrentLinkedQueue<CompletableFuture<RemotingCommand>> held, int count) {
        for (int i = 0; i < count; i++) {
            held.remove().complete(null);
        }
    }

    @Test
    void onewayRequestsAreHandledButNeverAnswered() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.UPDATE_CONSUMER_OFFSET, RequestHandler.sync((connection, request) -> {
            seen.add(request.requireString("consumerGroup"));
            return RemotingCommand.responseTo(request);
        }));
        server.registerHandler(RequestCode.UNLOCK_BATCH_MQ, (connection, request) -> {
            throw new IllegalStateException("oneway failure is only counted");
        });
        String address = start(server);
        RemotingClient client = client();
        client.invokeOneway(address, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g")).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        client.invokeOneway(address, RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ))
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        client.invokeOneway(address, RemotingCommand.request(4242)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        // A normal call on the same connection is answered after the oneway ones were handled (arrival order).
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, call(client, address, RemotingCommand.request(77)).code());
        assertEquals(List.of("g"), seen);
        // The counter moves when the write completes, which may be after the client has read the response.
        Await.until("one response written", () -> server.counters().responses() == 1);
        assertEquals(3, server.counters().onewayRequests());
        assertEquals(1, server.counters().handlerErrors());
        assertEquals(0, client.counters().unmatchedResponses());
    }

    @Test
    void handlersCanRunOnTheirOwnExecutor() throws Exception {
        ExecutorService admin = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "admin-pool"));
        closeables.add(admin::shutdownNow);
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.GET_BROKER_RUNTIME_INFO, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("thread", Thread.currentThread().getName())),
                HandlerOptions.onExecutor(admin));
        server.registerHandler(RequestCode.HEART_BEAT, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("thread", Thread.currentThread().getName())));
        String address = start(server);
        RemotingClient client = client();
        assertEquals("admin-pool", call(client, address,
                RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)).extField("thread"));
        assertTrue(call(client, address, RemotingCommand.request(RequestCode.HEART_BEAT)).extField("thread")
                .startsWith("sluice-server-lane"));
    }

    @Test
    void aFullQueueOfAnExecutorIsAnsweredSystemBusyAtOnce() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        closeables.add(executor::shutdownNow);
        assertFullQueueIsAnsweredSystemBusy(HandlerOptions.onExecutor(executor));
    }

    @Test
    void aFullQueueOfTheLanesIsAnsweredSystemBusyAtOnce() throws Exception {
        assertFullQueueIsAnsweredSystemBusy(HandlerOptions.LANE);
    }

    /**
     * One request holds the only thread of {@code options}' executor or lane, two wait, which is the bound's
     * capacity: the next is answered SYSTEM_BUSY without waiting (a oneway one is dropped unanswered), and once the
     * thread is free every admitted request is answered, nothing stays counted in flight, and there is room again.
     */
    private void assertFullQueueIsAnsweredSystemBusy(HandlerOptions options) throws Exception {
        QueueBound bound = new QueueBound("test", 2);
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        AtomicReference<ConnectionContext> serverSide = new AtomicReference<>();
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(1, (connection, request) -> {
            serverSide.set(connection);
            started.countDown();
            gate.get(HOLD_MS, TimeUnit.MILLISECONDS);
            return CompletableFuture.completedFuture(RemotingCommand.responseTo(request));
        }, options.withQueueBound(bound));
        String address = start(server);
        RemotingClient client = connectedClient(address);

        CompletableFuture<RemotingCommand> running = client.invoke(address, RemotingCommand.request(1), HOLD_MS);
        assertTrue(started.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        List<CompletableFuture<RemotingCommand>> waiting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            waiting.add(client.invoke(address, RemotingCommand.request(1), HOLD_MS));
        }
        Await.until("two requests waiting", () -> bound.waiting() == 2);

        RemotingCommand busy = call(client, address, RemotingCommand.request(1));
        assertEquals(ResponseCode.SYSTEM_BUSY, busy.code());
        assertTrue(busy.remark().startsWith("[OVERLOAD]") && busy.remark().contains("2 test requests"),
                busy.remark());
        assertEquals(1, server.counters().requestsRefusedBusy());
        client.invokeOneway(address, RemotingCommand.request(1)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        Await.until("the oneway request refused", () -> server.counters().requestsRefusedBusy() == 2);
        assertEquals(2, bound.waiting());
        Await.until("the refused requests hold nothing", () -> serverSide.get().inFlightRequests() == 3);

        gate.complete(null);
        assertEquals(ResponseCode.SUCCESS, running.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).code());
        for (CompletableFuture<RemotingCommand> admitted : waiting) {
            assertEquals(ResponseCode.SUCCESS, admitted.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).code());
        }
        assertEquals(0, bound.waiting());
        Await.until("nothing in flight", () -> serverSide.get().inFlightRequests() == 0);
        assertEquals(ResponseCode.SUCCESS, call(client, address, RemotingCommand.request(1)).code());
        assertEquals(2, server.counters().requestsRefusedBusy());
        assertEquals(0, server.counters().handlerErrors());
    }

    @Test
    void queueBoundsRefuseWhatCannotBeBounded() {
        IllegalArgumentException capacity = assertThrows(IllegalArgumentException.class,
                () -> new QueueBound("pull", 0));
        assertTrue(capacity.getMessage().contains("pull") && capacity.getMessage().contains("0"),
                capacity.getMessage());
        QueueBound bound = new QueueBound("send", 1);
        IllegalArgumentException ioThread = assertThrows(IllegalArgumentException.class,
                () -> HandlerOptions.IO_THREAD.withQueueBound(bound));
        assertTrue(ioThread.getMessage().contains("no queue to bound"), ioThread.getMessage());
        HandlerOptions pulls = HandlerOptions.LANE.withoutFlowControl().withQueueBound(bound);
        assertFalse(pulls.flowControlled());
        assertEquals(bound, pulls.queueBound());
    }

    @Test
    void requestsOfOneReadBurstRunGroupedByTheirKeyInArrivalOrderWithinAGroup() throws Exception {
        List<String> invocationOrder = new CopyOnWriteArrayList<>();
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, RequestHandler.sync((connection, request) -> {
            invocationOrder.add(request.requireString("g") + request.requireInt("seq"));
            return RemotingCommand.responseTo(request);
        }), HandlerOptions.IO_THREAD.withBurstGroup(request -> request.requireString("g").hashCode()));
        start(server);
        // Frames written in one piece reach the server in one read burst (a few hundred bytes on loopback).
        List<String> sent = List.of("b0", "a1", "b2", "c3", "a4", "b5", "a6");
        ByteBuf frames = Unpooled.buffer();
        FrameCodec codec = new FrameCodec(1 << 20);
        int opaque = 1;
        for (String id : sent) {
            ByteBuf frame = codec.encode(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                    .putExtField("g", id.substring(0, 1)).putExtField("seq", Integer.parseInt(id.substring(1)))
                    .setOpaque(opaque++), UnpooledByteBufAllocator.DEFAULT);
            frames.writeBytes(frame);
            frame.release();
        }
        byte[] bytes = new byte[frames.readableBytes()];
        frames.readBytes(bytes);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            Await.until("every request handled", () -> invocationOrder.size() == sent.size(), () -> invocationOrder);
        }
        List<String> expectedOrder = new ArrayList<>(sent);
        expectedOrder.sort(Comparator.comparingInt(id -> id.substring(0, 1).hashCode()));
        assertEquals(expectedOrder, invocationOrder, "grouped by key, arrival order kept within each group");
    }

    @Test
    void aBurstGroupNeedsTheIoThread() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            assertThrows(IllegalArgumentException.class,
                    () -> HandlerOptions.onExecutor(executor).withBurstGroup(request -> 0));
            assertThrows(IllegalArgumentException.class, () -> HandlerOptions.LANE.withBurstGroup(request -> 0));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void handlersCanRunOnTheIoThreadInArrivalOrderAndFlowControlled() throws Exception {
        int count = 30;
        List<Integer> invocationOrder = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        ConcurrentLinkedQueue<CompletableFuture<RemotingCommand>> held = new ConcurrentLinkedQueue<>();
        AtomicReference<ConnectionContext> serverSide = new AtomicReference<>();
        RemotingServer server = server(ServerSettings.builder().waterMarkRequests(2, 8));
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, (connection, request) -> {
            serverSide.set(connection);
            invocationOrder.add(request.requireInt("seq"));
            threads.add(Thread.currentThread().getName());
            CompletableFuture<RemotingCommand> release = new CompletableFuture<>();
            held.add(release);
            return release.thenApply(ignored -> RemotingCommand.responseTo(request));
        }, HandlerOptions.IO_THREAD);
        server.registerHandler(RequestCode.HEART_BEAT, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).putExtField("thread", Thread.currentThread().getName())));
        String address = start(server);
        RemotingClient client = connectedClient(address);
        List<CompletableFuture<RemotingCommand>> responses = new ArrayList<>();
        for (int seq = 0; seq < count; seq++) {
            responses.add(client.invoke(address, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                    .putExtField("seq", seq), TIMEOUT_MS));
        }
        Await.until("reading paused at the high mark", () -> server.counters().readPauses() == 1
                && held.size() == 8, held::size);
        assertTrue(serverSide.get().isReadPaused());
        assertEquals(8, server.counters().requests(), "nothing is decoded while paused");
        while (server.counters().responses() < count) {
            Await.until("a held request", () -> !held.isEmpty() || server.counters().responses() == count);
            completeHeld(held, held.size());
        }
        for (CompletableFuture<RemotingCommand> response : responses) {
            assertEquals(ResponseCode.SUCCESS, response.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).code());
        }
        assertEquals(sequence(count), invocationOrder);
        assertTrue(threads.stream().allMatch(name -> name.startsWith("sluice-server-io")), threads.toString());
        assertTrue(call(client, address, RemotingCommand.request(RequestCode.HEART_BEAT)).extField("thread")
                .startsWith("sluice-server-lane"), "other codes stay on the lane");
        Await.until("all released", () -> serverSide.get().inFlightRequests() == 0);
    }

    @Test
    void ioThreadHandlersThatAnswerAtOnceAreAnsweredInOrderWithOrWithoutFlowControl() throws Exception {
        int count = 200;
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicReference<ConnectionContext> serverSide = new AtomicReference<>();
        RemotingServer server = server(ServerSettings.builder().waterMarkRequests(2, 8));
        RequestHandler echo = RequestHandler.sync((connection, request) -> {
            serverSide.set(connection);
            threads.add(Thread.currentThread().getName());
            return RemotingCommand.responseTo(request).putExtField("seq", request.requireInt("seq"));
        });
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, echo, HandlerOptions.IO_THREAD);
        server.registerHandler(RequestCode.SEND_BATCH_MESSAGE, echo, HandlerOptions.IO_THREAD.withoutFlowControl());
        String address = start(server);
        RemotingClient client = connectedClient(address);
        List<CompletableFuture<RemotingCommand>> responses = new ArrayList<>();
        for (int seq = 0; seq < count; seq++) {
            int code = seq % 2 == 0 ? RequestCode.SEND_MESSAGE_V2 : RequestCode.SEND_BATCH_MESSAGE;
            responses.add(client.invoke(address, RemotingCommand.request(code).putExtField("seq", seq), TIMEOUT_MS));
        }
        for (int seq = 0; seq < count; seq++) {
            RemotingCommand response = responses.get(seq).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertEquals(ResponseCode.SUCCESS, response.code());
            assertEquals(seq, response.requireInt("seq"));
        }
        assertEquals(count, threads.size());
        assertTrue(threads.stream().allMatch(name -> name.startsWith("sluice-server-io")), threads.toString());
        Await.until("all released", () -> serverSide.get().inFlightRequests() == 0
                && server.counters().responses() == count);
        assertFalse(serverSide.get().isReadPaused());
    }

    @Test
    void aHandlerOnTheIoThreadTakesNoExecutor() {
        ExecutorService admin = Executors.newSingleThreadExecutor();
        closeables.add(admin::shutdownNow);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HandlerOptions(admin, true, true, null, null));
        assertTrue(e.getMessage().contains("takes no executor"), e.getMessage());
        HandlerOptions unmetered = HandlerOptions.IO_THREAD.withoutFlowControl();
        assertTrue(unmetered.onIoThread());
        assertFalse(unmetered.flowControlled());
        assertFalse(HandlerOptions.onExecutor(admin).onIoThread());
    }

    @Test
    void aResponseThatCannotBeEncodedIsReplacedBySystemError() throws Exception {
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(1, RequestHandler.sync((connection, request) ->
                RemotingCommand.response(70_000, "too large a code for the binary header")));
        String address = start(server);
        RemotingCommand response = call(client(), address,
                RemotingCommand.request(1).setSerializeType(SerializeType.ROCKETMQ));
        assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
        assertTrue(response.remark().contains("70000"), response.remark());
        assertEquals(1, server.counters().responseWriteFailures());
    }

    @Test
    void serverSendsRequestsAndOnewayNotificationsToTheClient() throws Exception {
        AtomicReference<ConnectionContext> clientConnection = new AtomicReference<>();
        List<String> closed = new CopyOnWriteArrayList<>();
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.HEART_BEAT, RequestHandler.sync((connection, request) -> {
            connection.attach(request.requireString("clientID"));
            clientConnection.set(connection);
            return RemotingCommand.responseTo(request);
        }));
        server.addConnectionListener(new ConnectionListener() {
            @Override
            public void onClosed(ConnectionContext connection) {
                closed.add((String) connection.attachment());
            }
        });
        String address = start(server);

        List<String> notified = new CopyOnWriteArrayList<>();
        RemotingClient client = client();
        client.registerHandler(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, RequestHandler.sync((connection, request) -> {
            notified.add(request.requireString("consumerGroup"));
            return null;
        }));
        client.registerHandler(RequestCode.GET_CONSUMER_RUNNING_INFO, RequestHandler.sync((connection, request) ->
                RemotingCommand.responseTo(request).setBody(new byte[] {7})));
        call(client, address, RemotingCommand.request(RequestCode.HEART_BEAT).putExtField("clientID", "c1"));

        ConnectionContext toClient = clientConnection.get();
        assertTrue(toClient.isActive());
        toClient.sendOneway(RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED)
                .putExtField("consumerGroup", "sub-x")).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        RemotingCommand info = toClient.sendRequest(RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO),
                TIMEOUT_MS).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        assertEquals(7, info.body()[0]);
        RemotingCommand unknown = toClient.sendRequest(RemotingCommand.request(39), TIMEOUT_MS)
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, unknown.code());
        assertEquals(List.of("sub-x"), notified);
        Await.until("two answers, none for the oneway notification", () -> client.counters().responses() == 2);
        assertEquals(1, client.counters().onewayRequests());

        client.closeConnection(address);
        Await.until("close listener ran", () -> closed.equals(List.of("c1")), closed::toString);
        assertFalse(toClient.isActive());
        ExecutionException e = assertThrows(ExecutionException.class, () -> toClient.sendRequest(
                RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO), TIMEOUT_MS).get(TIMEOUT_MS,
                TimeUnit.MILLISECONDS));
        assertInstanceOf(ConnectionClosedException.class, e.getCause());
    }

    @Test
    void anUnansweredServerRequestTimesOut() throws Exception {
        AtomicReference<ConnectionContext> clientConnection = new AtomicReference<>();
        RemotingServer server = server(ServerSettings.builder());
        server.registerHandler(RequestCode.HEART_BEAT, RequestHandler.sync((connection, request) -> {
            clientConnection.set(connection);
            return RemotingCommand.responseTo(request);
        }));
        String address = start(server);
        RemotingClient client = client();
        client.registerHandler(RequestCode.GET_CONSUMER_RUNNING_INFO,
                (connection, request) -> new CompletableFuture<>());
        call(client, address, RemotingCommand.request(RequestCode.HEART_BEAT));
        ExecutionException e = assertThrows(ExecutionException.class, () -> clientConnection.get()
                .sendRequest(RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO), 50)
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(RemotingTimeoutException.class, e.getCause());
        assertEquals(1, server.counters().outboundTimeouts());
        assertNull(clientConnection.get().attachment());
    }
}
