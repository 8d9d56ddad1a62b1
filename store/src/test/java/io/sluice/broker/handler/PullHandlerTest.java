package io.sluice.broker.handler;

import static io.sluice.broker.handler.HandlerFixture.props;
import static io.sluice.broker.handler.HandlerFixture.pullRequest;
import static io.sluice.broker.handler.HandlerFixture.sendBatch;
import static io.sluice.broker.handler.HandlerFixture.sendV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.LanguageCode;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import io.sluice.store.GetStatus;
import io.sluice.broker.meta.TopicPerm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PullHandlerTest {

    private static final int SUSPEND = PullRequest.SUSPEND;
    private static final int COMMIT = PullRequest.COMMIT_OFFSET;
    private static final int SUBSCRIPTION = PullRequest.SUBSCRIPTION;

    @TempDir
    Path dir;

    private HandlerFixture f;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.createTopic("scq", 2, false);
        f.createTopic("bcq", 2, true);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private RemotingCommand pull(RemotingCommand request) {
        try {
            return f.pull.onPull(f.connection, request).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private RemotingCommand pullWithExpression(String topic, long offset, String expression) {
        return pull(pullRequest("g", topic, 0, offset, SUBSCRIPTION).putExtField("subscription", expression));
    }

    private void sendTagged(String topic, String... tags) {
        for (String tag : tags) {
            assertEquals(ResponseCode.SUCCESS, f.send(sendV2(topic, 0, props("UNIQ_KEY", "U" + System.nanoTime(),
                    "TAGS", tag), tag.getBytes(StandardCharsets.UTF_8))).code());
        }
    }

    private static void assertOffsets(RemotingCommand response, int code, long next, long min, long max) {
        assertEquals(code, response.code(), response.remark());
        assertEquals(Long.toString(next), response.extField("nextBeginOffset"), "nextBeginOffset");
        assertEquals(Long.toString(min), response.extField("minOffset"), "minOffset");
        assertEquals(Long.toString(max), response.extField("maxOffset"), "maxOffset");
        assertEquals("0", response.extField("suggestWhichBrokerId"));
    }

    @Test
    void shouldMapQueueStatesToPullCodes() {
        assertOffsets(pullWithExpression("scq", 0, "*"), ResponseCode.PULL_NOT_FOUND, 0, 0, 0);
        assertOffsets(pullWithExpression("scq", 3, "*"), ResponseCode.PULL_OFFSET_MOVED, 0, 0, 0);
        sendTagged("scq", "A", "B", "C", "D", "E");
        f.awaitMaxOffset("scq", 0, 5);
        RemotingCommand found = pullWithExpression("scq", 0, "*");
        assertOffsets(found, ResponseCode.SUCCESS, 5, 0, 5);
        assertEquals("FOUND", found.remark());
        List<MessageExt> messages = HandlerFixture.decode(found);
        assertEquals(List.of("A", "B", "C", "D", "E"), messages.stream().map(MessageExt::getTags).toList());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), messages.stream().map(MessageExt::getQueueOffset).toList());
        assertEquals(5, f.pull.transferredMessages());
        assertEquals(found.bodyBytes(), f.pull.transferredBytes());
        assertOffsets(pullWithExpression("scq", 2, "*"), ResponseCode.SUCCESS, 5, 0, 5);
        assertOffsets(pullWithExpression("scq", 5, "*"), ResponseCode.PULL_NOT_FOUND, 5, 0, 5);
        assertOffsets(pullWithExpression("scq", 9, "*"), ResponseCode.PULL_OFFSET_MOVED, 5, 0, 5);
    }

    @Test
    void shouldMoveTheNextPullOfAResetQueueAndIgnoreStaleCommitsUntilThen() {
        sendTagged("scq", "A", "B", "C");
        f.awaitMaxOffset("scq", 0, 3);
        f.groups.resets().put("g", "scq", 0, 1);
        RemotingCommand stale = RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g").putExtField("topic", "scq").putExtField("queueId", 0)
                .putExtField("commitOffset", 3);
        assertEquals(ResponseCode.SUCCESS, f.offsets.onUpdateConsumerOffset(f.connection, stale).code());
        assertEquals(-1, f.metadata.queryOffset("g", "scq", 0), "a commit from before the reset is ignored");
        RemotingCommand moved = pullWithExpression("scq", 3, "*");
        assertOffsets(moved, ResponseCode.PULL_OFFSET_MOVED, 1, 0, 3);
        assertEquals(0, moved.bodyBytes());
        RemotingCommand next = pullWithExpression("scq", 1, "*");
        assertOffsets(next, ResponseCode.SUCCESS, 3, 0, 3);
        assertEquals(ResponseCode.SUCCESS, f.offsets.onUpdateConsumerOffset(f.connection, stale).code());
        assertEquals(3, f.metadata.queryOffset("g", "scq", 0), "commits count again once the consumer moved");
    }

    @Test
    void shouldFilterByTagHashFromTheRequestExpression() {
        sendTagged("scq", "A", "B", "A", "C");
        f.awaitMaxOffset("scq", 0, 4);
        RemotingCommand onlyA = pullWithExpression("scq", 0, "A");
        assertEquals(ResponseCode.SUCCESS, onlyA.code());
        assertEquals(List.of(0L, 2L), HandlerFixture.decode(onlyA).stream().map(MessageExt::getQueueOffset).toList());
        RemotingCommand bOrC = pullWithExpression("scq", 0, "B || C");
        assertEquals(List.of("B", "C"), HandlerFixture.decode(bOrC).stream().map(MessageExt::getTags).toList());
        assertOffsets(pullWithExpression("scq", 0, "Z"), ResponseCode.PULL_RETRY_IMMEDIATELY, 4, 0, 4);
    }

    @Test
    void shouldUseTheSubscriptionRegisteredByHeartbeat() {
        sendTagged("scq", "A", "B");
        f.awaitMaxOffset("scq", 0, 2);
        RemotingCommand unsubscribed = pull(pullRequest("g", "scq", 0, 0, 0));
        assertEquals(ResponseCode.SUBSCRIPTION_NOT_EXIST, unsubscribed.code());

        SubscriptionData onlyB = new SubscriptionData("scq", "B", Set.of("B"), Set.of("B".hashCode()), 100, "TAG",
                false);
        f.clients.registerConsumer(f.connection, "ip@c", LanguageCode.JAVA, 479, new ConsumerData("g",
                ConsumeType.CONSUME_PASSIVELY, MessageModel.CLUSTERING, ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                Set.of(onlyB), false));
        RemotingCommand filtered = pull(pullRequest("g", "scq", 0, 0, 0).putExtField("subVersion", "100"));
        assertEquals(List.of("B"), HandlerFixture.decode(filtered).stream().map(MessageExt::getTags).toList());

        RemotingCommand newer = pull(pullRequest("g", "scq", 0, 0, 0).putExtField("subVersion", "101"));
        assertEquals(ResponseCode.SUBSCRIPTION_NOT_LATEST, newer.code());
    }

    @Test
    void shouldReturnWholeInnerBatchRecords() {
        f.send(sendBatch("bcq", 0, props("UNIQ_KEY", "B0"), List.of(props("UNIQ_KEY", "M0"), props("UNIQ_KEY", "M1"),
                props("UNIQ_KEY", "M2"))));
        f.send(sendBatch("bcq", 0, props("UNIQ_KEY", "B1"), List.of(props("UNIQ_KEY", "M3"))));
        f.awaitMaxOffset("bcq", 0, 4);
        RemotingCommand found = pullWithExpression("bcq", 0, "*");
        assertOffsets(found, ResponseCode.SUCCESS, 4, 0, 4);
        List<MessageExt> records = HandlerFixture.decode(found);
        assertEquals(2, records.size());
        assertEquals(List.of(0L, 3L), records.stream().map(MessageExt::getQueueOffset).toList());
        RemotingCommand middle = pullWithExpression("bcq", 1, "*");
        assertEquals(0L, HandlerFixture.decode(middle).get(0).getQueueOffset(), "the whole batch from its base");
    }

    @Test
    void shouldCommitThePiggyBackedOffsetOnFirstExecutionOnly() {
        sendTagged("scq", "A");
        f.awaitMaxOffset("scq", 0, 1);
        pull(pullRequest("g", "scq", 0, 1, COMMIT | SUBSCRIPTION).putExtField("subscription", "*")
                .putExtField("commitOffset", "1"));
        assertEquals(1, f.metadata.queryOffset("g", "scq", 0));
        pull(pullRequest("g", "scq", 0, 0, SUBSCRIPTION).putExtField("subscription", "*")
                .putExtField("commitOffset", "0"));
        assertEquals(1, f.metadata.queryOffset("g", "scq", 0), "no COMMIT bit, no commit");
    }

    @Test
    void shouldParkUntilAMessageArrives() throws Exception {
        RemotingCommand request = pullRequest("g", "scq", 1, 0, SUSPEND | SUBSCRIPTION).putExtField("subscription", "*");
        CompletableFuture<RemotingCommand> parked = f.pull.onPull(f.connection, request);
        assertFalse(parked.isDone(), "an empty queue parks the pull");
        assertEquals(1, f.parking.waitingCount());
        assertEquals(ResponseCode.SUCCESS, f.send(sendV2("scq", 1, props("UNIQ_KEY", "W"), new byte[] {1})).code());
        RemotingCommand response = parked.get(10, TimeUnit.SECONDS);
        assertOffsets(response, ResponseCode.SUCCESS, 1, 0, 1);
        assertEquals(1, HandlerFixture.decode(response).size());
        assertEquals(1, f.parking.wokenByArrivalCount());
    }

    @Test
    void shouldAnswerNotFoundWhenTheSuspendTimeExpires() throws Exception {
        RemotingCommand request = pullRequest("g", "scq", 0, 0, SUSPEND | SUBSCRIPTION).putExtField("subscription", "*")
                .putExtField("suspendTimeoutMillis", "50");
        RemotingCommand response = f.pull.onPull(f.connection, request).get(10, TimeUnit.SECONDS);
        assertOffsets(response, ResponseCode.PULL_NOT_FOUND, 0, 0, 0);
        assertEquals(1, f.parking.expiredCount());
    }

    @Test
    void shouldSuggestTheSlowConsumersBrokerOnlyWithSlaveReadEnable(@TempDir Path other) throws Exception {
        sendTagged("scq", "A", "B");
        f.awaitMaxOffset("scq", 0, 2);
        assertEquals("0", pullWithExpression("scq", 0, "*").extField("suggestWhichBrokerId"), "no slave reads");
        for (long slowLagBytes : new long[] {1, Long.MAX_VALUE}) {
            try (HandlerFixture reads = new HandlerFixture(other.resolve("lag-" + slowLagBytes), new PullSettings(
                    TopicPerm.READ_WRITE, true, 200, 25_000, 256 * 1024, 32, false, true, slowLagBytes))) {
                reads.createTopic("scq", 1, false);
                assertEquals(ResponseCode.SUCCESS, reads.send(sendV2("scq", 0, props("UNIQ_KEY", "U1", "TAGS", "A"),
                        new byte[100])).code());
                assertEquals(ResponseCode.SUCCESS, reads.send(sendV2("scq", 0, props("UNIQ_KEY", "U2", "TAGS", "B"),
                        new byte[100])).code());
                reads.awaitMaxOffset("scq", 0, 2);
                RemotingCommand response = reads.pull.onPull(reads.connection, pullRequest("g", "scq", 0, 0,
                        SUBSCRIPTION).putExtField("subscription", "*")).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.SUCCESS, response.code());
                // A far-behind consumer is sent to whichBrokerWhenConsumeSlowly (default 1), others to brokerId 0.
                assertEquals(slowLagBytes == 1 ? "1" : "0", response.extField("suggestWhichBrokerId"));
            }
        }
    }

    @Test
    void shouldShortPollWhenLongPollingIsOff(@TempDir Path other) throws Exception {
        try (HandlerFixture shortPolling = new HandlerFixture(other, TopicPerm.READ_WRITE, false)) {
            shortPolling.createTopic("scq", 1, false);
            RemotingCommand request = pullRequest("g", "scq", 0, 0, SUSPEND | SUBSCRIPTION)
                    .putExtField("subscription", "*");
            CompletableFuture<RemotingCommand> parked = shortPolling.pull.onPull(shortPolling.connection, request);
            assertEquals(ResponseCode.PULL_NOT_FOUND, parked.get(10, TimeUnit.SECONDS).code());
            assertEquals(1, shortPolling.parking.expiredCount(), "released by the 200 ms short-poll timer");
        }
    }

    @Test
    void shouldRefuseBadPulls() {
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, pullWithExpression("nope", 0, "*").code());
        RemotingCommand badQueue = pull(pullRequest("g", "scq", 7, 0, SUBSCRIPTION).putExtField("subscription", "*"));
        assertEquals(ResponseCode.INVALID_PARAMETER, badQueue.code());
        assertTrue(badQueue.remark().contains("7"), badQueue.remark());
        RemotingCommand sql = pull(pullRequest("g", "scq", 0, 0, SUBSCRIPTION).putExtField("subscription", "a > 1")
                .putExtField("expressionType", "SQL92"));
        assertEquals(ResponseCode.SYSTEM_ERROR, sql.code());
        assertTrue(sql.remark().contains("SQL92"), sql.remark());
        RemotingCommand missing = pull(RemotingCommand.request(RequestCode.PULL_MESSAGE).putExtField("topic", "scq"));
        assertEquals(ResponseCode.INVALID_PARAMETER, missing.code());
        assertTrue(missing.remark().contains("consumerGroup"), missing.remark());
        assertTrue(f.groups.find("g").isPresent(), "pulls auto-create their group");
    }

    @Test
    void shouldMapEveryStoreStatus() {
        assertEquals(ResponseCode.SUCCESS, PullHandler.codeOf(GetStatus.FOUND, 0));
        assertEquals(ResponseCode.PULL_RETRY_IMMEDIATELY, PullHandler.codeOf(GetStatus.NO_MATCHED_MESSAGE, 0));
        assertEquals(ResponseCode.PULL_RETRY_IMMEDIATELY, PullHandler.codeOf(GetStatus.MESSAGE_WAS_REMOVING, 0));
        assertEquals(ResponseCode.PULL_NOT_FOUND, PullHandler.codeOf(GetStatus.OFFSET_FOUND_NULL, 3));
        assertEquals(ResponseCode.PULL_NOT_FOUND, PullHandler.codeOf(GetStatus.OFFSET_OVERFLOW_ONE, 3));
        assertEquals(ResponseCode.PULL_OFFSET_MOVED, PullHandler.codeOf(GetStatus.OFFSET_OVERFLOW_BADLY, 3));
        assertEquals(ResponseCode.PULL_OFFSET_MOVED, PullHandler.codeOf(GetStatus.OFFSET_TOO_SMALL, 3));
        assertEquals(ResponseCode.PULL_NOT_FOUND, PullHandler.codeOf(GetStatus.NO_MESSAGE_IN_QUEUE, 0));
        assertEquals(ResponseCode.PULL_OFFSET_MOVED, PullHandler.codeOf(GetStatus.NO_MESSAGE_IN_QUEUE, 1));
        assertEquals(ResponseCode.PULL_NOT_FOUND, PullHandler.codeOf(GetStatus.NO_MATCHED_LOGIC_QUEUE, 0));
        assertEquals(ResponseCode.PULL_OFFSET_MOVED, PullHandler.codeOf(GetStatus.NO_MATCHED_LOGIC_QUEUE, 2));
    }
}
