package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * One consumer group of a client in a heartbeat:
 * <pre>
 * {"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","groupName":"g",
 *  "messageModel":"CLUSTERING","subscriptionDataSet":[{SubscriptionData}],"unitMode":false}
 * </pre>
 *
 * @param groupName the consumer group
 * @param consumeType push, pull or pop
 * @param messageModel clustering or broadcasting
 * @param consumeFromWhere where the group starts on queues without a committed offset
 * @param subscriptionDataSet the group's subscriptions in this client; never null
 * @param unitMode unit-mode flag, false in practice
 */
public record ConsumerData(
        String groupName,
        ConsumeType consumeType,
        MessageModel messageModel,
        ConsumeFromWhere consumeFromWhere,
        Set<SubscriptionData> subscriptionDataSet,
        boolean unitMode) {

    /** Validates required members and normalises absent ones. */
    public ConsumerData {
        Copies.required(groupName, "groupName");
        Copies.required(consumeType, "consumeType");
        Copies.required(messageModel, "messageModel");
        Copies.required(consumeFromWhere, "consumeFromWhere");
        subscriptionDataSet = Copies.set(subscriptionDataSet, "subscriptionDataSet");
    }
}
