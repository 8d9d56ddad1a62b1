package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.FakeConnection;
import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.ConsumeQueueType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicHandlerTest {

    @TempDir
    Path dir;

    private MetadataStore metadata;
    private TopicHandler handler;
    private final List<String> dropped = new CopyOnWriteArrayList<>();
    private final FakeConnection admin = new FakeConnection(3001);

    @BeforeEach
    void open() {
        metadata = MetadataStore.open(MetadataSettings.of(dir));
        handler = new TopicHandler(new TopicRegistry(metadata, new TopicSettings(false, 8), TopicAnnouncer.NONE),
                dropped::add);
    }

    @AfterEach
    void close() {
        metadata.close();
    }

    private static RemotingCommand create(String topic, String queues, String attributes) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", topic)
                .putExtField("defaultTopic", "TBW102")
                .putExtField("readQueueNums", queues)
                .putExtField("writeQueueNums", queues)
                .putExtField("perm", "6")
                .putExtField("topicFilterType", "SINGLE_TAG")
                .putExtField("topicSysFlag", "0")
                .putExtField("order", "false")
                .putExtField("force", "false");
        if (attributes != null) {
            request.putExtField("attributes", attributes);
        }
        return request;
    }

    @Test
    void shouldCreateReadAndDeleteTopics() {
        assertEquals(ResponseCode.SUCCESS, handler.onUpdateAndCreateTopic(admin,
                create("bcq", "16", "+queue.type=BatchCQ")).join().code());
        assertEquals(ResponseCode.SUCCESS, handler.onUpdateAndCreateTopic(admin, create("scq", "4", "")).join().code());

        RemotingCommand one = handler.onGetTopicConfig(admin, RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG)
                .putExtField("topic", "bcq").putExtField("lo", "true"));
        assertEquals(ResponseCode.SUCCESS, one.code());
        TopicConfig decoded = MetadataJson.topicFromJson(new String(one.body(), StandardCharsets.UTF_8));
        assertEquals(ConsumeQueueType.BATCH, decoded.queueType());
        assertEquals(16, decoded.readQueueNums());

        RemotingCommand all = handler.onGetAllTopicConfig(admin, RemotingCommand.request(
                RequestCode.GET_ALL_TOPIC_CONFIG));
        assertEquals("2", all.extField("totalTopicNum"));
        String body = new String(all.body(), StandardCharsets.UTF_8);
        assertTrue(body.contains("\"topicConfigTable\"") && body.contains("\"bcq\"") && body.contains("\"scq\""),
                body);

        RemotingCommand delete = RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER).putExtField("topic",
                "scq");
        assertEquals(ResponseCode.SUCCESS, handler.onDeleteTopic(admin, delete).code());
        assertEquals(List.of("scq"), dropped);
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, handler.onGetTopicConfig(admin, RemotingCommand.request(
                RequestCode.GET_TOPIC_CONFIG).putExtField("topic", "scq")).code());
    }

    @Test
    void shouldAnswerBadInputWithRemarksNamingTheValue() {
        RemotingCommand badName = handler.onUpdateAndCreateTopic(admin, create("no spaces", "4", "")).join();
        assertEquals(ResponseCode.INVALID_PARAMETER, badName.code());
        assertTrue(badName.remark().contains("no spaces"), badName.remark());

        RemotingCommand badQueues = handler.onUpdateAndCreateTopic(admin, create("t", "-3", "")).join();
        assertEquals(ResponseCode.INVALID_PARAMETER, badQueues.code());
        assertTrue(badQueues.remark().contains("-3"), badQueues.remark());

        RemotingCommand badType = handler.onUpdateAndCreateTopic(admin, create("t", "4", "+queue.type=Bogus"))
                .join();
        assertEquals(ResponseCode.SYSTEM_ERROR, badType.code());
        assertTrue(badType.remark().contains("Bogus"), badType.remark());

        RemotingCommand systemTopic = RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER)
                .putExtField("topic", "TBW102");
        assertEquals(ResponseCode.INVALID_PARAMETER, handler.onDeleteTopic(admin, systemTopic).code());
        assertTrue(dropped.isEmpty());
    }
}
