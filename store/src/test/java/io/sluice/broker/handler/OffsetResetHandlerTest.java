package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.client.PendingResets;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.testing.OpenStores;
import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.remoting.protocol.body.ResetOffsetBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server-side offset reset: every readable queue (or one) moves to the max offset, the first message stored at
 * or after a time, or a given offset; without force only backwards; the moved queues are committed, answered in the
 * body, and, for an online group, held as pending resets for the next pulls.
 */
@Timeout(30)
class OffsetResetHandlerTest {

    private static final String BROKER = "broker-t";

    @TempDir
    Path dir;

    private HandlerFixture f;
    private OffsetResetHandler handler;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.groups.put(SubscriptionGroupConfig.defaults("g"));
        f.createTopic("T", 2, false);
        handler = new OffsetResetHandler(f.store, f.metadata, f.topics, f.groups, f.clients, BROKER);
        for (int i = 0; i < 10; i++) {
            f.store.append(OpenStores.draft("T", 0, "m" + i, "")).join();
        }
        for (int i = 0; i < 4; i++) {
            f.store.append(OpenStores.draft("T", 1, "n" + i, "")).join();
        }
        f.awaitMaxOffset("T", 0, 10);
        f.awaitMaxOffset("T", 1, 4);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aNegativeTimestampMovesEveryQueueToItsEnd() {
        Map<MessageQueue, Long> moved = reset(request(-1));
        assertEquals(Map.of(queue(0), 10L, queue(1), 4L), moved);
        assertEquals(10, f.metadata.queryOffset("g", "T", 0));
        assertEquals(4, f.metadata.queryOffset("g", "T", 1));
        assertFalse(f.groups.resets().isPending("g", "T", 0), "an offline group is moved by its offsets alone");
    }

    @Test
    void timestampZeroMovesEveryQueueToItsStart() {
        f.metadata.commitOffset("g", "T", 0, 7);
        assertEquals(Map.of(queue(0), 0L, queue(1), 0L), reset(request(0)));
        assertEquals(0, f.metadata.queryOffset("g", "T", 0));
    }

    @Test
    void aTimestampMovesToTheFirstMessageStoredAtOrAfterIt() {
        Map<Long, Long> firstOffsetAtTime = new TreeMap<>();
        for (long offset = 9; offset >= 0; offset--) {
            firstOffsetAtTime.put(f.store.storeTimeMsAt("T", 0, offset), offset);
        }
        for (Map.Entry<Long, Long> expected : firstOffsetAtTime.entrySet()) {
            Map<MessageQueue, Long> moved = reset(request(expected.getKey()).putExtField("queueId", 0));
            assertEquals(Map.of(queue(0), expected.getValue()), moved, "time " + expected.getKey());
        }
        long last = f.store.storeTimeMsAt("T", 0, 9);
        assertEquals(Map.of(queue(0), 10L), reset(request(last + 60_000).putExtField("queueId", 0)),
                "after the last message: the queue's end");
    }

    @Test
    void oneQueueMovesToAGivenOffsetAndTheOthersStay() {
        f.metadata.commitOffset("g", "T", 0, 5);
        Map<MessageQueue, Long> moved = reset(request(-1).putExtField("queueId", 1).putExtField("offset", 2));
        assertEquals(Map.of(queue(1), 2L), moved);
        assertEquals(2, f.metadata.queryOffset("g", "T", 1));
        assertEquals(5, f.metadata.queryOffset("g", "T", 0));
        assertEquals(Map.of(queue(1), 4L), reset(request(-1).putExtField("queueId", 1).putExtField("offset", 4)),
                "the queue's max offset is in range");
    }

    @Test
    void anOffsetHeaderOfNullOrBlankMeansNone() {
        assertEquals(Map.of(queue(0), 10L), reset(request(-1).putExtField("queueId", 0).putExtField("offset", "null")));
        assertEquals(Map.of(queue(0), 0L), reset(request(0).putExtField("queueId", 0).putExtField("offset", " ")));
        assertEquals(Map.of(queue(0), 10L), reset(request(-1).putExtField("queueId", 0).putExtField("offset", -1)));
    }

    @Test
    void withoutForceAQueueOnlyMovesBackwards() {
        f.metadata.commitOffset("g", "T", 0, 3);
        assertEquals(Map.of(queue(1), 4L), reset(request(-1).putExtField("isForce", false)),
                "queue 0 stays (its end, 10, is not below 3); queue 1 has no committed offset and moves");
        assertEquals(3, f.metadata.queryOffset("g", "T", 0));
        assertEquals(4, f.metadata.queryOffset("g", "T", 1), "a queue without a committed offset moves");

        Map<MessageQueue, Long> backward = reset(request(0).putExtField("isForce", false));
        assertEquals(Map.of(queue(0), 0L, queue(1), 0L), backward);
        assertEquals(0, f.metadata.queryOffset("g", "T", 0));
        assertEquals(Map.of(), reset(request(0).putExtField("isForce", false)), "already there: nothing moves");
    }

    @Test
    void anOnlineGroupIsMovedAtItsNextPulls() {
        f.clients.registerConsumer(f.connection, "10.0.0.1@c1", LanguageCode.JAVA, 479,
                new ConsumerData("g", ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING,
                        ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                        Set.of(new SubscriptionData("T", "*", Set.of(), Set.of(), 1, "TAG", false)), false));
        assertEquals(Map.of(queue(0), 0L, queue(1), 0L), reset(request(0)));
        assertTrue(f.groups.resets().isPending("g", "T", 0));
        assertEquals(0, f.groups.resets().take("g", "T", 1));
        assertEquals(PendingResets.NONE, f.groups.resets().take("g", "T", 1), "a reset is taken once");
        assertEquals(0, f.metadata.queryOffset("g", "T", 1), "and committed for the group's restart");
    }

    /** The moved queues, read as Apache's admin tool reads the body. */
    private Map<MessageQueue, Long> reset(RemotingCommand request) {
        RemotingCommand response = handler.onResetOffset(f.connection, request);
        assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
        Map<MessageQueue, Long> moved = new HashMap<>();
        ResetOffsetBody.decode(response.body(), ResetOffsetBody.class).getOffsetTable().forEach((queue, offset) ->
                moved.put(new MessageQueue(queue.getTopic(), queue.getBrokerName(), queue.getQueueId()), offset));
        return moved;
    }

    private static RemotingCommand request(long timestampMs) {
        return RemotingCommand.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET).putExtField("topic", "T")
                .putExtField("group", "g").putExtField("timestamp", timestampMs);
    }

    private static MessageQueue queue(int queueId) {
        return new MessageQueue("T", BROKER, queueId);
    }
}
