package io.sluice.client;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.client.internal.BatchEntryWriter;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.MessageProperties;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.body.TopicRouteData;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process stand-in for a name server and brokers, over real sockets on 127.0.0.1: the name server answers
 * routes for the topics a test declares; each broker stores sends in memory, assigns queue offsets, answers as
 * Apache does (comma-joined ids, or {@code batchUniqId} for BatchCQ topics) and can be told to fail.
 */
final class FakeCluster implements AutoCloseable {
    private final RemotingServer namesrv;
    private final List<FakeBroker> brokers = new ArrayList<>();
    private final Map<String, TopicRouteData> routes = new ConcurrentHashMap<>();
    final AtomicInteger routeQueries = new AtomicInteger();

    FakeCluster(int brokerCount) {
        for (int i = 0; i < brokerCount; i++) {
            brokers.add(new FakeBroker("broker-" + i));
        }
        namesrv = server();
        namesrv.registerHandler(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestHandler.sync((connection, request) -> {
            routeQueries.incrementAndGet();
            TopicRouteData route = routes.get(request.requireString("topic"));
            return route == null
                    ? RemotingCommand.response(ResponseCode.TOPIC_NOT_EXIST, "No topic route info in name server")
                    : RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(route));
        }));
        namesrv.start();
    }

    String namesrvAddress() {
        return "127.0.0.1:" + namesrv.port();
    }

    FakeBroker broker(int index) {
        return brokers.get(index);
    }

    /** Declares {@code topic} with {@code queues} queues on every broker. */
    void topic(String topic, int queues, boolean batchCq) {
        List<BrokerData> brokerDatas = new ArrayList<>();
        List<QueueData> queueDatas = new ArrayList<>();
        for (FakeBroker broker : brokers) {
            brokerDatas.add(new BrokerData("C", broker.name, Map.of(0L, broker.address()), false));
            queueDatas.add(new QueueData(broker.name, queues, queues, 6, 0));
            if (batchCq) {
                broker.batchCqTopics.add(topic);
            }
        }
        routes.put(topic, TopicRouteData.of(brokerDatas, queueDatas));
    }

    /** Drops {@code topic} from the name server's routes. */
    void removeTopic(String topic) {
        routes.remove(topic);
    }

    @Override
    public void close() {
        namesrv.close();
        brokers.forEach(broker -> broker.server.close());
    }

    private static RemotingServer server() {
        return new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).ioThreads(1).laneCount(1)
                .build());
    }

    /** One stored message as the fake broker saw it. */
    record Stored(String topic, int queueId, long offset, byte[] body, Map<String, String> properties, int flag) {
    }

    /** A broker that keeps messages in memory. */
    static final class FakeBroker {
        final String name;
        final RemotingServer server;
        final Set<String> batchCqTopics = ConcurrentHashMap.newKeySet();
        final List<Stored> stored = new CopyOnWriteArrayList<>();
        final List<RemotingCommand> sendRequests = new CopyOnWriteArrayList<>();
        final List<RemotingCommand> heartbeats = new CopyOnWriteArrayList<>();
        /** Response codes to answer the next sends with, instead of storing them. */
        final ConcurrentLinkedDeque<Integer> failNext = new ConcurrentLinkedDeque<>();
        private final Map<String, Long> offsets = new HashMap<>();
        private long position;

        FakeBroker(String name) {
            this.name = name;
            this.server = server();
            RequestHandler send = RequestHandler.sync((connection, request) -> onSend(request));
            server.registerHandler(RequestCode.SEND_MESSAGE_V2, send);
            server.registerHandler(RequestCode.SEND_BATCH_MESSAGE, send);
            server.registerHandler(RequestCode.HEART_BEAT, RequestHandler.sync((connection, request) -> {
                heartbeats.add(request);
                return RemotingCommand.response(ResponseCode.SUCCESS, null);
            }));
            server.registerHandler(RequestCode.GET_TOPIC_CONFIG, RequestHandler.sync((connection, request) -> {
                String topic = request.requireString("topic");
                return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(
                        new TopicConfigWire(topic, 4, 4, 6, null, 0, false, Map.of("queue.type",
                                batchCqTopics.contains(topic) ? "BatchCQ" : "SimpleCQ"))));
            }));
            server.registerHandler(RequestCode.UNREGISTER_CLIENT, RequestHandler.sync((connection, request) ->
                    RemotingCommand.response(ResponseCode.SUCCESS, null)));
            server.start();
        }

        String address() {
            return "127.0.0.1:" + server.port();
        }

        List<Stored> stored() {
            return Collections.unmodifiableList(stored);
        }

        private synchronized RemotingCommand onSend(RemotingCommand request) {
            sendRequests.add(request);
            Integer failure = failNext.poll();
            if (failure != null) {
                return RemotingCommand.response(failure, "injected failure " + failure);
            }
            String topic = request.requireString("b");
            int queueId = request.requireInt("e");
            boolean batch = request.optionalBoolean("m", false);
            Map<String, String> header = MessageProperties.parse(request.extField("i"));
            List<BatchBodyDescriptor.Message> entries = batch
                    ? BatchBodyDescriptor.decode(ByteBuffer.wrap(request.body()))
                    : List.of(new BatchBodyDescriptor.Message(request.requireInt("h"), request.body(),
                            request.extField("i")));
            String key = topic + "/" + queueId;
            long base = offsets.getOrDefault(key, 0L);
            offsets.put(key, base + entries.size());
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                BatchBodyDescriptor.Message entry = entries.get(i);
                stored.add(new Stored(topic, queueId, base + i, entry.body(),
                        MessageProperties.parse(entry.properties()),
                        entry.flag()));
                ids.add(MessageIdDescriptor.offsetMsgId(new byte[] {127, 0, 0, 1}, server.port(), position));
                position += 100;
            }
            boolean inner = batch && batchCqTopics.contains(topic);
            RemotingCommand response = RemotingCommand.response(ResponseCode.SUCCESS, null)
                    .putExtField("msgId", inner ? ids.get(0) : String.join(",", ids))
                    .putExtField("queueId", queueId)
                    .putExtField("queueOffset", base);
            if (inner) {
                response.putExtField("batchUniqId", header.get("UNIQ_KEY"));
            }
            return response;
        }
    }
}
