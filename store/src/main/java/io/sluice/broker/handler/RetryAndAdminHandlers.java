package io.sluice.broker.handler;

import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.broker.lock.QueueLocks;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.ScheduleSettings;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.transport.HandlerOptions;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.store.MessageStore;
import io.sluice.broker.meta.MetadataStore;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.UnaryOperator;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of the broker's composition root that builds and registers the retry, orderly-lock and admin handlers:
 * CONSUMER_SEND_MSG_BACK (36) with the {@link DelayScheduler}, LOCK/UNLOCK_BATCH_MQ (41/42), GET_BROKER_CONFIG
 * (26), GET_BROKER_RUNTIME_INFO (28), GET_CONSUMER_CONNECTION_LIST (203), GET_PRODUCER_CONNECTION_LIST (204),
 * VIEW_MESSAGE_BY_ID (33) and QUERY_MESSAGE (12). Group, offset-reset, statistics and config administration are
 * {@link AdminHandlers}'.
 *
 * <p>{@link #install} starts the delay scheduler thread, schedules the once-a-second stats sample and a periodic
 * purge of expired queue locks on the broker's scheduler, and registers the handlers. QUERY_MESSAGE (a scan) runs
 * on the admin executor; everything else on the connection's lane. {@link #close} stops the scheduler thread and
 * the periodic tasks; call it before closing the message store.
 *
 * <p>Thread-safe: built and closed by the broker's start and close; the parts it exposes are thread-safe.
 */
public final class RetryAndAdminHandlers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RetryAndAdminHandlers.class);

    private static final long STATS_SAMPLE_INTERVAL_MS = 1_000;
    private static final long LOCK_PURGE_INTERVAL_MS = 60_000;

    private final DelayScheduler delays;
    private final QueueLocks locks;
    private final BrokerStats stats;
    private final ScheduledFuture<?> sampling;
    private final ScheduledFuture<?> purging;

    private RetryAndAdminHandlers(DelayScheduler delays, QueueLocks locks, BrokerStats stats,
                                  ScheduledFuture<?> sampling, ScheduledFuture<?> purging) {
        this.delays = delays;
        this.locks = locks;
        this.stats = stats;
        this.sampling = sampling;
        this.purging = purging;
    }

    /**
     * Builds the handlers and their state, starts the delay scheduler and the periodic tasks, and registers the
     * request codes on {@code server}.
     *
     * @param runtime       the broker's settings (identity, permission, delay levels, the config text in force)
     * @param server        where the handlers are registered
     * @param store         the message store
     * @param metadata      topics, groups, consumer offsets, scheduler offsets
     * @param topics        the topic table
     * @param groups        subscription group configs
     * @param clients       online producer and consumer groups
     * @param adminExecutor runs group and topic creation and message queries
     * @param scheduler     runs the stats sample and the lock purge
     * @param clock         the broker's clock
     * @param timerFigures  the timer figures of GET_BROKER_RUNTIME_INFO at a given time
     * @param queued        the send and pull requests waiting for a thread
     * @param timeQueries   wraps the QUERY_MESSAGE handler to time its key lookups (identity when not timed)
     * @return the running part; {@link #close} it before the store
     */
    public static RetryAndAdminHandlers install(RuntimeSettings runtime, RemotingServer server, MessageStore store,
                                                MetadataStore metadata, TopicRegistry topics,
                                                SubscriptionGroups groups, ClientRegistry clients,
                                                Executor adminExecutor, ScheduledExecutorService scheduler,
                                                EpochClock clock, LongFunction<Map<String, String>> timerFigures,
                                                QueuedRequests queued,
                                                UnaryOperator<RequestHandler> timeQueries) {
        BrokerSettings settings = runtime.current();
        long bootMs = clock.time();
        BrokerStats stats = new BrokerStats(() -> store.stats().appendedMessages(), clock, ZoneId.systemDefault());
        DelayScheduler delays = new DelayScheduler(store, metadata, ScheduleSettings.of(settings.delayLevelsMs()),
                clock);
        QueueLocks locks = new QueueLocks(QueueLocks.DEFAULT_LOCK_MAX_LIVE_MS, clock);
        delays.start();
        ScheduledFuture<?> sampling = scheduler.scheduleAtFixedRate(() -> guarded("stats sample", stats::sample),
                STATS_SAMPLE_INTERVAL_MS, STATS_SAMPLE_INTERVAL_MS, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> purging = scheduler.scheduleWithFixedDelay(
                () -> guarded("lock purge", locks::purgeExpired), LOCK_PURGE_INTERVAL_MS, LOCK_PURGE_INTERVAL_MS,
                TimeUnit.MILLISECONDS);

        SendBackHandler sendBack = new SendBackHandler(store, topics, groups, delays, stats,
                settings.brokerPermission(), adminExecutor);
        server.registerHandler(RequestCode.CONSUMER_SEND_MSG_BACK, sendBack::onSendBack);

        LockHandler lock = new LockHandler(locks);
        server.registerHandler(RequestCode.LOCK_BATCH_MQ, RequestHandler.sync(lock::onLockBatch));
        server.registerHandler(RequestCode.UNLOCK_BATCH_MQ, RequestHandler.sync(lock::onUnlockBatch));

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
        server.registerHandler(RequestCode.QUERY_MESSAGE,
                timeQueries.apply(RequestHandler.sync(query::onQueryMessage)),
                HandlerOptions.onExecutor(adminExecutor));
        return new RetryAndAdminHandlers(delays, locks, stats, sampling, purging);
    }

    /** Delay levels: the send path's {@link DelayScheduler#redirectIfDelayed}. */
    public DelayScheduler delays() {
        return delays;
    }

    /** Queue locks of orderly consumers. */
    public QueueLocks locks() {
        return locks;
    }

    /** Counters the send and pull paths feed ({@link BrokerStats#onPut}, {@link BrokerStats#onPull}). */
    public BrokerStats stats() {
        return stats;
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("{} failed", what, e);
        }
    }

    /** Cancels the periodic tasks and stops the delay scheduler (persisting its offsets). Idempotent. */
    @Override
    public void close() {
        sampling.cancel(false);
        purging.cancel(false);
        delays.close();
    }
}
