package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.format.MessageIdDescriptor;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.remoting.transport.RemotingTimeoutException;
import io.sluice.store.log.AppendResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.GroupList;
import org.apache.rocketmq.remoting.protocol.body.ProducerTableInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who consumes and produces what, read with Apache's classes, and the two requests forwarded to a live consumer:
 * the consumer's answer comes back as it gave it; CONSUME_MESSAGE_DIRECTLY carries the stored record named by the
 * message id with the broker name and the topic's and group's flags; a consumer that does not answer in time is
 * CONSUME_MSG_TIMEOUT.
 */
@Timeout(30)
class ConsumerAdminHandlerTest {

    private static final String CLIENT = "10.0.0.7@consumer-1";

    @TempDir
    Path dir;

    private HandlerFixture f;
    private ConsumerAdminHandler handler;
    private final FakeConnection consumer = new FakeConnection(41_001);

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.createTopic("T", 2, false);
        handler = new ConsumerAdminHandler(f.clients, f.metadata, f.store, f.topics, f.groups, "broker-t");
        f.groups.put(SubscriptionGroupConfig.builder("online").groupSysFlag(3).build());
        f.clients.registerConsumer(consumer, CLIENT, LanguageCode.JAVA, 479, new ConsumerData("online",
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                Set.of(new SubscriptionData("T", "*", Set.of(), Set.of(), 1, "TAG", false)), false));
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void theGroupsOfATopicAreTheOnlineSubscribersAndThoseWithCommittedOffsets() {
        f.metadata.commitOffset("offline", "T", 1, 3);
        f.metadata.commitOffset("elsewhere", "U", 0, 1);
        RemotingCommand response = handler.onQueryTopicConsumeByWho(f.connection,
                RemotingCommand.request(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO).putExtField("topic", "T"));
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals(Set.of("online", "offline"),
                RemotingSerializable.decode(response.body(), GroupList.class).getGroupList());
    }

    @Test
    void theProducerTableListsEveryOnlineProducerGroup() {
        f.clients.registerProducer(new FakeConnection(41_002), "10.0.0.8@producer-1", LanguageCode.JAVA, 479, "pg");
        RemotingCommand response = handler.onGetAllProducerInfo(f.connection,
                RemotingCommand.request(RequestCode.GET_ALL_PRODUCER_INFO));
        ProducerTableInfo table = RemotingSerializable.decode(response.body(), ProducerTableInfo.class);
        assertEquals(Set.of("pg"), table.getData().keySet());
        assertEquals("10.0.0.8@producer-1", table.getData().get("pg").get(0).getClientId());
    }

    @Test
    void runningInfoIsAskedOfTheConsumerAndItsAnswerRelayed() throws Exception {
        AtomicReference<RemotingCommand> forwarded = new AtomicReference<>();
        consumer.answerRequests(request -> {
            forwarded.set(request);
            return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, "fine")
                    .putExtField("answeredBy", CLIENT).setBody("{\"properties\":{}}".getBytes(StandardCharsets.UTF_8)));
        });
        RemotingCommand answer = handler.onGetConsumerRunningInfo(f.connection,
                RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO).putExtField("consumerGroup", "online")
                        .putExtField("clientId", CLIENT).putExtField("jstackEnable", false))
                .get(10, TimeUnit.SECONDS);
        assertEquals(RequestCode.GET_CONSUMER_RUNNING_INFO, forwarded.get().code());
        assertEquals("false", forwarded.get().extField("jstackEnable"), "the headers go unchanged");
        assertEquals(ResponseCode.SUCCESS, answer.code());
        assertEquals("fine", answer.remark());
        assertEquals(CLIENT, answer.extField("answeredBy"));
        assertEquals("{\"properties\":{}}", new String(answer.body(), StandardCharsets.UTF_8));
    }

    @Test
    void consumeDirectlyForwardsTheStoredRecordWithTheBrokersHeaders() throws Exception {
        AppendResult stored = f.store.append(OpenStores.draft("T", 1, "direct", "")).join();
        AtomicReference<RemotingCommand> forwarded = new AtomicReference<>();
        consumer.answerRequests(request -> {
            forwarded.set(request);
            return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SUCCESS, null));
        });
        String msgId = MessageIdDescriptor.offsetMsgId(HandlerFixture.STORE_HOST, stored.position());
        RemotingCommand answer = handler.onConsumeMessageDirectly(f.connection, directly(msgId))
                .get(10, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SUCCESS, answer.code());
        RemotingCommand request = forwarded.get();
        assertEquals("broker-t", request.extField("brokerName"));
        assertEquals("3", request.extField("groupSysFlag"));
        assertEquals("0", request.extField("topicSysFlag"));
        ByteBuffer record = f.store.recordAt(stored.position()).orElseThrow();
        byte[] expected = new byte[record.remaining()];
        record.get(expected);
        assertArrayEquals(expected, request.body(), "the whole stored record");
    }

    @Test
    void aConsumerThatDoesNotAnswerInTimeIsATimeoutAndAnIdWithoutARecordIsRefused() throws Exception {
        consumer.answerRequests(request -> CompletableFuture.failedFuture(
                new RemotingTimeoutException("no answer within 10000 ms")));
        RemotingCommand late = handler.onGetConsumerRunningInfo(f.connection,
                RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO).putExtField("consumerGroup", "online")
                        .putExtField("clientId", CLIENT)).get(10, TimeUnit.SECONDS);
        assertEquals(ResponseCode.CONSUME_MSG_TIMEOUT, late.code());
        assertTrue(late.remark().startsWith("consumer <online> <" + CLIENT + "> did not answer"), late.remark());

        String nowhere = MessageIdDescriptor.offsetMsgId(HandlerFixture.STORE_HOST, 1L << 40);
        RemotingCommand missing = handler.onConsumeMessageDirectly(f.connection, directly(nowhere))
                .get(10, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.code());
        assertEquals("no stored message has the id " + nowhere, missing.remark());
    }

    private static RemotingCommand directly(String msgId) {
        return RemotingCommand.request(RequestCode.CONSUME_MESSAGE_DIRECTLY).putExtField("consumerGroup", "online")
                .putExtField("clientId", CLIENT).putExtField("msgId", msgId).putExtField("topic", "T");
    }
}
