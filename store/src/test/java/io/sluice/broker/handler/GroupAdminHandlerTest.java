package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupWrapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subscription group administration as mqadmin and the dashboard use it, the answers read with Apache's own
 * classes: a group created or replaced from its JSON reads back field for field, the table lists every group with a
 * version that moves on each change, and a delete removes the config and, when asked, the committed offsets.
 */
@Timeout(30)
class GroupAdminHandlerTest {

    @TempDir
    Path dir;

    private HandlerFixture f;
    private GroupAdminHandler handler;

    @BeforeEach
    void open() throws Exception {
        f = new HandlerFixture(dir);
        handler = new GroupAdminHandler(f.groups, f.metadata);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aGroupCreatedFromItsJsonReadsBackFieldForField() {
        assertOk(update("{\"groupName\":\"orders-consumers\",\"retryMaxTimes\":3,\"retryQueueNums\":2,"
                + "\"consumeBroadcastEnable\":false,\"consumeMessageOrderly\":true,\"brokerId\":0,"
                + "\"notifyConsumerIdsChangedEnable\":false,\"consumeTimeoutMinute\":7}"));
        RemotingCommand got = handler.onGetGroup(f.connection, RemotingCommand.request(
                RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG).putExtField("group", "orders-consumers"));
        assertEquals(ResponseCode.SUCCESS, got.code());
        org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig apache = RemotingSerializable
                .decode(got.body(), org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig.class);
        assertEquals("orders-consumers", apache.getGroupName());
        assertEquals(3, apache.getRetryMaxTimes());
        assertEquals(2, apache.getRetryQueueNums());
        assertFalse(apache.isConsumeBroadcastEnable(), "Apache's default is true");
        assertTrue(apache.isConsumeMessageOrderly());
        assertFalse(apache.isNotifyConsumerIdsChangedEnable());
        assertEquals(7, apache.getConsumeTimeoutMinute());
        assertTrue(apache.isConsumeEnable(), "an absent field takes Apache's default");

        assertOk(update("{\"groupName\":\"orders-consumers\",\"retryMaxTimes\":9}"));
        SubscriptionGroupConfig replaced = f.groups.find("orders-consumers").orElseThrow();
        assertEquals(9, replaced.retryMaxTimes());
        assertEquals(SubscriptionGroupConfig.defaults("orders-consumers").toBuilder().retryMaxTimes(9).build(),
                replaced, "an update replaces the whole config: what it leaves out takes Apache's defaults");
        assertFalse(replaced.consumeMessageOrderly());
    }

    @Test
    void theTableListsEveryGroupWithAVersionThatMovesOnEachChange() {
        assertOk(update("{\"groupName\":\"g1\"}"));
        SubscriptionGroupWrapper first = all();
        assertOk(update("{\"groupName\":\"g2\",\"retryMaxTimes\":1}"));
        SubscriptionGroupWrapper second = all();
        assertEquals(Set.of("g1", "g2"), second.getSubscriptionGroupTable().keySet());
        assertEquals(1, second.getSubscriptionGroupTable().get("g2").getRetryMaxTimes());
        assertTrue(second.getDataVersion().getCounter().get() > first.getDataVersion().getCounter().get(),
                "the table version moved");
    }

    @Test
    void aDeleteRemovesTheConfigAndTheOffsetsOnlyWhenAsked() {
        assertOk(update("{\"groupName\":\"g1\"}"));
        f.metadata.commitOffset("g1", "T", 0, 12);
        assertOk(delete("g1", false));
        assertTrue(f.groups.find("g1").isEmpty());
        assertEquals(12, f.metadata.queryOffset("g1", "T", 0), "offsets stay without cleanOffset");

        assertOk(delete("g1", true));
        assertEquals(-1, f.metadata.queryOffset("g1", "T", 0), "a group with offsets only is deleted with them");
        RemotingCommand gone = handler.onDeleteGroup(f.connection, deleteRequest("g1", true));
        assertEquals(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, gone.code());
        assertEquals("subscription group [g1] does not exist", gone.remark());
        assertEquals(Set.of(), all().getSubscriptionGroupTable().keySet().stream()
                .filter(name -> name.startsWith("g")).collect(Collectors.toSet()));
    }

    private RemotingCommand update(String json) {
        return handler.onUpdateGroup(f.connection, RemotingCommand.request(
                RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP).setBody(json.getBytes(StandardCharsets.UTF_8)));
    }

    private RemotingCommand delete(String group, boolean cleanOffset) {
        return handler.onDeleteGroup(f.connection, deleteRequest(group, cleanOffset));
    }

    private static RemotingCommand deleteRequest(String group, boolean cleanOffset) {
        return RemotingCommand.request(RequestCode.DELETE_SUBSCRIPTIONGROUP).putExtField("groupName", group)
                .putExtField("cleanOffset", cleanOffset);
    }

    private SubscriptionGroupWrapper all() {
        RemotingCommand response = handler.onGetAllGroups(f.connection,
                RemotingCommand.request(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG));
        assertEquals(ResponseCode.SUCCESS, response.code());
        return RemotingSerializable.decode(response.body(), SubscriptionGroupWrapper.class);
    }

    private static void assertOk(RemotingCommand response) {
        assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
    }
}
