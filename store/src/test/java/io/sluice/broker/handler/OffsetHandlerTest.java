package io.sluice.broker.handler;

import static io.sluice.broker.handler.HandlerFixture.props;
import static io.sluice.broker.handler.HandlerFixture.sendV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetHandlerTest {

    @TempDir
    Path dir;

    private HandlerFixture f;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.createTopic("scq", 2, false);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static RemotingCommand queue(int code, String topic, int queueId) {
        return RemotingCommand.request(code).putExtField("topic", topic).putExtField("queueId", Integer.toString(queueId));
    }

    private RemotingCommand query(String group, int queueId) {
        return f.offsets.onQueryConsumerOffset(f.connection, queue(RequestCode.QUERY_CONSUMER_OFFSET, "scq", queueId)
                .putExtField("consumerGroup", group));
    }

    private RemotingCommand update(String group, String topic, int queueId, long offset) {
        return f.offsets.onUpdateConsumerOffset(f.connection, queue(RequestCode.UPDATE_CONSUMER_OFFSET, topic, queueId)
                .putExtField("consumerGroup", group).putExtField("commitOffset", Long.toString(offset)));
    }

    private long sendOne(int queueId) {
        f.send(sendV2("scq", queueId, props("UNIQ_KEY", "K" + System.nanoTime()), new byte[] {1}));
        return System.currentTimeMillis();
    }

    @Test
    void shouldAnswerCommittedOffsetsAndTheHotDataRule() {
        RemotingCommand empty = query("g", 0);
        assertEquals(ResponseCode.SUCCESS, empty.code());
        assertEquals("0", empty.extField("offset"), "an empty queue: from 0, so no first message is skipped");
        RemotingCommand noTopic = f.offsets.onQueryConsumerOffset(f.connection, queue(
                RequestCode.QUERY_CONSUMER_OFFSET, "no-such-topic", 0).putExtField("consumerGroup", "g"));
        assertEquals(ResponseCode.QUERY_NOT_FOUND, noTopic.code());
        sendOne(0);
        f.awaitMaxOffset("scq", 0, 1);
        RemotingCommand fromZero = query("g", 0);
        assertEquals(ResponseCode.SUCCESS, fromZero.code());
        assertEquals("0", fromZero.extField("offset"), "a new group on a queue whose data starts at 0 reads from 0");
        RemotingCommand noZero = f.offsets.onQueryConsumerOffset(f.connection, queue(RequestCode.QUERY_CONSUMER_OFFSET,
                "scq", 0).putExtField("consumerGroup", "g").putExtField("setZeroIfNotFound", "false"));
        assertEquals(ResponseCode.QUERY_NOT_FOUND, noZero.code());

        assertEquals(ResponseCode.SUCCESS, update("g", "scq", 0, 1).code());
        assertEquals("1", query("g", 0).extField("offset"));
    }

    @Test
    void shouldRefuseBadOffsetUpdates() {
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, update("g", "nope", 0, 1).code());
        RemotingCommand badQueue = update("g", "scq", 5, 1);
        assertEquals(ResponseCode.INVALID_PARAMETER, badQueue.code());
        assertTrue(badQueue.remark().contains("5"), badQueue.remark());
        RemotingCommand negative = update("g", "scq", 0, -4);
        assertEquals(ResponseCode.INVALID_PARAMETER, negative.code());
        assertTrue(negative.remark().contains("-4"), negative.remark());
        RemotingCommand badGroup = update("bad group", "scq", 0, 1);
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, badGroup.code());
    }

    @Test
    void shouldAnswerQueueOffsetsAndTimes() {
        assertEquals("0", f.offsets.onGetMaxOffset(f.connection, queue(RequestCode.GET_MAX_OFFSET, "scq", 1)
                .putExtField("committed", "true")).extField("offset"));
        assertEquals("0", f.offsets.onGetMaxOffset(f.connection, queue(RequestCode.GET_MAX_OFFSET, "nope", 0))
                .extField("offset"), "an unknown queue has max offset 0");
        assertEquals("-1", f.offsets.onGetEarliestMsgStoreTime(f.connection,
                queue(RequestCode.GET_EARLIEST_MSG_STORETIME, "scq", 1)).extField("timestamp"));
        long before = System.currentTimeMillis();
        sendOne(1);
        sendOne(1);
        sendOne(1);
        f.awaitMaxOffset("scq", 1, 3);
        assertEquals("3", f.offsets.onGetMaxOffset(f.connection, queue(RequestCode.GET_MAX_OFFSET, "scq", 1))
                .extField("offset"));
        assertEquals("0", f.offsets.onGetMinOffset(f.connection, queue(RequestCode.GET_MIN_OFFSET, "scq", 1))
                .extField("offset"));
        long earliest = Long.parseLong(f.offsets.onGetEarliestMsgStoreTime(f.connection,
                queue(RequestCode.GET_EARLIEST_MSG_STORETIME, "scq", 1)).extField("timestamp"));
        assertTrue(earliest >= before - 1_000 && earliest <= System.currentTimeMillis(), "earliest " + earliest);

        RemotingCommand lower = f.offsets.onSearchOffsetByTimestamp(f.connection,
                queue(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, "scq", 1).putExtField("timestamp", "0"));
        assertEquals("0", lower.extField("offset"));
        RemotingCommand future = f.offsets.onSearchOffsetByTimestamp(f.connection,
                queue(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, "scq", 1)
                        .putExtField("timestamp", Long.toString(Long.MAX_VALUE / 2)));
        assertEquals("3", future.extField("offset"), "lower bound past the end is the max offset");
        RemotingCommand upper = f.offsets.onSearchOffsetByTimestamp(f.connection,
                queue(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, "scq", 1)
                        .putExtField("timestamp", Long.toString(Long.MAX_VALUE / 2)).putExtField("boundaryType", "upper"));
        assertEquals("2", upper.extField("offset"), "upper bound is the last message stored before");
        RemotingCommand bad = f.offsets.onSearchOffsetByTimestamp(f.connection,
                queue(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, "scq", 1).putExtField("timestamp", "0")
                        .putExtField("boundaryType", "middle"));
        assertEquals(ResponseCode.INVALID_PARAMETER, bad.code());
        assertTrue(bad.remark().contains("middle"));
    }
}
