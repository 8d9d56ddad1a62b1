package io.sluice.broker.handler;

import static io.sluice.broker.handler.HandlerFixture.props;
import static io.sluice.broker.handler.HandlerFixture.sendBatch;
import static io.sluice.broker.handler.HandlerFixture.sendV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.store.GetResult;
import io.sluice.broker.meta.TopicPerm;
import io.sluice.format.MessageIdDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendHandlerTest {

    private static final byte[] BODY = "hello".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private HandlerFixture f;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.createTopic("scq", 4, false);
        f.createTopic("bcq", 4, true);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private List<MessageExt> stored(String topic, int queueId, long expected) {
        f.awaitMaxOffset(topic, queueId, expected);
        GetResult result = f.store.getMessages(topic, queueId, 0, 100, 1 << 20, null);
        return result.records().stream()
                .map(r -> MessageDecoder.decode(r.duplicate(), true, true, true))
                .toList();
    }

    @Test
    void shouldStoreSingleMessagesWithCompleteResponseHeaders() {
        RemotingCommand first = f.send(sendV2("scq", 2, props("UNIQ_KEY", "ABC", "TAGS", "T1", "WAIT", "true"), BODY));
        assertEquals(ResponseCode.SUCCESS, first.code());
        assertEquals("2", first.extField("queueId"));
        assertEquals("0", first.extField("queueOffset"));
        assertEquals("ABC", first.extField("transactionId"));
        assertNull(first.extField("batchUniqId"));
        assertEquals("DefaultRegion", first.extField("MSG_REGION"));
        MessageIdDescriptor.OffsetMsgId id = MessageIdDescriptor.decode(first.extField("msgId"));
        assertEquals(HandlerFixture.STORE_HOST, id.storeHost());

        RemotingCommand second = f.send(sendV2("scq", 2, props("UNIQ_KEY", "DEF"), BODY));
        assertEquals("1", second.extField("queueOffset"));

        List<MessageExt> messages = stored("scq", 2, 2);
        assertEquals(2, messages.size());
        MessageExt message = messages.get(0);
        assertEquals("ABC", message.getProperty("UNIQ_KEY"));
        assertEquals(HandlerFixture.CLUSTER, message.getProperty("CLUSTER"));
        assertEquals("DefaultRegion", message.getProperty("MSG_REGION"), "a traced consumption needs the region");
        assertEquals("true", message.getProperty("TRACE_ON"));
        assertEquals("T1", message.getTags());
        assertEquals("hello", new String(message.getBody(), StandardCharsets.UTF_8));
        assertEquals(1700000000000L, message.getBornTimestamp());
        assertEquals(id.position(), message.getCommitLogOffset());
    }

    @Test
    void shouldGenerateUniqKeyForSingleMessagesWithoutOne() {
        RemotingCommand response = f.send(sendV2("scq", 0, props("KEYS", "k"), BODY));
        String key = response.extField("transactionId");
        assertTrue(key != null && key.matches("[0-9A-F]{32}"), key);
        assertEquals(key, stored("scq", 0, 1).get(0).getProperty("UNIQ_KEY"));
        String next = f.send(sendV2("scq", 0, "", BODY)).extField("transactionId");
        assertTrue(!next.equals(key), "keys are unique");
    }

    @Test
    void shouldAcceptTheLongHeaderNamesOfSendMessage() {
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE)
                .putExtField("producerGroup", "pg")
                .putExtField("topic", "scq")
                .putExtField("defaultTopic", "TBW102")
                .putExtField("defaultTopicQueueNums", "4")
                .putExtField("queueId", "1")
                .putExtField("sysFlag", "0")
                .putExtField("bornTimestamp", "1")
                .putExtField("flag", "7")
                .putExtField("properties", props("UNIQ_KEY", "L1"))
                .setBody(BODY);
        RemotingCommand response = f.send(request);
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals("1", response.extField("queueId"));
        assertEquals(7, stored("scq", 1, 1).get(0).getFlag());
    }

    @Test
    void shouldUnpackBatchesOnSimpleTopics() {
        RemotingCommand response = f.send(sendBatch("scq", 3, props("UNIQ_KEY", "BATCH", "WAIT", "true"),
                List.of(props("UNIQ_KEY", "M0"), props("UNIQ_KEY", "M1"), props("UNIQ_KEY", "M2"))));
        assertEquals(ResponseCode.SUCCESS, response.code());
        String[] ids = response.extField("msgId").split(",");
        assertEquals(3, ids.length);
        assertEquals("0", response.extField("queueOffset"));
        assertNull(response.extField("batchUniqId"));
        List<MessageExt> messages = stored("scq", 3, 3);
        assertEquals(List.of("M0", "M1", "M2"), messages.stream().map(m -> m.getProperty("UNIQ_KEY")).toList());
        assertEquals(List.of(0L, 1L, 2L), messages.stream().map(MessageExt::getQueueOffset).toList());
        for (int i = 0; i < 3; i++) {
            assertEquals(MessageIdDescriptor.decode(ids[i]).position(), messages.get(i).getCommitLogOffset());
        }
    }

    @Test
    void shouldStoreOneInnerBatchRecordOnBatchTopics() throws Exception {
        f.send(sendBatch("bcq", 1, props("UNIQ_KEY", "B0"), List.of(props("UNIQ_KEY", "X"))));
        RemotingCommand response = f.send(sendBatch("bcq", 1, props("UNIQ_KEY", "B1", "WAIT", "true"),
                List.of(props("UNIQ_KEY", "M0"), props("UNIQ_KEY", "M1"), props("UNIQ_KEY", "M2"))));
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertEquals("B1", response.extField("batchUniqId"));
        assertEquals("B1", response.extField("transactionId"));
        assertEquals("1", response.extField("queueOffset"));
        assertEquals(1, response.extField("msgId").split(",").length);
        f.awaitMaxOffset("bcq", 1, 4);
        assertEquals(4, f.store.maxOffset("bcq", 1));
        List<MessageExt> records = stored("bcq", 1, 4);
        assertEquals(2, records.size());
        MessageExt batch = records.get(1);
        assertEquals(0xC0, batch.getSysFlag());
        assertEquals("3", batch.getProperty("INNER_NUM"));
        assertEquals(HandlerFixture.CLUSTER, batch.getProperty("CLUSTER"));
        assertEquals(1, batch.getQueueOffset());
        List<Message> inner = MessageDecoder.decodeMessages(
                ByteBuffer.wrap(batch.getBody()));
        assertEquals(3, inner.size());
    }

    @Test
    void shouldUnpackBatchesWithoutUniqKeyEvenOnBatchTopics() {
        RemotingCommand response = f.send(sendBatch("bcq", 0, props("WAIT", "true"),
                List.of(props("UNIQ_KEY", "M0"), props("UNIQ_KEY", "M1"))));
        assertEquals(2, response.extField("msgId").split(",").length);
        f.awaitMaxOffset("bcq", 0, 2);
        assertEquals(2, f.store.maxOffset("bcq", 0));
    }

    @Test
    void shouldPickAQueueWhenNoneIsGiven() {
        RemotingCommand response = f.send(sendV2("scq", -1, props("UNIQ_KEY", "Q"), BODY));
        int queueId = Integer.parseInt(response.extField("queueId"));
        assertTrue(queueId >= 0 && queueId < 4, "queue " + queueId);
    }

    @Test
    void shouldRedirectExhaustedRetriesToTheDeadLetterTopic() {
        RemotingCommand retry = sendV2("%RETRY%g", 0, props("UNIQ_KEY", "R"), BODY).putExtField("j", "17");
        RemotingCommand response = f.send(retry);
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertTrue(f.topics.find("%DLQ%g").isPresent());
        f.awaitMaxOffset("%DLQ%g", 0, 1);
        assertEquals(0, f.store.maxOffset("%RETRY%g", 0));

        RemotingCommand fresh = sendV2("%RETRY%g", 0, props("UNIQ_KEY", "S"), BODY).putExtField("j", "1");
        assertEquals(ResponseCode.SUCCESS, f.send(fresh).code());
        f.awaitMaxOffset("%RETRY%g", 0, 1);
        assertEquals(1, f.store.maxOffset("%DLQ%g", 0));
    }

    @Test
    void shouldRefuseBadSendsWithRemarksNamingTheValue() {
        assertRefused(f.send(sendV2("nope", 0, "", BODY)), ResponseCode.TOPIC_NOT_EXIST, "nope");
        assertRefused(f.send(sendV2("bad topic", 0, "", BODY)), ResponseCode.INVALID_PARAMETER, "bad topic");
        assertRefused(f.send(sendV2("scq", 9, "", BODY)), ResponseCode.INVALID_PARAMETER, "9");
        assertRefused(f.send(sendV2("scq", 0, "", new byte[(1 << 20) + 1])), ResponseCode.MESSAGE_ILLEGAL,
                String.valueOf((1 << 20) + 1));
        assertRefused(f.send(sendV2("SCHEDULE_TOPIC_XXXX", 0, "", BODY)), ResponseCode.NO_PERMISSION,
                "SCHEDULE_TOPIC_XXXX");
        assertRefused(f.send(sendBatch("%RETRY%g", 0, props("UNIQ_KEY", "B"), List.of(props("UNIQ_KEY", "M")))),
                ResponseCode.MESSAGE_ILLEGAL, "%RETRY%g");
        RemotingCommand missing = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg")
                .putExtField("b", "scq").setBody(BODY);
        assertRefused(f.send(missing), ResponseCode.INVALID_PARAMETER, "'c'");
        RemotingCommand garbageBatch = sendV2("scq", 0, "", new byte[] {0, 0, 0, 9, 1, 2, 3, 4, 5})
                .setCode(RequestCode.SEND_BATCH_MESSAGE);
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, f.send(garbageBatch).code());
        assertEquals(0, f.store.maxOffset("scq", 0), "nothing stored");
    }

    @Test
    void shouldRefuseEverySendWhenTheBrokerIsNotWritable(@TempDir Path other) throws Exception {
        try (HandlerFixture readOnly = new HandlerFixture(other, TopicPerm.READ, true)) {
            readOnly.createTopic("scq", 1, false);
            assertRefused(readOnly.send(sendV2("scq", 0, "", BODY)), ResponseCode.NO_PERMISSION, "broker-t");
        }
    }

    private static void assertRefused(RemotingCommand response, int code, String named) {
        assertEquals(code, response.code(), response.remark());
        assertTrue(response.remark() != null && response.remark().contains(named), response.remark());
    }
}
