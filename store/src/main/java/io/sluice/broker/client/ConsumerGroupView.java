package io.sluice.broker.client;

import io.sluice.remoting.protocol.body.ConsumeFromWhere;
import io.sluice.remoting.protocol.body.ConsumeType;
import io.sluice.remoting.protocol.body.MessageModel;
import io.sluice.remoting.protocol.body.SubscriptionData;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A snapshot of one online consumer group: its members and subscriptions as the last heartbeats described them.
 *
 * <p>Immutable; thread-safe.
 *
 * @param groupName        the group
 * @param consumeType      push ({@code CONSUME_PASSIVELY}), pull/lite ({@code CONSUME_ACTIVELY}) or POP
 * @param messageModel     clustering or broadcasting
 * @param consumeFromWhere where a new member starts
 * @param connections      the live connections of the group's members, in registration order
 * @param subscriptions    topic to subscription, sorted by topic
 */
public record ConsumerGroupView(String groupName, ConsumeType consumeType, MessageModel messageModel,
                                ConsumeFromWhere consumeFromWhere, List<ClientConnection> connections,
                                Map<String, SubscriptionData> subscriptions) {

    /** Copies the collections. */
    public ConsumerGroupView {
        connections = List.copyOf(connections);
        subscriptions = Collections.unmodifiableMap(new TreeMap<>(subscriptions));
    }
}
