package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.transport.HandlerOptions;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.store.MessageStore;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.LongFunction;
import java.util.function.UnaryOperator;
import org.agrona.concurrent.EpochClock;

/**
 * The part of the broker's composition root that registers the requests with which tools inspect the broker and
 * its messages, changing nothing: GET_BROKER_CONFIG (26), GET_BROKER_RUNTIME_INFO (28),
 * GET_CONSUMER_CONNECTION_LIST (203), GET_PRODUCER_CONNECTION_LIST (204), VIEW_MESSAGE_BY_ID (33) and
 * QUERY_MESSAGE (12). QUERY_MESSAGE (a key-index lookup that reads records) runs on the admin executor, so that
 * it never holds up a connection's lane; the rest read memory on the lane.
 *
 * <p>Stateless; {@link #register} is called once by the broker's start.
 */
public final class InspectionHandlers {

    private InspectionHandlers() {
    }

    /**
     * Builds the handlers and registers them on {@code server}.
     *
     * @param runtime       the settings in force (their text for GET_BROKER_CONFIG)
     * @param server        where the handlers are registered
     * @param store         the message store
     * @param topics        the topic table
     * @param clients       online producer and consumer groups
     * @param stats         put and get counters and rates
     * @param delays        delay-level progress, for the runtime figures
     * @param adminExecutor runs message queries
     * @param clock         the broker's clock
     * @param timerFigures  the timer figures of GET_BROKER_RUNTIME_INFO at a given time
     * @param queued        the send and pull requests waiting for a thread
     * @param timeQueries   wraps the QUERY_MESSAGE handler to time its key lookups (identity when not timed)
     */
    public static void register(RuntimeSettings runtime, RemotingServer server, MessageStore store,
                                TopicRegistry topics, ClientRegistry clients, BrokerStats stats,
                                DelayScheduler delays, Executor adminExecutor, EpochClock clock,
                                LongFunction<Map<String, String>> timerFigures, QueuedRequests queued,
                                UnaryOperator<RequestHandler> timeQueries) {
        long bootMs = clock.time();
        BrokerInfoHandler info = new BrokerInfoHandler(() -> runtime.current().toProperties(), store, stats, delays,
                clock, bootMs, queued, timerFigures);
        server.registerHandler(RequestCode.GET_BROKER_CONFIG, RequestHandler.sync(info::onGetBrokerConfig));
        server.registerHandler(RequestCode.GET_BROKER_RUNTIME_INFO, RequestHandler.sync(info::onGetRuntimeInfo));

        ConnectionListHandler connections = new ConnectionListHandler(clients);
        server.registerHandler(RequestCode.GET_CONSUMER_CONNECTION_LIST,
                RequestHandler.sync(connections::onGetConsumerConnectionList));
        server.registerHandler(RequestCode.GET_PRODUCER_CONNECTION_LIST,
                RequestHandler.sync(connections::onGetProducerConnectionList));

        MessageQueryHandler query = new MessageQueryHandler(store, topics, clock);
        server.registerHandler(RequestCode.VIEW_MESSAGE_BY_ID, RequestHandler.sync(query::onViewMessageById));
        server.registerHandler(RequestCode.QUERY_MESSAGE, timeQueries.apply(RequestHandler.sync(query::onQueryMessage)),
                HandlerOptions.onExecutor(adminExecutor));
    }
}
