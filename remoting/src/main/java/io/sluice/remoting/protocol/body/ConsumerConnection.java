package io.sluice.remoting.protocol.body;

import java.util.Map;
import java.util.Set;

/**
 * Body of a GET_CONSUMER_CONNECTION_LIST (203) response: the live connections of a consumer group and its
 * subscriptions.
 * <pre>
 * {"connectionSet":[{ConnectionEntry}],"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY",
 *  "messageModel":"CLUSTERING","subscriptionTable":{"T1":{SubscriptionData}}}
 * </pre>
 *
 * @param connectionSet the group's connections; never null
 * @param subscriptionTable topic to subscription; never null
 * @param consumeType push, pull or pop
 * @param messageModel clustering or broadcasting
 * @param consumeFromWhere where the group starts on queues without a committed offset
 */
public record ConsumerConnection(
        Set<ConnectionEntry> connectionSet,
        Map<String, SubscriptionData> subscriptionTable,
        ConsumeType consumeType,
        MessageModel messageModel,
        ConsumeFromWhere consumeFromWhere) {

    /** Validates required members and normalises absent ones. */
    public ConsumerConnection {
        connectionSet = Copies.set(connectionSet, "connectionSet");
        subscriptionTable = Copies.map(subscriptionTable, "subscriptionTable");
        Copies.required(consumeType, "consumeType");
        Copies.required(messageModel, "messageModel");
        Copies.required(consumeFromWhere, "consumeFromWhere");
    }
}
