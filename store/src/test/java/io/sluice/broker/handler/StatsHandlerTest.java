package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeStats;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.OffsetWrapper;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.protocol.body.TopicOffset;
import io.sluice.remoting.protocol.body.TopicStatsTable;
import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsHandlerTest {

    @TempDir
    Path dir;

    private OpenStores stores;
    private ClientRegistry clients;
    private BrokerStats stats;
    private StatsHandler handler;
    private final FakeConnection connection = new FakeConnection(5001);

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        TopicRegistry topics = new TopicRegistry(stores.metadata(), new TopicSettings(false, 8),
                (list, version) -> CompletableFuture.completedFuture(null));
        clients = new ClientRegistry(120_000, SystemEpochClock.INSTANCE, group -> false);
        stats = new BrokerStats(() -> 0, SystemEpochClock.INSTANCE, ZoneOffset.UTC);
        handler = new StatsHandler(stores.store(), topics, StatsHandler.CommittedOffsets.of(stores.metadata()),
                clients, stats, "broker-a", new SubscriptionGroups(stores.metadata(), false), "127.0.0.1:10911",
                () -> 1_000);
        stores.createTopic("T", 2);
        stores.createTopic("U", 1);
    }

    @AfterEach
    void close() {
        stores.close();
    }

    private static MessageQueue mq(String topic, int queueId) {
        return new MessageQueue(topic, "broker-a", queueId);
    }

    @Test
    void shouldReportEveryQueueOfATopic() {
        stores.append(OpenStores.draft("T", 1, "a", ""));
        AppendResult last = stores.append(OpenStores.draft("T", 1, "b", ""));
        RemotingCommand response = handler.onGetTopicStats(connection,
                RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO).putExtField("topic", "T"));
        assertEquals(ResponseCode.SUCCESS, response.code());
        TopicStatsTable table = BodyCodec.decode(response.body(), TopicStatsTable.class);
        assertEquals(2, table.offsetTable().size());
        assertEquals(new TopicOffset(0, 0, 0), table.offsetTable().get(mq("T", 0)));
        assertEquals(new TopicOffset(0, 2, last.storeTimestampMs()), table.offsetTable().get(mq("T", 1)));
    }

    @Test
    void shouldAnswerTopicNotExist() {
        RemotingCommand response = handler.onGetTopicStats(connection,
                RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO).putExtField("topic", "nope"));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, response.code());
    }

    @Test
    void shouldReportConsumerProgressOfTheCommittedTopics() {
        stores.append(OpenStores.draft("T", 0, "a", ""));
        AppendResult second = stores.append(OpenStores.draft("T", 0, "b", ""));
        stores.append(OpenStores.draft("T", 0, "c", ""));
        stores.metadata().commitOffset("g", "T", 0, 2);
        stats.onPull("g", "T", 0, 3, 3);

        ConsumeStats body = consumeStats(RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "g"));
        assertEquals(2, body.offsetTable().size(), "the two queues of T; U has no offsets");
        assertEquals(new OffsetWrapper(3, 2, 3, second.storeTimestampMs()), body.offsetTable().get(mq("T", 0)));
        assertEquals(new OffsetWrapper(0, 0, 0, 0), body.offsetTable().get(mq("T", 1)));

        ConsumeStats onlyU = consumeStats(RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "g").putExtField("topic", "U"));
        assertEquals(Set.of(mq("U", 0)), onlyU.offsetTable().keySet());

        ConsumeStats list = consumeStats(RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "g").putExtField("topicList", "U;T;missing"));
        assertEquals(3, list.offsetTable().size());
    }

    @Test
    void shouldLeaveOutTopicsAnOnlineGroupDoesNotSubscribe() {
        stores.metadata().commitOffset("g", "T", 0, 0);
        stores.metadata().commitOffset("g", "U", 0, 0);
        clients.registerConsumer(connection, "ip@c1", LanguageCode.JAVA, 475, new ConsumerData("g",
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                Set.of(new SubscriptionData("U", "*", Set.of(), Set.of(), 1, "TAG", false)), false));
        ConsumeStats body = consumeStats(RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "g"));
        assertEquals(Set.of(mq("U", 0)), body.offsetTable().keySet());
    }

    @Test
    void shouldAnswerAnEmptyTableForAnUnknownGroup() {
        assertEquals(0, consumeStats(RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "nobody")).offsetTable().size());
    }

    private ConsumeStats consumeStats(RemotingCommand request) {
        RemotingCommand response = handler.onGetConsumeStats(connection, request);
        assertEquals(ResponseCode.SUCCESS, response.code());
        return BodyCodec.decode(response.body(), ConsumeStats.class);
    }
}
