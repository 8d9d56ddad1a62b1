package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.GetConsumerListByGroupResponseBody;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.ProducerData;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientHandlerTest {

    @TempDir
    Path dir;

    private MetadataStore metadata;
    private ExecutorService admin;
    private ClientRegistry clients;
    private TopicRegistry topics;
    private ClientHandler handler;
    private final List<String> announced = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        admin = Executors.newSingleThreadExecutor();
        SubscriptionGroups groups = new SubscriptionGroups(metadata, true);
        clients = new ClientRegistry(120_000, SystemEpochClock.INSTANCE, groups::notifyEnabled);
        TopicAnnouncer recorder = (list, version) -> {
            list.forEach(t -> announced.add(t.topicName()));
            return CompletableFuture.completedFuture(null);
        };
        topics = new TopicRegistry(metadata, new TopicSettings(false, 8), recorder);
        handler = new ClientHandler(clients, groups, topics, admin);
    }

    @AfterEach
    void close() {
        admin.shutdownNow();
        metadata.close();
    }

    private static RemotingCommand heartbeat(String clientId, String group, String... topicsSubscribed) {
        Set<SubscriptionData> subs = new HashSet<>();
        for (String t : topicsSubscribed) {
            subs.add(new SubscriptionData(t, "*", Set.of(), Set.of(), 1, "TAG", false));
        }
        Set<ConsumerData> consumers = group == null ? Set.of() : Set.of(new ConsumerData(group,
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                subs, false));
        HeartbeatData data = new HeartbeatData(clientId, Set.of(new ProducerData("CLIENT_INNER_PRODUCER")), consumers,
                0, false);
        return RemotingCommand.request(RequestCode.HEART_BEAT).setBody(BodyCodec.encode(data));
    }

    @Test
    void shouldCreateGroupAndRetryTopicBeforeAnswering() {
        FakeConnection connection = new FakeConnection(2001);
        RemotingCommand response = handler.onHeartbeat(connection, heartbeat("ip@c1", "sub-x", "T", "%RETRY%sub-x"))
                .join();
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertTrue(metadata.getGroup("sub-x").isPresent());
        TopicConfig retry = metadata.getTopic("%RETRY%sub-x").orElseThrow();
        assertEquals(1, retry.writeQueueNums());
        assertEquals(List.of("%RETRY%sub-x"), announced);
        assertEquals(1, connection.onewaySent().size(), "the new member is told to rebalance");
        assertEquals("sub-x", connection.onewaySent().get(0).extField("consumerGroup"));
        assertEquals(Set.of("CLIENT_INNER_PRODUCER"), clients.producerGroups());

        RemotingCommand again = handler.onHeartbeat(connection, heartbeat("ip@c1", "sub-x", "T", "%RETRY%sub-x"))
                .join();
        assertEquals(ResponseCode.SUCCESS, again.code());
        assertEquals(1, connection.onewaySent().size(), "no change, no notification");
        assertEquals(1, announced.size());
    }

    @Test
    void shouldListConsumersAndUnregister() {
        FakeConnection a = new FakeConnection(2001);
        FakeConnection b = new FakeConnection(2002);
        handler.onHeartbeat(a, heartbeat("ip@a", "g", "T")).join();
        handler.onHeartbeat(b, heartbeat("ip@b", "g", "T")).join();
        RemotingCommand list = handler.onGetConsumerList(a, RemotingCommand.request(
                RequestCode.GET_CONSUMER_LIST_BY_GROUP).putExtField("consumerGroup", "g"));
        assertEquals(ResponseCode.SUCCESS, list.code());
        assertEquals(List.of("ip@a", "ip@b"),
                BodyCodec.decode(list.body(), GetConsumerListByGroupResponseBody.class).consumerIdList());

        RemotingCommand unregister = RemotingCommand.request(RequestCode.UNREGISTER_CLIENT)
                .putExtField("clientID", "ip@a").putExtField("consumerGroup", "g");
        assertEquals(ResponseCode.SUCCESS, handler.onUnregisterClient(a, unregister).code());
        assertEquals(List.of("ip@b"), clients.consumerIds("g"));

        RemotingCommand none = handler.onGetConsumerList(a, RemotingCommand.request(
                RequestCode.GET_CONSUMER_LIST_BY_GROUP).putExtField("consumerGroup", "nobody"));
        assertEquals(ResponseCode.SYSTEM_ERROR, none.code());
        assertTrue(none.remark().contains("nobody"));
    }

    @Test
    void shouldRefuseBadHeartbeats() {
        FakeConnection connection = new FakeConnection(2001);
        RemotingCommand garbage = RemotingCommand.request(RequestCode.HEART_BEAT)
                .setBody("{not json".getBytes(StandardCharsets.UTF_8));
        assertEquals(ResponseCode.SYSTEM_ERROR, handler.onHeartbeat(connection, garbage).join().code());
        RemotingCommand badGroup = handler.onHeartbeat(connection, heartbeat("ip@c", "bad group", "T")).join();
        assertEquals(ResponseCode.INVALID_PARAMETER, badGroup.code());
        assertTrue(badGroup.remark().contains("bad group"), badGroup.remark());
        assertEquals(Set.of(), clients.consumerGroups());
    }

    @Test
    void shouldAcceptProducerOnlyHeartbeats() {
        FakeConnection connection = new FakeConnection(2001);
        assertEquals(ResponseCode.SUCCESS, handler.onHeartbeat(connection, heartbeat("ip@p", null)).join().code());
        assertEquals(Set.of("CLIENT_INNER_PRODUCER"), clients.producerGroups());
        assertTrue(announced.isEmpty());
    }
}
