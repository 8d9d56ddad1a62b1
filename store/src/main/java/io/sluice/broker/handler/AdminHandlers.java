package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.transport.HandlerOptions;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.MetadataStore;
import java.util.concurrent.Executor;
import org.agrona.concurrent.EpochClock;

/**
 * The part of the broker's composition root that registers the administration handlers Apache's tools and
 * dashboard use beyond topics: statistics (202, 208, 315, 317), subscription groups (200, 201, 207, 352), who
 * consumes and produces (300, 328), requests forwarded to consumers (307, 309), offset resets (222) and runtime
 * settings (25).
 *
 * <p>Requests that write synced (group create and delete, offset reset, settings update) run on the admin
 * executor, one at a time; the rest read memory and consume-queue slots on the connection's lane.
 *
 * <p>Stateless; {@link #register} is called once by the broker's start.
 */
public final class AdminHandlers {

    private AdminHandlers() {
    }

    /**
     * Builds the handlers and registers them on {@code server}.
     *
     * @param runtime       the settings in force and their run-time changes
     * @param server        where the handlers are registered
     * @param store         queue offsets, records, the time index
     * @param metadata      group configs and committed offsets
     * @param topics        the topic table
     * @param groups        subscription group configs and pending resets
     * @param clients       online producer and consumer groups
     * @param stats         put and get counters and rates
     * @param adminExecutor runs the requests that write synced
     * @param clock         the broker's clock
     * @param brokerAddr    the broker's address as registered
     */
    public static void register(RuntimeSettings runtime, RemotingServer server, MessageStore store,
                                MetadataStore metadata, TopicRegistry topics, SubscriptionGroups groups,
                                ClientRegistry clients, BrokerStats stats, Executor adminExecutor,
                                EpochClock clock, String brokerAddr) {
        String brokerName = runtime.current().brokerName();
        long bootMs = clock.time();
        HandlerOptions onAdmin = HandlerOptions.onExecutor(adminExecutor);

        StatsHandler statsHandler = new StatsHandler(store, topics, StatsHandler.CommittedOffsets.of(metadata),
                clients, stats, brokerName, groups, brokerAddr, () -> clock.time() - bootMs);
        server.registerHandler(RequestCode.GET_TOPIC_STATS_INFO, RequestHandler.sync(statsHandler::onGetTopicStats));
        server.registerHandler(RequestCode.GET_CONSUME_STATS, RequestHandler.sync(statsHandler::onGetConsumeStats));
        server.registerHandler(RequestCode.GET_BROKER_CONSUME_STATS,
                RequestHandler.sync(statsHandler::onGetBrokerConsumeStats));
        server.registerHandler(RequestCode.VIEW_BROKER_STATS_DATA,
                RequestHandler.sync(statsHandler::onViewBrokerStatsData));

        GroupAdminHandler groupAdmin = new GroupAdminHandler(groups, metadata);
        server.registerHandler(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
                RequestHandler.sync(groupAdmin::onUpdateGroup), onAdmin);
        server.registerHandler(RequestCode.DELETE_SUBSCRIPTIONGROUP, RequestHandler.sync(groupAdmin::onDeleteGroup),
                onAdmin);
        server.registerHandler(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
                RequestHandler.sync(groupAdmin::onGetAllGroups));
        server.registerHandler(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, RequestHandler.sync(groupAdmin::onGetGroup));

        ConsumerAdminHandler consumers = new ConsumerAdminHandler(clients, metadata, store, topics, groups,
                brokerName);
        server.registerHandler(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO,
                RequestHandler.sync(consumers::onQueryTopicConsumeByWho));
        server.registerHandler(RequestCode.GET_ALL_PRODUCER_INFO, RequestHandler.sync(consumers::onGetAllProducerInfo));
        server.registerHandler(RequestCode.GET_CONSUMER_RUNNING_INFO, consumers::onGetConsumerRunningInfo);
        server.registerHandler(RequestCode.CONSUME_MESSAGE_DIRECTLY, consumers::onConsumeMessageDirectly);

        OffsetResetHandler reset = new OffsetResetHandler(store, metadata, topics, groups, clients, brokerName);
        server.registerHandler(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, RequestHandler.sync(reset::onResetOffset),
                onAdmin);

        BrokerConfigHandler config = new BrokerConfigHandler(runtime, clock);
        server.registerHandler(RequestCode.UPDATE_BROKER_CONFIG, RequestHandler.sync(config::onUpdateBrokerConfig),
                onAdmin);
    }
}
