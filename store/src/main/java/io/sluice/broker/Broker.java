package io.sluice.broker;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.broker.auth.AccessGate;
import io.sluice.broker.auth.AuthAdminHandler;
import io.sluice.broker.auth.AuthStore;
import io.sluice.broker.auth.User;
import io.sluice.broker.auth.UserType;
import io.sluice.broker.client.ClientRegistry;
import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.BrokerRole;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.config.ConfigKey;
import io.sluice.broker.config.MetricsExporterType;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.broker.config.FlushDiskType;
import io.sluice.broker.ha.HaAuthentication;
import io.sluice.broker.ha.HaServer;
import io.sluice.broker.ha.HaSettings;
import io.sluice.broker.ha.HaTls;
import io.sluice.broker.ha.MasterMetadataSync;
import io.sluice.broker.ha.MetadataExport;
import io.sluice.broker.ha.ReplicaClient;
import io.sluice.broker.ha.ReplicaGroupView;
import io.sluice.broker.ha.SlaveAckRule;
import io.sluice.broker.ha.SyncReplication;
import io.sluice.broker.handler.AdminHandlers;
import io.sluice.broker.handler.ClientHandler;
import io.sluice.broker.handler.OffsetHandler;
import io.sluice.broker.handler.PullHandler;
import io.sluice.broker.handler.PullSettings;
import io.sluice.broker.handler.InspectionHandlers;
import io.sluice.broker.handler.LockHandler;
import io.sluice.broker.handler.QueuedRequests;
import io.sluice.broker.handler.SendBackHandler;
import io.sluice.broker.handler.SendHooks;
import io.sluice.broker.handler.SendHandler;
import io.sluice.broker.handler.SendSettings;
import io.sluice.broker.handler.TopicHandler;
import io.sluice.broker.lock.QueueLocks;
import io.sluice.broker.longpoll.PullParking;
import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.metrics.MetricsEndpoint;
import io.sluice.broker.metrics.MetricsSources;
import io.sluice.broker.metrics.RequestTimers;
import io.sluice.broker.registry.NameServerRegistrar;
import io.sluice.broker.registry.RegistrarSettings;
import io.sluice.broker.retention.BrokerRetentionGuard;
import io.sluice.broker.schedule.DelayScheduler;
import io.sluice.broker.schedule.ScheduleSettings;
import io.sluice.broker.stats.BrokerStats;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.broker.topic.TopicSettings;
import io.sluice.broker.timer.TimerService;
import io.sluice.broker.timer.TimerSettings;
import io.sluice.broker.transaction.HalfMessages;
import io.sluice.broker.transaction.TransactionService;
import io.sluice.broker.transaction.TransactionSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.Credentials;
import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.HandlerOptions;
import io.sluice.remoting.transport.QueueBound;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.remoting.transport.ServerSettings;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsClientAuth;
import io.sluice.remoting.transport.TlsMode;
import io.sluice.store.MessageStore;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.StoreEnvironment;
import io.sluice.store.StoreSettings;
import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.FlushMode;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.keyindex.KeyIndexSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.LogSettings;
import io.sluice.broker.meta.MetadataSettings;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.store.retention.RetentionSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's composition root: builds every component from {@link BrokerSettings}, wires them through their
 * constructors, registers the request handlers and owns the lifecycle.
 *
 * <p>Start order ({@link #start()}): metadata store; the server binds (requests answered SYSTEM_BUSY until ready);
 * name-server registrar; topic registry; message store; client registry and long polling; handlers; the first full
 * registration; periodic tasks. {@link #close()} reverses it: unregister, close the server, drop parked pulls, stop
 * the executors, close the message store, then the metadata store (which flushes offsets).
 *
 * <p>Threads: I/O threads decode, encode and run sends and
 * pulls by default; a pull pool, two control threads, one admin thread, one scheduler, the transaction and timer
 * threads (masters only, as is the delay scheduler); replication adds an HA accept thread and two per slave on a
 * master, a deadline thread on a SYNC_MASTER, and a copying thread on a slave (docs/replication.md).
 *
 * <p>Thread-safe; {@link #start()} and {@link #close()} are serialised on this object.
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    /** Period of the client-channel expiry scan (Apache: 10 s). */
    private static final long CLIENT_SCAN_INTERVAL_MS = 10_000;
    private static final long EXECUTOR_STOP_TIMEOUT_MS = 5_000;
    /** Threads answering heartbeats, offset and metadata queries. */
    private static final int CONTROL_THREADS = 2;
    /** Bytes of a SimpleCQ slot: the config gives file sizes, the store wants slots per file. */
    private static final int SIMPLE_CQ_SLOT_BYTES = 20;
    /** Bytes of a BatchCQ slot. */
    private static final int BATCH_CQ_SLOT_BYTES = 46;
    /** How often a slave copies its master's topics, groups and consumer offsets. */
    private static final long METADATA_SYNC_INTERVAL_MS = 5_000;
    /** Timeout of one of those admin calls. */
    private static final long METADATA_SYNC_TIMEOUT_MS = 3_000;

    /** The boot settings until {@link #start()} applies the persisted runtime changes ({@link RuntimeSettings}). */
    private BrokerSettings settings;
    private RuntimeSettings runtime;
    private final EpochClock clock;
    private final StoreEnvironment storeEnv;
    private volatile boolean ready;
    private boolean registered;
    private boolean started;
    private boolean closed;

    private MetadataStore metadata;
    /** Users and policies; null unless authenticationEnabled or authorizationEnabled. */
    private AuthStore auth;
    private RemotingServer server;
    private RemotingClient client;
    private ScheduledExecutorService scheduler;
    private ExecutorService adminExecutor;
    private ExecutorService controlExecutor;
    private ExecutorService pullExecutor;
    private NameServerRegistrar registrar;
    private TopicRegistry topics;
    private MessageStore store;
    private SubscriptionGroups groups;
    private ClientRegistry clients;
    private PullParking parking;
    /** Delivers delay-level messages when due (masters); the send path redirects delayed sends to it. */
    private DelayScheduler delays;
    /** Queue locks of orderly consumers. */
    private QueueLocks locks;
    /** Put and get counters the send and pull paths feed. */
    private BrokerStats stats;
    private UpkeepTasks upkeep;
    private TransactionService transactions;
    private TimerService timers;
    private InetSocketAddress address;
    private SendHandler sendHandler;
    private PullHandler pullHandler;
    /** Send, pull and key-query latency histograms; {@link RequestTimers#NONE} without a metrics endpoint. */
    private RequestTimers requestTimers = RequestTimers.NONE;
    /** The Prometheus endpoint; null unless {@code metricsExporterType=PROM}. */
    private MetricsEndpoint metrics;
    /** A master's bound HA port, from before the store opens until {@link #haServer} owns it. */
    private ServerSocketChannel haListener;
    /** A master's HA service; null on a slave. */
    private HaServer haServer;
    /** A SYNC_MASTER's sends waiting for a slave; null otherwise. */
    private SyncReplication syncReplication;
    /** A slave's copy of its master's CommitLog; null on a master. */
    private ReplicaClient replica;
    /** A slave's copy of its master's metadata; null on a master. */
    private MasterMetadataSync metadataSync;
    /** Send requests waiting for a lane; null when sends run on the I/O threads, where nothing waits. */
    private final QueueBound sendQueue;
    /** Pull requests waiting for a pull thread. */
    private final QueueBound pullQueue;
    /**
     * The broker group as controller mode sees it: the epochs the HA handshake compares, and which slaves a
     * SYNC_MASTER's sends wait for (none when the in-sync set holds this master alone: nobody else may be elected,
     * and the send is acknowledged once stored here). Plain master/slave: any one connected slave.
     */
    private volatile ReplicaGroupView group = ReplicaGroupView.NONE;
    /** Controller mode: the master epoch of this broker's role, sent with its registrations; 0 otherwise. */
    private volatile int masterEpoch;

    /** A broker on the system clock; nothing runs until {@link #start()}. */
    public Broker(BrokerSettings settings) {
        this(settings, SystemEpochClock.INSTANCE);
    }

    /**
     * A broker on an injected clock (heartbeat expiry, generated message keys); nothing runs until
     * {@link #start()}.
     */
    public Broker(BrokerSettings settings, EpochClock clock) {
        this(settings, clock, StoreEnvironment.system());
    }

    /**
     * A broker on an injected clock whose store runs in {@code storeEnv} (tests simulate a small disk through its
     * disk usage); nothing runs until {@link #start()}.
     */
    public Broker(BrokerSettings settings, EpochClock clock, StoreEnvironment storeEnv) {
        this.settings = settings;
        this.clock = clock;
        this.storeEnv = Objects.requireNonNull(storeEnv, "storeEnv");
        this.sendQueue = settings.sendOnIoThread() ? null : new QueueBound("send", settings.sendQueueCapacity());
        this.pullQueue = new QueueBound("pull", settings.pullQueueCapacity());
    }

    /**
     * Controller mode: the HA handshake compares {@code view}'s epochs, and a SYNC_MASTER's sends wait for every
     * slave of its in-sync set. Call before {@link #start()}.
     */
    public void replicaGroup(ReplicaGroupView view) {
        this.group = Objects.requireNonNull(view, "view");
    }

    /**
     * Controller mode: the controller's master epoch this broker's role comes from. Every name-server registration
     * carries it, so that a name server refuses this broker as master once it accepted a master of a later epoch.
     * Call before {@link #start()}.
     */
    public void masterEpoch(int epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("master epoch must not be negative: " + epoch);
        }
        this.masterEpoch = epoch;
    }

    /**
     * Starts every component; on failure, whatever was started is closed again.
     *
     * @throws IOException           when the store cannot be opened (e.g. another broker holds its lock)
     * @throws IllegalStateException when already started or closed, or the port cannot be bound
     */
    public synchronized void start() throws IOException {
        if (started || closed) {
            throw new IllegalStateException("broker already " + (closed ? "closed" : "started"));
        }
        started = true;
        try {
            doStart();
        } catch (IOException | RuntimeException | Error e) {
            closeAll();
            closed = true;
            throw e;
        }
        LOG.info("broker {} of cluster {} ready on {} (name servers {})", settings.brokerName(),
                settings.brokerClusterName(), addressText(), settings.namesrvAddresses());
    }

    private void doStart() throws IOException {
        runtime = RuntimeSettings.withPersisted(settings, clock.time());
        settings = runtime.current();
        metadata = MetadataStore.open(MetadataSettings.of(settings.metadataDir()));

        server = new RemotingServer(serverSettings(settings));
        installAccessControl();
        server.registerDefaultHandler(RequestHandler.sync((connection, request) -> answerUnknown(request)),
                HandlerOptions.LANE);
        server.start();
        address = new InetSocketAddress(advertisedAddress(settings.brokerIp1()), server.port());
        if (settings.brokerRole().isMaster()) {
            haListener = HaServer.bind(new InetSocketAddress(haBindAddress(), settings.haListenPort()));
        }

        client = new RemotingClient(ClientSettings.defaults().withTls(clientTls(settings))
                .withCredentials(innerCredentials(settings)));
        scheduler = newScheduler();
        adminExecutor = Executors.newSingleThreadExecutor(daemonThreads("sluice-broker-admin"));
        controlExecutor = Executors.newFixedThreadPool(CONTROL_THREADS, daemonThreads("sluice-broker-control"));
        pullExecutor = Executors.newFixedThreadPool(settings.pullMessageThreads(), daemonThreads("sluice-broker-pull"));

        registrar = new NameServerRegistrar(registrarSettings(), client, metadata::topicTable, scheduler);
        topics = new TopicRegistry(metadata, new TopicSettings(settings.autoCreateTopicEnable(),
                settings.defaultTopicQueueNums()), registrar);
        topics.installSystemTopics(settings.brokerClusterName(), settings.brokerName());

        Function<String, ConsumeQueueType> queueTypeOf = topics::queueTypeOf;
        if (settings.brokerRole() == BrokerRole.SLAVE) {
            metadataSync = new MasterMetadataSync(metadata, client, this::masterBrokerAddress,
                    METADATA_SYNC_TIMEOUT_MS);
            queueTypeOf = metadataSync::queueTypeOf;
        }
        store = MessageStore.open(storeSettings(settings, address), queueTypeOf, storeEnv);
        store.setReplica(settings.brokerRole() == BrokerRole.SLAVE);

        groups = new SubscriptionGroups(metadata, settings.autoCreateSubscriptionGroup());
        clients = new ClientRegistry(settings.clientChannelExpiredTimeoutMs(), clock, groups::notifyEnabled);
        runtime.onChange(BrokerConfigKeys.AUTO_CREATE_SUBSCRIPTION_GROUP,
                s -> groups.setAutoCreate(s.autoCreateSubscriptionGroup()));
        runtime.onChange(BrokerConfigKeys.CLIENT_CHANNEL_EXPIRED_TIMEOUT_MS,
                s -> clients.setChannelExpiredTimeoutMs(s.clientChannelExpiredTimeoutMs()));
        server.addConnectionListener(clients);
        parking = new PullParking(scheduler, pullExecutor);
        store.addArrivalListener(parking::onArrival);

        timers = new TimerService(store, metadata, new TimerSettings(settings.timerWheelEnable(),
                settings.timerPrecisionMs(), settings.timerMaxDelaySec() * 1000), clock, settings.timerIndexDir());
        if (settings.brokerRole().isMaster()) {
            // A slave's timer and transaction messages are its master's to deliver: it stores nothing itself.
            timers.start();
        }
        if (settings.metricsExporterType() == MetricsExporterType.PROM) {
            requestTimers = RequestTimers.create(settings.brokerClusterName(), settings.brokerName());
        }
        // Delays, statistics and locks first: the send and pull handlers feed them.
        startDelaysStatsAndLocks();
        transactions = new TransactionService(store, metadata, clients::producerConnection,
                topic -> topics.find(topic).isPresent(), new TransactionSettings(settings.transactionTimeOutMs(),
                settings.transactionCheckIntervalMs(), settings.transactionCheckMax(), settings.brokerName()),
                clock, address);
        if (settings.brokerRole().isMaster()) {
            transactions.start();
        }
        // Retention keeps what consumers have not read and what timers, transactions and delays still need.
        store.retentionGuard(new BrokerRetentionGuard(store, metadata, timers, transactions, delays));
        startReplicationSource();
        registerHandlers();
        if (auth != null) {
            // Writes auth.json: on the admin thread, like the other metadata changes.
            RequestHandler admin = RequestHandler.sync(new AuthAdminHandler(auth));
            AuthAdminHandler.CODES.forEach(code -> server.registerHandler(code, admin,
                    HandlerOptions.onExecutor(adminExecutor)));
        }
        AdminHandlers.register(runtime, server, store, metadata, topics, groups, clients, stats,
                adminExecutor, clock, addressText());
        if (settings.metricsExporterType() == MetricsExporterType.PROM) {
            PrometheusRegistry registry = new PrometheusRegistry();
            BrokerMetrics.register(registry, new MetricsSources(store, metadata, topics, groups, clients,
                    stats, server.counters(), pullHandler::transferredBytes,
                    settings::brokerPermission), settings.brokerClusterName(), settings.brokerName());
            requestTimers.registerOn(registry);
            metrics = MetricsEndpoint.start(metricsAddress(settings), settings.metricsPromExporterPort(), registry);
        }
        ready = true;

        registered = true;
        registrar.start();
        if (settings.brokerRole() == BrokerRole.SLAVE) {
            replica = new ReplicaClient(store, HaSettings.DEFAULTS, settings.brokerId(), group,
                    this::masterHaAddress, innerCredentials(settings), haTls(settings));
            replica.start();
            scheduler.scheduleWithFixedDelay(metadataSync::syncAll, 0, METADATA_SYNC_INTERVAL_MS,
                    TimeUnit.MILLISECONDS);
        }
        scheduler.scheduleWithFixedDelay(this::flushOffsets, settings.flushConsumerOffsetIntervalMs(),
                settings.flushConsumerOffsetIntervalMs(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::scanClients, CLIENT_SCAN_INTERVAL_MS, CLIENT_SCAN_INTERVAL_MS,
                TimeUnit.MILLISECONDS);
    }

    /** With authentication or authorization on, every request passes the access gate before its handler. */
    private void installAccessControl() throws IOException {
        boolean authentication = settings.get(BrokerConfigKeys.AUTHENTICATION_ENABLED);
        boolean authorization = settings.get(BrokerConfigKeys.AUTHORIZATION_ENABLED);
        if (!authentication && !authorization) {
            return;
        }
        auth = AuthStore.open(settings.storePathRootDir().resolve("config"),
                initUser(settings.get(BrokerConfigKeys.INIT_AUTHENTICATION_USER)));
        Optional<Credentials> inner = innerCredentials(settings);
        if (inner.isPresent() && auth.data().user(inner.get().accessKey()).isEmpty()) {
            // As Apache: brokers configured alike (slave and master) accept each other's signed requests.
            auth.putUser(new User(inner.get().accessKey(), inner.get().secretKey(), UserType.SUPER));
            LOG.info("created the inner user {} from innerClientAuthenticationCredentials", inner.get().accessKey());
        }
        server.setRequestGate(new AccessGate(auth, settings.brokerClusterName(), authentication, authorization,
                settings.get(BrokerConfigKeys.AUTHENTICATION_STRATEGY),
                settings.get(BrokerConfigKeys.STATEFUL_AUTHENTICATION_CACHE_EXPIRED_SECOND),
                settings.get(BrokerConfigKeys.STATEFUL_AUTHENTICATION_CACHE_MAX_NUM)));
        LOG.info("access control on: authentication {}, authorization {}, {} users", authentication, authorization,
                auth.data().users().size());
    }

    /** The credentials of {@code innerClientAuthenticationCredentials} (already validated), if set. */
    static Optional<Credentials> innerCredentials(BrokerSettings settings) {
        String json = settings.get(BrokerConfigKeys.INNER_CLIENT_AUTHENTICATION_CREDENTIALS);
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JSONObject credentials = JSON.parseObject(json);
        return Optional.of(new Credentials(credentials.getString("accessKey"), credentials.getString("secretKey")));
    }

    /** The super user of {@code initAuthenticationUser} (already validated), if set. */
    static Optional<User> initUser(String json) {
        if (json.isEmpty()) {
            return Optional.empty();
        }
        JSONObject user = JSON.parseObject(json);
        return Optional.of(new User(user.getString("username"), user.getString("password"), UserType.SUPER));
    }

    /** A master serves its slaves: the HA service, and for SYNC_MASTER the waiting sends. */
    private void startReplicationSource() {
        if (!settings.brokerRole().isMaster()) {
            return;
        }
        if (settings.brokerRole() == BrokerRole.SYNC_MASTER) {
            syncReplication = new SyncReplication(settings.syncFlushTimeoutMs(), SystemNanoClock.INSTANCE);
            syncReplication.start();
        }
        haServer = new HaServer(store, HaSettings.DEFAULTS, haListener, syncReplication, group,
                haAuthentication(), new SlaveAckRule(settings.get(BrokerConfigKeys.IN_SYNC_REPLICAS),
                settings.get(BrokerConfigKeys.ALL_ACK_IN_SYNC_STATE_SET)), haTls(settings));
        haListener = null;
        haServer.start();
        // Appends that do not come through the send path (delays, timers, transactions, send-backs).
        store.addArrivalListener((topic, queueId, maxOffset) -> haServer.wakeUp());
    }

    /**
     * Which slaves may replicate: with {@code authenticationEnabled}, those whose hello a known user signed (with
     * {@code authorizationEnabled} too, a super user: the channel carries every topic), such as the inner user.
     */
    private HaAuthentication haAuthentication() {
        if (!settings.get(BrokerConfigKeys.AUTHENTICATION_ENABLED)) {
            return HaAuthentication.OFF;
        }
        AuthStore users = auth;
        boolean superOnly = settings.get(BrokerConfigKeys.AUTHORIZATION_ENABLED);
        return HaAuthentication.requiring(accessKey -> users.data().user(accessKey)
                .filter(user -> !superOnly || user.type() == UserType.SUPER).map(User::password), clock::time);
    }

    /** A slave's master's client address, as the name servers answered. */
    private Optional<String> masterBrokerAddress() {
        return registrar.master().map(NameServerRegistrar.MasterAddresses::brokerAddr);
    }

    /** Where a slave's master serves HA: {@code haMasterAddress}, else what the name servers answered. */
    private Optional<String> masterHaAddress() {
        if (!settings.haMasterAddress().isEmpty()) {
            return Optional.of(settings.haMasterAddress());
        }
        return registrar.master().map(NameServerRegistrar.MasterAddresses::haAddr);
    }

    /**
     * The send path of this broker's role. A slave refuses sends (Apache: its store refuses them and the send is
     * answered SERVICE_NOT_AVAILABLE); producers only see masters in routes anyway. A master wakes its slaves'
     * links after each append; a SYNC_MASTER answers a stored send once the slaves {@link SlaveAckRule} names have
     * the log up to the end it had when the send completed (which covers the send's records); in controller mode
     * it refuses a send while the in-sync set is smaller than {@code minInSyncReplicas}.
     */
    private RequestHandler sendPath(SendHandler handler) {
        if (settings.brokerRole() == BrokerRole.SLAVE) {
            return RequestHandler.sync((connection, request) -> RemotingCommand.response(
                    ResponseCode.SERVICE_NOT_AVAILABLE, "broker " + settings.brokerName() + " (brokerId "
                            + settings.brokerId() + ") is a SLAVE: messages are put to its master"));
        }
        HaServer ha = haServer;
        SyncReplication sync = syncReplication;
        if (sync == null) {
            return (connection, request) -> {
                CompletableFuture<RemotingCommand> response = handler.onSend(connection, request);
                ha.wakeUp();
                return response;
            };
        }
        int minInSyncReplicas = settings.get(BrokerConfigKeys.MIN_IN_SYNC_REPLICAS);
        return (connection, request) -> {
            Optional<Set<Long>> inSyncSlaves = group.inSyncSlaves();
            if (inSyncSlaves.isPresent() && inSyncSlaves.get().size() + 1 < minInSyncReplicas) {
                // Apache's IN_SYNC_REPLICAS_NOT_ENOUGH: refused before it is stored, so nothing is half-done.
                return CompletableFuture.completedFuture(RemotingCommand.response(ResponseCode.SYSTEM_ERROR,
                        "in-sync replicas not enough: the in-sync set holds " + (inSyncSlaves.get().size() + 1)
                                + " replicas, minInSyncReplicas is " + minInSyncReplicas + "; the message was not"
                                + " stored"));
            }
            CompletableFuture<RemotingCommand> response = handler.onSend(connection, request);
            ha.wakeUp();
            return response.thenCompose(r -> r.code() == ResponseCode.SUCCESS && group.waitsForSlaves()
                    ? sync.await(r, store.logEndPosition(), connection.ioExecutor())
                    : CompletableFuture.completedFuture(r));
        };
    }

    /**
     * Starts the delay scheduler (stopped again at once on a slave), the statistics and the queue locks with their
     * upkeep, and registers the inspection requests, which read them.
     */
    private void startDelaysStatsAndLocks() {
        BrokerSettings current = runtime.current();
        stats = new BrokerStats(() -> store.stats().appendedMessages(), clock, ZoneId.systemDefault());
        delays = new DelayScheduler(store, metadata, ScheduleSettings.of(current.delayLevelsMs()), clock);
        locks = new QueueLocks(QueueLocks.DEFAULT_LOCK_MAX_LIVE_MS, clock);
        delays.start();
        if (!current.brokerRole().isMaster()) {
            // Like timers and transactions: a slave's copies of delayed messages are its master's to deliver.
            delays.close();
        }
        upkeep = UpkeepTasks.start(scheduler, stats, locks);
        InspectionHandlers.register(runtime, server, store, topics, clients, stats, delays, adminExecutor, clock,
                timers::runtimeFigures,
                new QueuedRequests(sendQueue == null ? () -> 0 : sendQueue::waiting, pullQueue::waiting),
                requestTimers::timeKeyLookups);
    }

    private void registerHandlers() {
        sendHandler = new SendHandler(store, topics, groups, new SendSettings(settings.brokerClusterName(),
                settings.brokerName(), settings.brokerPermission(), settings.maxMessageBytes(), address), clock,
                new SendHooks(timers::refusal, this::beforeAppend, stats::onPut));
        RequestHandler onSend = requestTimers.timeSends(sendPath(sendHandler));
        // On the I/O thread by default: a hand-off to a lane and back costs CPU on every send. The price: a send
        // that waits (append lock, next segment) holds up its I/O thread's connections; sendOnIoThread=false trades
        // the CPU back for isolation, with at most sendThreadPoolQueueCapacity sends queued (then SYSTEM_BUSY).
        // On the I/O thread the sends of one read burst run grouped by topic and queue, so each queue's records lie
        // back to back and share a BatchCQ slot (docs/storage.md#shared-batchcq-slots).
        HandlerOptions sends = (sendQueue == null ? HandlerOptions.IO_THREAD.withBurstGroup(SendHandler::burstGroup)
                : HandlerOptions.LANE.withQueueBound(sendQueue)).withBodyInFrame();
        server.registerHandler(RequestCode.SEND_MESSAGE, onSend, sends);
        server.registerHandler(RequestCode.SEND_MESSAGE_V2, onSend, sends);
        server.registerHandler(RequestCode.SEND_BATCH_MESSAGE, onSend, sends);
        // The handler only parses and hands over to the transaction thread, which applies outcomes in order.
        server.registerHandler(RequestCode.END_TRANSACTION, transactions::onEndTransaction,
                HandlerOptions.onExecutor(controlExecutor));

        // Send-backs of failed consumption and orderly consumers' queue locks: on the connection's lane.
        SendBackHandler sendBack = new SendBackHandler(store, topics, groups, delays, stats,
                settings.brokerPermission(), adminExecutor);
        server.registerHandler(RequestCode.CONSUMER_SEND_MSG_BACK, sendBack::onSendBack);
        LockHandler lock = new LockHandler(locks);
        server.registerHandler(RequestCode.LOCK_BATCH_MQ, RequestHandler.sync(lock::onLockBatch));
        server.registerHandler(RequestCode.UNLOCK_BATCH_MQ, RequestHandler.sync(lock::onUnlockBatch));

        // Pulls, heartbeats and offset requests run on their own executors, never queued behind the sends of
        // a connection (once decoded): a client closes its connection when a synchronous call (heartbeat, offset
        // query) is not answered within 3 s, and re-sends every in-flight asynchronous send.
        pullHandler = new PullHandler(store, metadata, topics, groups, clients, parking, new PullSettings(
                settings.brokerPermission(), settings.longPollingEnable(), settings.shortPollingTimeMs(),
                settings.longPollingSuspendMaxMs(), settings.maxTransferBytesPerPull(),
                settings.maxTransferCountPerPull(), settings.pullOnIoThread(), settings.slaveReadEnable(),
                slowConsumerLagBytes()), stats::onPull);
        // Pulls run on the I/O thread that decoded them by default (pullOnIoThread): the push consumer keeps one
        // pull in flight per queue, so its rate is bounded by the pull round trip, and the hand-off to a pull
        // thread and back is two wake-ups of that trip; the read itself only slices mapped files. The price: a
        // pull whose pages are not cached holds up its I/O thread's connections while they are read.
        // Pulls are not flow-controlled (a long poll may stay parked). On the pull pool its queue is what bounds
        // them: at most pullThreadPoolQueueCapacity wait for a pull thread, more are answered SYSTEM_BUSY and
        // consumers pull again later. Re-runs of parked pulls were admitted once: they go to the pool directly, or,
        // with pullOnIoThread, to their connection's I/O thread, which then writes the response without a hand-off.
        HandlerOptions pulls = settings.pullOnIoThread() ? HandlerOptions.IO_THREAD.withoutFlowControl()
                : HandlerOptions.onExecutor(pullExecutor).withoutFlowControl().withQueueBound(pullQueue);
        // A slave without slaveReadEnable turns pulls away, as Apache's does (SYSTEM_BUSY, the client pulls again).
        RequestHandler onPull = settings.brokerRole() == BrokerRole.SLAVE && !settings.slaveReadEnable()
                ? RequestHandler.sync((connection, request) -> RemotingCommand.response(ResponseCode.SYSTEM_BUSY,
                        "[REJECTREQUEST] broker " + settings.brokerName() + " is a SLAVE and slaveReadEnable is"
                                + " false"))
                : requestTimers.timePulls(pullHandler::onPull);
        server.registerHandler(RequestCode.PULL_MESSAGE, onPull, pulls);
        server.registerHandler(RequestCode.LITE_PULL_MESSAGE, onPull, pulls);

        HandlerOptions control = HandlerOptions.onExecutor(controlExecutor);
        MetadataExport export = new MetadataExport(metadata);
        server.registerHandler(MetadataExport.GET_ALL_CONSUMER_OFFSET,
                RequestHandler.sync(export::onGetAllConsumerOffset), control);
        server.registerHandler(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
                RequestHandler.sync(export::onGetAllSubscriptionGroups), control);
        OffsetHandler offsets = new OffsetHandler(store, metadata, topics, groups);
        server.registerHandler(RequestCode.QUERY_CONSUMER_OFFSET, RequestHandler.sync(offsets::onQueryConsumerOffset),
                control);
        server.registerHandler(RequestCode.UPDATE_CONSUMER_OFFSET,
                RequestHandler.sync(offsets::onUpdateConsumerOffset), control);
        server.registerHandler(RequestCode.GET_MAX_OFFSET, RequestHandler.sync(offsets::onGetMaxOffset), control);
        server.registerHandler(RequestCode.GET_MIN_OFFSET, RequestHandler.sync(offsets::onGetMinOffset), control);
        server.registerHandler(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                RequestHandler.sync(offsets::onSearchOffsetByTimestamp), control);
        server.registerHandler(RequestCode.GET_EARLIEST_MSG_STORETIME,
                RequestHandler.sync(offsets::onGetEarliestMsgStoreTime), control);

        ClientHandler clientHandler = new ClientHandler(clients, groups, topics, adminExecutor);
        server.registerHandler(RequestCode.HEART_BEAT, clientHandler::onHeartbeat, control);
        server.registerHandler(RequestCode.UNREGISTER_CLIENT, RequestHandler.sync(clientHandler::onUnregisterClient),
                control);
        server.registerHandler(RequestCode.GET_CONSUMER_LIST_BY_GROUP,
                RequestHandler.sync(clientHandler::onGetConsumerList), control);

        TopicHandler topicHandler = new TopicHandler(topics, store::deleteTopic);
        HandlerOptions admin = HandlerOptions.onExecutor(adminExecutor);
        server.registerHandler(RequestCode.UPDATE_AND_CREATE_TOPIC, topicHandler::onUpdateAndCreateTopic, admin);
        server.registerHandler(RequestCode.DELETE_TOPIC_IN_BROKER, RequestHandler.sync(topicHandler::onDeleteTopic),
                admin);
        server.registerHandler(RequestCode.GET_ALL_TOPIC_CONFIG, RequestHandler.sync(topicHandler::onGetAllTopicConfig),
                control);
        server.registerHandler(RequestCode.GET_TOPIC_CONFIG, RequestHandler.sync(topicHandler::onGetTopicConfig),
                control);
    }

    /**
     * A prepared send becomes a half message; any other send may be a timer (which wins over a delay level, as in
     * Apache's broker) or a delay-level message.
     */
    private MessageDraft beforeAppend(MessageDraft draft) {
        if (HalfMessages.isPrepared(draft)) {
            return transactions.toHalf(draft);
        }
        MessageDraft timed = timers.redirectIfTimed(draft);
        return timed != draft ? timed : delays.redirectIfDelayed(draft);
    }

    /** Before the broker is ready every request is SYSTEM_BUSY; afterwards unknown codes are not supported. */
    private RemotingCommand answerUnknown(RemotingCommand request) {
        if (!ready) {
            return RemotingCommand.response(ResponseCode.SYSTEM_BUSY, "[STARTING] broker " + settings.brokerName()
                    + " is starting, try again later");
        }
        return RemotingCommand.response(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                " request type " + request.code() + " not supported");
    }

    private RegistrarSettings registrarSettings() {
        int haPort = haListener != null ? ((InetSocketAddress) haListenerAddress()).getPort() : settings.haListenPort();
        String ha = address.getAddress().getHostAddress() + ":" + haPort;
        return new RegistrarSettings(settings.brokerClusterName(), settings.brokerName(), settings.brokerId(),
                addressText(), ha, settings.namesrvAddresses(), settings.registerBrokerIntervalMs(),
                settings.registerBrokerTimeoutMs(), RegistrarSettings.DEFAULT_UNREGISTER_TIMEOUT_MS, masterEpoch);
    }

    private void flushOffsets() {
        try {
            metadata.flush();
        } catch (RuntimeException e) {
            LOG.error("flushing consumer offsets failed", e);
        }
    }

    private void scanClients() {
        try {
            clients.scanExpired();
        } catch (RuntimeException e) {
            LOG.error("client expiry scan failed", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** The settings the broker runs with. */
    public BrokerSettings settings() {
        return settings;
    }

    /** The metrics endpoint's bound port, or -1 when {@code metricsExporterType} is not PROM. */
    public int metricsPort() {
        MetricsEndpoint endpoint = metrics;
        return endpoint == null ? -1 : endpoint.port();
    }

    /** The bound port; valid after {@link #start()}. */
    public int port() {
        return requireStarted().getPort();
    }

    /** The advertised address ({@code brokerIP1:port}): what the name servers and STOREHOST carry. */
    public InetSocketAddress address() {
        return requireStarted();
    }

    /** The advertised address as {@code ip:port}. */
    public String addressText() {
        InetSocketAddress a = requireStarted();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The metadata store (topics, groups, consumer offsets). */
    public MetadataStore metadata() {
        return metadata;
    }

    /** Users and policies, when authenticationEnabled or authorizationEnabled; changes apply to the next request. */
    public Optional<AuthStore> auth() {
        return Optional.ofNullable(auth);
    }

    /** The message store. */
    public MessageStore store() {
        return store;
    }

    /** The topic table. */
    public TopicRegistry topics() {
        return topics;
    }

    /** Subscription group configs. */
    public SubscriptionGroups groups() {
        return groups;
    }

    /** Online producer and consumer groups. */
    public ClientRegistry clients() {
        return clients;
    }

    /** Parked pulls. */
    public PullParking parking() {
        return parking;
    }

    /** The name-server registrar. */
    public NameServerRegistrar registrar() {
        return registrar;
    }

    /** The send handler (its refusal counter). */
    public SendHandler sendHandler() {
        return sendHandler;
    }

    /** Transactional messages (their counters). */
    public TransactionService transactions() {
        return transactions;
    }

    /** Timer messages (their counters). */
    public TimerService timers() {
        return timers;
    }

    /** The pull handler (its transfer counters). */
    public PullHandler pullHandler() {
        return pullHandler;
    }

    /** A master's HA service (its counters); null on a slave. */
    public HaServer haServer() {
        return haServer;
    }

    /** A SYNC_MASTER's waiting sends (their counters); null otherwise. */
    public SyncReplication syncReplication() {
        return syncReplication;
    }

    /** A slave's copy of its master's metadata (its counters); null on a master. */
    public MasterMetadataSync metadataSync() {
        return metadataSync;
    }

    /** A slave's replication from its master (its counters); null on a master. */
    public ReplicaClient replica() {
        return replica;
    }

    /** The request server, e.g. for registering more handlers. */
    public RemotingServer server() {
        return server;
    }

    private InetSocketAddress requireStarted() {
        InetSocketAddress a = address;
        if (a == null) {
            throw new IllegalStateException("broker not started");
        }
        return a;
    }

    // ------------------------------------------------------------------------------------------------ shutdown

    /** Stops everything in reverse start order. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ready = false;
        closeAll();
        LOG.info("broker {} stopped", settings.brokerName());
    }

    /** Closes what exists, in an order that never leaves a component used after its collaborator closed. */
    private void closeAll() {
        closeQuietly("metrics endpoint", metrics);
        if (registered) {
            closeQuietly("registrar", registrar);
        }
        closeQuietly("server", server);
        closeQuietly("replication from the master", replica);
        closeQuietly("HA server", haServer);
        closeQuietly("unused HA port", haListener);
        closeQuietly("sends waiting for a slave", syncReplication);
        closeQuietly("long polling", parking);
        closeQuietly("scheduler", scheduler == null ? null : () -> stop(scheduler));
        closeQuietly("admin executor", adminExecutor == null ? null : () -> stop(adminExecutor));
        closeQuietly("control executor", controlExecutor == null ? null : () -> stop(controlExecutor));
        closeQuietly("pull executor", pullExecutor == null ? null : () -> stop(pullExecutor));
        closeQuietly("transaction service", transactions);
        closeQuietly("upkeep tasks", upkeep);
        closeQuietly("delay scheduler", delays);
        closeQuietly("timer service", timers);
        closeQuietly("message store", store);
        closeQuietly("client", client);
        closeQuietly("metadata store", metadata);
    }

    private static void closeQuietly(String what, AutoCloseable closer) {
        if (closer == null) {
            return;
        }
        try {
            closer.close();
        } catch (Exception e) {
            LOG.error("closing the {} failed", what, e);
        }
    }

    private static void stop(ExecutorService executor) throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(EXECUTOR_STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            executor.shutdownNow();
        }
    }

    // ------------------------------------------------------------------------------------------------ settings

    /** The transport's settings: bindAddress, I/O threads and lanes from the broker's thread counts. */
    static ServerSettings serverSettings(BrokerSettings settings) {
        return ServerSettings.builder()
                .bindAddress(settings.bindAddress())
                .port(settings.listenPort())
                .ioThreads(settings.serverWorkerThreads())
                .laneCount(settings.sendMessageThreads())
                .maxFrameBytes(settings.serverMaxFrameBytes())
                .tls(serverTls(settings))
                .build();
    }

    /** TLS of the client port from the {@code tls.server.*} keys; validated (files readable) here. */
    public static ServerTls serverTls(BrokerSettings settings) {
        TlsMode mode = TlsMode.parse(settings.get(BrokerConfigKeys.TLS_SERVER_MODE));
        if (mode == TlsMode.DISABLED) {
            return ServerTls.disabled();
        }
        return new ServerTls(mode, optionalPath(settings, BrokerConfigKeys.TLS_SERVER_CERT_PATH),
                optionalPath(settings, BrokerConfigKeys.TLS_SERVER_KEY_PATH),
                settings.get(BrokerConfigKeys.TLS_SERVER_KEY_PASSWORD),
                optionalPath(settings, BrokerConfigKeys.TLS_SERVER_TRUST_CERT_PATH),
                TlsClientAuth.parse(settings.get(BrokerConfigKeys.TLS_SERVER_NEED_CLIENT_AUTH)));
    }

    /**
     * TLS of the broker's own connections (to the name servers, a slave's to its master) from {@code tls.enable},
     * {@code tls.client.trustCertPath} (empty: any server certificate) and the client certificate
     * {@code tls.client.certPath}, {@code tls.client.keyPath}, {@code tls.client.keyPassword}.
     */
    static ClientTls clientTls(BrokerSettings settings) {
        if (!settings.get(BrokerConfigKeys.TLS_ENABLE)) {
            return ClientTls.disabled();
        }
        Optional<Path> trust = optionalPath(settings, BrokerConfigKeys.TLS_CLIENT_TRUST_CERT_PATH);
        return new ClientTls(true, trust.isEmpty(), trust,
                optionalPath(settings, BrokerConfigKeys.TLS_CLIENT_CERT_PATH),
                optionalPath(settings, BrokerConfigKeys.TLS_CLIENT_KEY_PATH),
                settings.get(BrokerConfigKeys.TLS_CLIENT_KEY_PASSWORD));
    }

    /** TLS of the HA channel: the client port's mode and certificate on a master, the client TLS on a slave. */
    static HaTls haTls(BrokerSettings settings) {
        return HaTls.of(serverTls(settings), clientTls(settings));
    }

    private static Optional<Path> optionalPath(BrokerSettings settings, ConfigKey<String> key) {
        String value = settings.get(key);
        return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
    }

    /**
     * {@code mappedFileSizeCommitLog}, unless the CommitLog directory already holds segments of another size: a
     * store keeps the size it was created with (stores from before the default became 128 MiB have 1 GiB files).
     * A size no log could have is left to the log's opening, which names the file.
     */
    static int commitLogSegmentBytes(BrokerSettings settings) {
        int configured = settings.commitLogSegmentBytes();
        OptionalLong existing;
        try {
            existing = CommitLog.existingSegmentBytes(settings.storePathCommitLog());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the CommitLog directory " + settings.storePathCommitLog(), e);
        }
        if (existing.isEmpty() || existing.getAsLong() == configured
                || existing.getAsLong() < LogSettings.MIN_SEGMENT_BYTES || existing.getAsLong() > Integer.MAX_VALUE) {
            return configured;
        }
        LOG.warn("mappedFileSizeCommitLog is {} but the CommitLog in {} has {}-byte files: keeping {}", configured,
                settings.storePathCommitLog(), existing.getAsLong(), existing.getAsLong());
        return (int) existing.getAsLong();
    }

    /** The store's settings from the broker's: sizes, flush policy, retention and the store host. */
    static StoreSettings storeSettings(BrokerSettings settings, InetSocketAddress storeHost) {
        LogSettings log = LogSettings.builder(settings.storePathCommitLog(), storeHost)
                .segmentBytes(commitLogSegmentBytes(settings))
                .maxMessageBytes(settings.maxMessageBytes())
                .flushMode(settings.flushDiskType() == FlushDiskType.SYNC_FLUSH ? FlushMode.SYNC : FlushMode.ASYNC)
                .flushIntervalMs(settings.flushIntervalCommitLogMs())
                .syncFlushTimeoutMs((int) Math.min(Integer.MAX_VALUE, settings.syncFlushTimeoutMs()))
                .preallocateSegments(settings.warmMappedFile())
                .zeroFillAheadBytes(settings.commitLogZeroFillAheadBytes())
                .recycledSegments(settings.commitLogRecycledSegments())
                .pageCacheMaxBytes(settings.commitLogPageCacheMaxBytes())
                .build();
        IndexSettings index = IndexSettings.defaults(settings.storePathRootDir())
                .withSimpleCqSlotsPerFile(settings.consumeQueueFileBytes() / SIMPLE_CQ_SLOT_BYTES)
                .withBatchCqSlotsPerFile(settings.batchConsumeQueueFileBytes() / BATCH_CQ_SLOT_BYTES)
                .withMaxQueuesPerTopic(IndexSettings.MAX_QUEUES_PER_TOPIC_LIMIT)
                .withBatchCqUnitMaxBytes(settings.batchCqUnitMaxBytes())
                .withBatchCqSpan(settings.batchCqSpanMaxBytes(), log.segmentBytes());
        RetentionSettings retention = RetentionSettings.defaults()
                .withFileReservedHours(settings.fileReservedHours())
                .withDeleteWhenHours(settings.deleteWhenHours())
                .withRatios(settings.diskMaxUsedSpaceRatio() / 100.0, settings.diskSpaceCleanForciblyRatio() / 100.0,
                        settings.diskSpaceWarningLevelRatio() / 100.0)
                .withCleanFileForcibly(settings.cleanFileForciblyEnable())
                .withCheckIntervalMs(settings.cleanResourceIntervalMs());
        DispatchSettings dispatch = DispatchSettings.defaults().withMode(
                settings.dispatchMode()).withPipeline(settings.dispatchPipeline());
        KeyIndexSettings keyIndex = KeyIndexSettings.defaults(settings.storePathRootDir())
                .withEnabled(settings.messageIndexEnable())
                .withSizes(settings.maxHashSlotNum(), settings.maxIndexNum())
                .withCheckpointIntervalMs(settings.flushIntervalKeyIndexMs());
        return StoreSettings.builder(settings.storePathRootDir(), storeHost)
                .keyIndex(keyIndex)
                .dispatch(dispatch)
                .retention(retention)
                .checkpointIntervalMs(settings.flushIntervalConsumeQueueMs())
                .build()
                .withLog(log)
                .withIndex(index); // after the log: a spanning index names the log's segment size
    }

    /** Where the metrics endpoint binds: metricsPromExporterHost, else brokerIP1, else the loopback address. */
    static InetAddress metricsAddress(BrokerSettings settings) {
        String host = settings.metricsPromExporterHost().isBlank() ? settings.brokerIp1()
                : settings.metricsPromExporterHost();
        try {
            return host == null || host.isBlank() ? InetAddress.getLoopbackAddress() : InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve the metrics address '" + host + "'", e);
        }
    }

    /** The HA port listens where the broker is reachable: {@code brokerIP1} when set, else every interface. */
    private InetAddress haBindAddress() throws UnknownHostException {
        String ip = settings.brokerIp1();
        return ip == null || ip.isBlank() ? new InetSocketAddress(0).getAddress() : InetAddress.getByName(ip);
    }

    private SocketAddress haListenerAddress() {
        try {
            return haListener.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the HA port is not bound", e);
        }
    }

    /** Apache's rule: a consumer whose pull starts further than 40% of the machine's memory behind the end is slow. */
    private static long slowConsumerLagBytes() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        long memory = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getTotalMemorySize()
                : Runtime.getRuntime().maxMemory();
        return Math.max(1, memory / 100 * 40);
    }

    /**
     * The address to advertise: {@code brokerIP1} when set, else the host's first non-loopback IPv4 address (as
     * Apache picks it), else the loopback address.
     */
    static InetAddress advertisedAddress(String brokerIp1) {
        try {
            if (brokerIp1 != null && !brokerIp1.isBlank()) {
                return InetAddress.getByName(brokerIp1);
            }
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress candidate : Collections.list(nic.getInetAddresses())) {
                    if (candidate instanceof Inet4Address && !candidate.isLoopbackAddress()
                            && !candidate.isLinkLocalAddress()) {
                        return candidate;
                    }
                }
            }
        } catch (UnknownHostException | SocketException e) {
            throw new IllegalStateException("cannot determine the broker address (brokerIP1 '" + brokerIp1 + "')", e);
        }
        return InetAddress.getLoopbackAddress();
    }

    private static ScheduledExecutorService newScheduler() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                daemonThreads("sluice-broker-scheduler"));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
