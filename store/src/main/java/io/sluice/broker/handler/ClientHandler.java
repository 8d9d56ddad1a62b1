package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BodyFormatException;
import io.sluice.remoting.protocol.body.ConsumerData;
import io.sluice.remoting.protocol.body.GetConsumerListByGroupResponseBody;
import io.sluice.remoting.protocol.body.HeartbeatData;
import io.sluice.remoting.protocol.body.ProducerData;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.store.TopicNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Client membership requests (docs/wire-protocol.md#client-membership): HEART_BEAT (34), UNREGISTER_CLIENT (35) and
 * GET_CONSUMER_LIST_BY_GROUP (38).
 *
 * <p>Runs on the broker's control executor, never behind a connection's sends (a client closes its connection when
 * a heartbeat is not answered within 3 s). A heartbeat updates the {@link ClientRegistry} at once; creating an
 * unknown group and its {@code %RETRY%} topic (synced writes plus the name-server announcement) runs on the admin
 * executor, and the response waits for it, as Apache's does; NOTIFY_CONSUMER_IDS_CHANGED goes to the changed groups
 * just before the response.
 *
 * <p>Thread-safe; stateless apart from its collaborators.
 */
public final class ClientHandler {

    private final ClientRegistry clients;
    private final SubscriptionGroups groups;
    private final TopicRegistry topics;
    private final Executor adminExecutor;

    /**
     * @param clients       group membership
     * @param groups        subscription group configs
     * @param topics        creates the groups' retry topics
     * @param adminExecutor runs group and topic creation
     */
    public ClientHandler(ClientRegistry clients, SubscriptionGroups groups, TopicRegistry topics,
                         Executor adminExecutor) {
        this.clients = clients;
        this.groups = groups;
        this.topics = topics;
        this.adminExecutor = adminExecutor;
    }

    /** HEART_BEAT (34). */
    public CompletableFuture<RemotingCommand> onHeartbeat(ConnectionContext connection, RemotingCommand request) {
        HeartbeatData data;
        try {
            data = BodyCodec.decode(request.body(), HeartbeatData.class);
        } catch (BodyFormatException e) {
            return done(RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "malformed heartbeat body: "
                    + e.getMessage()));
        }
        for (ConsumerData consumer : data.consumerDataSet()) {
            if (!TopicNames.isValidGroup(consumer.groupName())) {
                return done(RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "consumer group name '"
                        + consumer.groupName() + "' is illegal, allowing only ^[%|a-zA-Z0-9_-]+$, at most "
                        + TopicNames.MAX_GROUP_LENGTH + " characters"));
            }
        }
        Set<String> changed = new LinkedHashSet<>();
        List<String> needSetup = new ArrayList<>();
        for (ConsumerData consumer : data.consumerDataSet()) {
            String group = consumer.groupName();
            if (clients.registerConsumer(connection, data.clientID(), request.language(), request.version(),
                    consumer).changed()) {
                changed.add(group);
            }
            if (needsSetup(group)) {
                needSetup.add(group);
            }
        }
        for (ProducerData producer : data.producerDataSet()) {
            clients.registerProducer(connection, data.clientID(), request.language(), request.version(),
                    producer.groupName());
        }
        if (needSetup.isEmpty()) {
            changed.forEach(clients::notifyConsumerIdsChanged);
            return done(RemotingCommand.response(ResponseCode.SUCCESS, null));
        }
        return CompletableFuture.supplyAsync(() -> setUp(needSetup), adminExecutor)
                .thenCompose(created -> created)
                .thenApply(ignored -> {
                    changed.forEach(clients::notifyConsumerIdsChanged);
                    return RemotingCommand.response(ResponseCode.SUCCESS, null);
                });
    }

    /** UNREGISTER_CLIENT (35): header {@code clientID}, {@code producerGroup} and/or {@code consumerGroup}. */
    public RemotingCommand onUnregisterClient(ConnectionContext connection, RemotingCommand request) {
        String producerGroup = request.extField("producerGroup");
        if (producerGroup != null) {
            clients.unregisterProducer(producerGroup, connection);
        }
        String consumerGroup = request.extField("consumerGroup");
        if (consumerGroup != null) {
            clients.unregisterConsumer(consumerGroup, connection);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }

    /** GET_CONSUMER_LIST_BY_GROUP (38): header {@code consumerGroup}; body {@code {"consumerIdList":[...]}}. */
    public RemotingCommand onGetConsumerList(ConnectionContext connection, RemotingCommand request) {
        String group = request.requireString("consumerGroup");
        List<String> ids = clients.consumerIds(group);
        if (ids.isEmpty()) {
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "no consumer for this group, " + group);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(BodyCodec.encode(new GetConsumerListByGroupResponseBody(ids)));
    }

    /** True when the group config or its retry topic must still be created. */
    private boolean needsSetup(String group) {
        if (groups.wouldCreate(group)) {
            return true;
        }
        Optional<SubscriptionGroupConfig> config = groups.find(group);
        return config.isPresent() && config.get().retryQueueNums() > 0
                && topics.find(TopicNames.retryTopic(group)).isEmpty();
    }

    /** Creates the groups and their retry topics; the future completes when every retry topic is announced. */
    private CompletableFuture<Void> setUp(List<String> groupNames) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (String group : groupNames) {
            Optional<SubscriptionGroupConfig> config = groups.findOrCreate(group);
            if (config.isPresent() && config.get().retryQueueNums() > 0) {
                pending.add(topics.ensureRetryTopic(group, config.get().retryQueueNums()));
            }
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
    }

    private static CompletableFuture<RemotingCommand> done(RemotingCommand response) {
        return CompletableFuture.completedFuture(response);
    }
}
