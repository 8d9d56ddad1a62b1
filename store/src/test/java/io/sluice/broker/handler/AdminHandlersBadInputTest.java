package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the group, reset and forwarding handlers: a clear refusal, and nothing stored changes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AdminHandlersBadInputTest {

    @TempDir
    Path dir;

    private HandlerFixture f;
    private GroupAdminHandler groups;
    private OffsetResetHandler reset;
    private ConsumerAdminHandler consumers;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        f.createTopic("T", 2, false);
        groups = new GroupAdminHandler(f.groups, f.metadata);
        reset = new OffsetResetHandler(f.store, f.metadata, f.topics, f.groups, f.clients, "broker-t");
        consumers = new ConsumerAdminHandler(f.clients, f.metadata, f.store, f.topics, f.groups, "broker-t");
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void groupRequestsRefuseBadConfigsAndUnknownGroups() {
        RemotingCommand empty = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP);
        assertEquals(ResponseCode.INVALID_PARAMETER, groups.onUpdateGroup(f.connection, empty).code());
        RemotingCommand negative = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                .setBody("{\"groupName\":\"g1\",\"retryMaxTimes\":-1}".getBytes(StandardCharsets.UTF_8));
        RemotingCommand refused = groups.onUpdateGroup(f.connection, negative);
        assertEquals(ResponseCode.INVALID_PARAMETER, refused.code());
        assertTrue(refused.remark().contains("retryMaxTimes"), refused.remark());
        assertTrue(f.groups.find("g1").isEmpty(), "nothing was stored");

        RemotingCommand get = RemotingCommand.request(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG)
                .putExtField("group", "nobody");
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.onGetGroup(f.connection, get).code());
        RemotingCommand delete = RemotingCommand.request(RequestCode.DELETE_SUBSCRIPTIONGROUP)
                .putExtField("groupName", "nobody").putExtField("cleanOffset", true);
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.onDeleteGroup(f.connection, delete).code());
    }

    @Test
    void resetRefusesUnknownTopicsGroupsQueuesAndOffsetsOutOfRange() {
        f.groups.put(SubscriptionGroupConfig.defaults("g"));
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, reset(resetRequest("Nope", "g")).code());
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, reset(resetRequest("T", "nobody")).code());
        RemotingCommand badQueue = reset(resetRequest("T", "g").putExtField("queueId", 7));
        assertEquals(ResponseCode.INVALID_PARAMETER, badQueue.code());
        assertTrue(badQueue.remark().contains("readQueueNums"), badQueue.remark());
        RemotingCommand badOffset = reset(resetRequest("T", "g").putExtField("queueId", 0)
                .putExtField("offset", 5));
        assertEquals(ResponseCode.INVALID_PARAMETER, badOffset.code());
        assertTrue(badOffset.remark().contains("[0, 0]"), badOffset.remark());
        assertEquals(-1, f.metadata.queryOffset("g", "T", 0), "no offset was committed");
        assertFalse(f.groups.resets().isPending("g", "T", 0));

        RemotingCommand offline = reset(resetRequest("T", "g").putExtField("timestamp", 0));
        assertEquals(ResponseCode.SUCCESS, offline.code());
        assertEquals(0, f.metadata.queryOffset("g", "T", 1));
        assertFalse(f.groups.resets().isPending("g", "T", 1), "an offline group is moved by its offsets alone");
    }

    @Test
    void forwardingToAConsumerThatIsNotConnectedIsRefused() throws Exception {
        RemotingCommand info = RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO)
                .putExtField("consumerGroup", "g").putExtField("clientId", "ip@nobody");
        RemotingCommand answer = consumers.onGetConsumerRunningInfo(f.connection, info).get(5, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SYSTEM_ERROR, answer.code());
        assertTrue(answer.remark().contains("not online"), answer.remark());
        RemotingCommand direct = RemotingCommand.request(RequestCode.CONSUME_MESSAGE_DIRECTLY)
                .putExtField("consumerGroup", "g").putExtField("clientId", "ip@nobody")
                .putExtField("msgId", "not-an-id");
        RemotingCommand noMessage = consumers.onConsumeMessageDirectly(f.connection, direct).get(5, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SYSTEM_ERROR, noMessage.code());
        assertTrue(noMessage.remark().contains("not-an-id"), noMessage.remark());
    }

    private RemotingCommand reset(RemotingCommand request) {
        return reset.onResetOffset(f.connection, request);
    }

    private static RemotingCommand resetRequest(String topic, String group) {
        return RemotingCommand.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET).putExtField("topic", topic)
                .putExtField("group", group).putExtField("timestamp", -1);
    }
}
