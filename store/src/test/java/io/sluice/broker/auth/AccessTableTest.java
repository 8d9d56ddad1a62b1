package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The permissions the access table asks of the requests clients send most. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AccessTableTest {

    private final AccessTable table = new AccessTable("c1");

    @Test
    void sendsNeedPubOnTheirTopicAndRetrySendsSubOnTheGroup() {
        assertEquals(List.of(new Access(Resource.topic("Orders"), EnumSet.of(Action.PUB))),
                table.needs(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("b", "Orders")));
        assertEquals(List.of(new Access(Resource.group("g"), EnumSet.of(Action.SUB))),
                table.needs(RemotingCommand.request(RequestCode.SEND_MESSAGE).putExtField("topic", "%RETRY%g")));
    }

    @Test
    void pullsNeedSubOnTopicAndGroupAndRetryPullsOnlyTheGroup() {
        assertEquals(List.of(new Access(Resource.topic("Orders"), EnumSet.of(Action.SUB)),
                        new Access(Resource.group("g"), EnumSet.of(Action.SUB))),
                table.needs(RemotingCommand.request(RequestCode.PULL_MESSAGE).putExtField("topic", "Orders")
                        .putExtField("consumerGroup", "g")));
        assertEquals(List.of(new Access(Resource.group("g"), EnumSet.of(Action.SUB))),
                table.needs(RemotingCommand.request(RequestCode.PULL_MESSAGE).putExtField("topic", "%RETRY%g")
                        .putExtField("consumerGroup", "g")));
    }

    @Test
    void heartbeatsNeedSubOnTheirGroupsAndTopics() {
        String body = "{\"clientID\":\"127.0.0.1@1\",\"producerDataSet\":[{\"groupName\":\"pg\"}],"
                + "\"consumerDataSet\":[{\"groupName\":\"g\",\"consumeType\":\"CONSUME_PASSIVELY\","
                + "\"messageModel\":\"CLUSTERING\",\"consumeFromWhere\":\"CONSUME_FROM_LAST_OFFSET\","
                + "\"subscriptionDataSet\":[{\"topic\":\"Orders\",\"subString\":\"*\"},"
                + "{\"topic\":\"%RETRY%g\",\"subString\":\"*\"}],\"unitMode\":false}]}";
        assertEquals(List.of(new Access(Resource.group("g"), EnumSet.of(Action.SUB)),
                        new Access(Resource.topic("Orders"), EnumSet.of(Action.SUB))),
                table.needs(RemotingCommand.request(RequestCode.HEART_BEAT).setBody(body.getBytes())));
        assertEquals(List.of(), table.needs(RemotingCommand.request(RequestCode.HEART_BEAT)),
                "no body: the handler refuses it");
        assertEquals(List.of(new Access(Resource.group("g2"), EnumSet.of(Action.CREATE, Action.UPDATE))),
                table.needs(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                        .setBody("{\"groupName\":\"g2\"}".getBytes())));
    }

    /** Apache's ACL 2.0 asks Sub on a consumer group a client leaves, nothing for a producer group. */
    @Test
    void unregisteringNeedsSubOnAConsumerGroupAndNothingForAProducerGroup() {
        assertEquals(List.of(), table.needs(unregister("producerGroup", "CLIENT_INNER_PRODUCER")),
                "a producer's unregister at shutdown");
        assertEquals(List.of(new Access(Resource.group("g"), EnumSet.of(Action.SUB))),
                table.needs(unregister("consumerGroup", "g")));
        assertEquals(List.of(), table.needs(unregister("consumerGroup", " ")), "a blank group names none");
        assertEquals(List.of(), table.needs(RemotingCommand.request(RequestCode.CHECK_CLIENT_CONFIG)));
    }

    /** UNREGISTER_CLIENT as the Apache client sends it: its client id and one of the two groups. */
    private static RemotingCommand unregister(String groupField, String group) {
        return RemotingCommand.request(RequestCode.UNREGISTER_CLIENT).putExtField("clientID", "127.0.0.1@1")
                .putExtField(groupField, group);
    }

    @Test
    void unknownCodesAndAdministrationNeedClusterAll() {
        assertEquals(List.of(new Access(Resource.cluster("c1"), EnumSet.of(Action.ALL))),
                table.needs(RemotingCommand.request(4711)));
        assertEquals(List.of(new Access(Resource.cluster("c1"), EnumSet.of(Action.ALL))),
                table.needs(RemotingCommand.request(AuthAdminHandler.CREATE_USER)));
        assertEquals(List.of(new Access(Resource.topic("T"), EnumSet.of(Action.CREATE, Action.UPDATE))),
                table.needs(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", "T")));
    }
}
