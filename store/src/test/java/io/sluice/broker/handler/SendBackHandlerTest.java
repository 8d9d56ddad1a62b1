package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.ScheduleSettings;
import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.testing.OpenStores;
import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.MessageDraft;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendBackHandlerTest {

    private static final String SCHEDULE = DelayScheduler.SCHEDULE_TOPIC;

    @TempDir
    Path dir;

    private OpenStores stores;
    private final AtomicLong nowMs = new AtomicLong();
    private final List<String> announced = new CopyOnWriteArrayList<>();
    private SubscriptionGroups groups;
    private TopicRegistry topics;
    private DelayScheduler scheduler;
    private BrokerStats stats;
    private SendBackHandler handler;
    private final FakeConnection connection = new FakeConnection(4001);

    @BeforeEach
    void open() throws IOException {
        stores = OpenStores.open(dir);
        stores.createTopic("T", 4);
        TopicAnnouncer recorder = (list, version) -> {
            list.forEach(t -> announced.add(t.topicName()));
            return CompletableFuture.completedFuture(null);
        };
        topics = new TopicRegistry(stores.metadata(), new TopicSettings(false, 8), recorder);
        groups = new SubscriptionGroups(stores.metadata(), true);
        scheduler = new DelayScheduler(stores.store(), stores.metadata(), ScheduleSettings.defaults(), nowMs::get);
        scheduler.installScheduleTopic();
        stats = new BrokerStats(() -> 0, nowMs::get, ZoneOffset.UTC);
        handler = handler(TopicPerm.READ_WRITE);
    }

    private SendBackHandler handler(int brokerPermission) {
        return new SendBackHandler(stores.store(), topics, groups, scheduler, stats, brokerPermission, Runnable::run);
    }

    @AfterEach
    void close() {
        stores.close();
    }

    private static RemotingCommand sendBack(long position, String group, int delayLevel) {
        return sendBackWithoutLimit(position, group, delayLevel).putExtField("maxReconsumeTimes", 16);
    }

    private static RemotingCommand sendBackWithoutLimit(long position, String group, int delayLevel) {
        return RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", position)
                .putExtField("group", group)
                .putExtField("delayLevel", delayLevel)
                .putExtField("originMsgId", "UNIQ-1")
                .putExtField("originTopic", "T")
                .putExtField("unitMode", "false");
    }

    private RemotingCommand call(RemotingCommand request) {
        RemotingCommand response = handler.onSendBack(connection, request).join();
        stores.awaitDispatched();
        return response;
    }

    private AppendResult original() {
        return stores.append(OpenStores.draft("T", 1, "retry-me", "TAGS\u0001TagB\u0002UNIQ_KEY\u0001UNIQ-1\u0002"));
    }

    private StoredMessage only(String topic, int queueId) {
        List<ByteBuffer> records = stores.records(topic, queueId);
        assertEquals(1, records.size(), () -> topic + "-" + queueId + " holds " + records.size() + " records");
        return StoredMessage.decode(records.get(0));
    }

    @Test
    void shouldParkARetryAtLevelThreeAndDeliverItToTheRetryTopic() {
        AppendResult original = original();
        RemotingCommand response = call(sendBack(original.position(), "g", 0));
        assertEquals(ResponseCode.SUCCESS, response.code(), response::remark);
        assertTrue(stores.metadata().getGroup("g").isPresent(), "group auto-created");
        assertEquals(List.of("%RETRY%g"), announced);

        StoredMessage parked = only(SCHEDULE, 2);
        assertEquals("%RETRY%g", parked.property(MessageProperties.REAL_TOPIC));
        assertEquals("0", parked.property(MessageProperties.REAL_QID));
        assertEquals("3", parked.property(MessageProperties.DELAY));

        nowMs.set(parked.storeTimestampMs() + 10_000);
        assertEquals(1, scheduler.doWork());
        stores.awaitDispatched();
        StoredMessage retry = only("%RETRY%g", 0);
        assertEquals("retry-me", OpenStores.bodyText(retry.body()));
        assertEquals(1, retry.reconsumeTimes());
        assertEquals("T", retry.property(MessageProperties.RETRY_TOPIC));
        assertEquals(original.msgIds(), retry.property(MessageProperties.ORIGIN_MESSAGE_ID));
        assertEquals("false", retry.property(MessageProperties.WAIT));
        assertEquals("TagB", retry.property(MessageProperties.TAGS));
        assertEquals("UNIQ-1", retry.property(MessageProperties.UNIQ_KEY));
        assertNull(retry.property(MessageProperties.DELAY));
        assertEquals(OpenStores.BORN_HOST, retry.bornHost());
        assertEquals(1_700_000_000_000L, retry.bornTimestampMs());

        RemotingCommand again = call(sendBack(retry.position(), "g", 0));
        assertEquals(ResponseCode.SUCCESS, again.code(), again::remark);
        StoredMessage second = only(SCHEDULE, 3);
        assertEquals("4", second.property(MessageProperties.DELAY), "3 + reconsumeTimes");
        assertEquals(2, second.reconsumeTimes());
        assertEquals("T", second.property(MessageProperties.RETRY_TOPIC), "the first topic is kept");
        assertEquals(original.msgIds(), second.property(MessageProperties.ORIGIN_MESSAGE_ID));
    }

    @Test
    void shouldUseTheRequestedDelayLevel() {
        AppendResult original = original();
        assertEquals(ResponseCode.SUCCESS, call(sendBack(original.position(), "g", 1)).code());
        assertEquals("1", only(SCHEDULE, 0).property(MessageProperties.DELAY));
    }

    @Test
    void shouldSendToTheDeadLetterTopicBeyondTheReconsumeLimit() {
        AppendResult original = stores.append(MessageDraft.builder("T", 0).body("dead".getBytes(StandardCharsets.UTF_8))
                .bornHost(OpenStores.BORN_HOST).reconsumeTimes(16).propertiesText("DELAY\u00015\u0002").build());
        RemotingCommand response = call(sendBack(original.position(), "g", 0));
        assertEquals(ResponseCode.SUCCESS, response.code(), response::remark);
        StoredMessage dead = only("%DLQ%g", 0);
        assertEquals(17, dead.reconsumeTimes());
        assertNull(dead.property(MessageProperties.DELAY), "dead letters are not delayed");
        assertEquals("T", dead.property(MessageProperties.RETRY_TOPIC));
        assertTrue(announced.contains("%DLQ%g"));
        assertEquals(1, stores.metadata().getTopic("%DLQ%g").orElseThrow().writeQueueNums());
    }

    @Test
    void shouldSendToTheDeadLetterTopicForANegativeLevelOrTheGroupLimit() {
        AppendResult original = original();
        assertEquals(ResponseCode.SUCCESS, call(sendBack(original.position(), "g", -1)).code());
        assertEquals(1, stores.records("%DLQ%g", 0).size());

        stores.metadata().putGroup(SubscriptionGroupConfig.builder("h").retryMaxTimes(0).build());
        assertEquals(ResponseCode.SUCCESS, call(sendBackWithoutLimit(original.position(), "h", 0)).code());
        assertEquals(1, stores.records("%DLQ%h", 0).size(), "retryMaxTimes 0 of the group applies");
    }

    @Test
    void shouldGiveBackEachMessageOfAnInnerBatch() {
        stores.createTopic("B", 1, ConsumeQueueType.BATCH);
        byte[] body = BatchBodyDescriptor.encode(List.of(
                new BatchBodyDescriptor.Message(0, "one".getBytes(StandardCharsets.UTF_8), "UNIQ_KEY\u0001U1\u0002"),
                new BatchBodyDescriptor.Message(0, "two".getBytes(StandardCharsets.UTF_8), "UNIQ_KEY\u0001U2\u0002")));
        AppendResult batch = stores.append(MessageDraft.builder("B", 0).body(body).bornHost(OpenStores.BORN_HOST)
                .propertiesText("UNIQ_KEY\u0001BATCH\u0002TAGS\u0001t\u0002").kind(AppendKind.INNER_BATCH).build());
        RemotingCommand response = call(sendBack(batch.position(), "g", 1));
        assertEquals(ResponseCode.SUCCESS, response.code(), response::remark);
        List<StoredMessage> parked = stores.records(SCHEDULE, 0).stream().map(StoredMessage::decode).toList();
        assertEquals(List.of("one", "two"), parked.stream().map(m -> OpenStores.bodyText(m.body())).toList());
        assertEquals(List.of("U1", "U2"), parked.stream().map(m -> m.property(MessageProperties.UNIQ_KEY)).toList());
        for (StoredMessage m : parked) {
            assertEquals(false, m.isInnerBatch());
            assertEquals("t", m.property(MessageProperties.TAGS));
            assertEquals("B", m.property(MessageProperties.RETRY_TOPIC));
            assertNull(m.property(MessageProperties.INNER_NUM));
        }
    }

    @Test
    void shouldRefuseWhatCannotBeGivenBack() {
        AppendResult original = original();
        RemotingCommand missing = call(sendBack(original.nextPosition() + 1_000, "g", 0));
        assertEquals(ResponseCode.SYSTEM_ERROR, missing.code());
        assertTrue(missing.remark().startsWith("look message by offset failed"), missing.remark());

        RemotingCommand readOnly = handler(TopicPerm.READ).onSendBack(connection, sendBack(0, "g", 0)).join();
        assertEquals(ResponseCode.NO_PERMISSION, readOnly.code());

        SendBackHandler noAutoCreate = new SendBackHandler(stores.store(), topics,
                new SubscriptionGroups(stores.metadata(), false), scheduler, stats, TopicPerm.READ_WRITE, Runnable::run);
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                noAutoCreate.onSendBack(connection, sendBack(original.position(), "unknown", 0)).join().code());
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                handler.onSendBack(connection, sendBack(original.position(), "bad group!", 0)).join().code());
    }

    @Test
    void shouldDropSilentlyWhenTheGroupHasNoRetryQueues() {
        stores.metadata().putGroup(SubscriptionGroupConfig.builder("g").retryQueueNums(0).build());
        AppendResult original = original();
        assertEquals(ResponseCode.SUCCESS, call(sendBack(original.position(), "g", 0)).code());
        assertTrue(stores.metadata().getTopic("%RETRY%g").isEmpty());
        assertEquals(0, stores.records(SCHEDULE, 2).size());
    }
}
