package io.sluice.broker.registry;

import io.sluice.broker.topic.TopicAnnouncer;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.body.TopicConfigSerializeWrapper;
import io.sluice.remoting.protocol.body.TopicConfigWire;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.broker.meta.TableVersion;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.broker.meta.TopicTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the broker registered with every configured name server (docs/wire-protocol.md#broker-registration):
 * <ul>
 *   <li>a full REGISTER_BROKER (the whole topic table with its data version) at {@link #start()} and then every
 *       {@code registerIntervalMs} (first periodic run after {@code min(10 s, interval)}, as Apache);</li>
 *   <li>an incremental REGISTER_BROKER carrying only new or changed topics ({@link #announce}), whose future the
 *       topic registry waits for before acknowledging a creation;</li>
 *   <li>UNREGISTER_BROKER at {@link #close()}.</li>
 * </ul>
 * Every call goes to all name servers in parallel; a failure is logged and counted, never thrown: the next full
 * registration repairs it. The body is never compressed and carries {@code bodyCrc32}. In controller mode every
 * registration also carries the master epoch of the broker's role ({@code masterEpoch}), so that a name server
 * refuses a demoted master's registration as master once it accepted the elected one's.
 *
 * <p>Thread-safe. Owned by the broker's composition root, which also owns the {@link RemotingClient} and the
 * scheduler passed in (and closes them after this).
 */
public final class NameServerRegistrar implements TopicAnnouncer, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NameServerRegistrar.class);

    /** Apache runs the first periodic registration 10 s after start. */
    private static final long FIRST_PERIODIC_DELAY_MS = 10_000;

    private final RegistrarSettings settings;
    private final RemotingClient client;
    private final Supplier<TopicTable> topicTable;
    private final ScheduledExecutorService scheduler;
    private final AtomicLong registrations = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    /** The master of this broker group as the last answer named it (slaves only); empty until then. */
    private volatile MasterAddresses master = MasterAddresses.NONE;
    private ScheduledFuture<?> periodic;
    private volatile boolean closed;

    /**
     * @param settings   identity and timings
     * @param client     the broker's outbound client
     * @param topicTable the current topic table (with its version) for full registrations
     * @param scheduler  runs the periodic registration
     */
    public NameServerRegistrar(RegistrarSettings settings, RemotingClient client, Supplier<TopicTable> topicTable,
                               ScheduledExecutorService scheduler) {
        this.settings = settings;
        this.client = client;
        this.topicTable = topicTable;
        this.scheduler = scheduler;
    }

    /** Registers in full with every name server (waiting for the answers) and schedules the periodic runs. */
    public synchronized void start() {
        if (closed || periodic != null) {
            throw new IllegalStateException("registrar already " + (closed ? "closed" : "started"));
        }
        registerAll().join();
        long delayMs = Math.min(FIRST_PERIODIC_DELAY_MS, settings.registerIntervalMs());
        periodic = scheduler.scheduleWithFixedDelay(this::registerAllInBackground, delayMs,
                settings.registerIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sends a full registration to every name server.
     *
     * @return completes (never exceptionally) when every name server answered or timed out
     */
    public CompletableFuture<Void> registerAll() {
        TopicTable table = topicTable.get();
        return register(table.topics().values(), table.dataVersion(), "full");
    }

    /** Incremental registration of {@code topics}; see {@link TopicAnnouncer#announce}. */
    @Override
    public CompletableFuture<Void> announce(List<TopicConfig> topics, TableVersion version) {
        return register(topics, version, "incremental");
    }

    /** REGISTER_BROKER calls answered SUCCESS so far, one per name server per registration. */
    public long registrations() {
        return registrations.get();
    }

    /** REGISTER_BROKER calls that failed, timed out or were refused so far. */
    public long failures() {
        return failures.get();
    }

    /**
     * The master of this broker group as the name servers' last answer named it: a slave learns its master's client
     * and HA addresses this way (Apache's REGISTER_BROKER response {@code masterAddr} and {@code haServerAddr}).
     * Empty for a master, and until a name server knows the group's master.
     */
    public Optional<MasterAddresses> master() {
        MasterAddresses m = master;
        return m == MasterAddresses.NONE ? Optional.empty() : Optional.of(m);
    }

    private void noteMaster(RemotingCommand response) {
        String masterAddr = response.extField("masterAddr");
        String haAddr = response.extField("haServerAddr");
        if (settings.brokerId() != 0 && masterAddr != null && !masterAddr.isEmpty() && haAddr != null
                && !haAddr.isEmpty()) {
            master = new MasterAddresses(masterAddr, haAddr);
        }
    }

    /**
     * Where a slave's master is.
     *
     * @param brokerAddr the master's client address
     * @param haAddr     the master's HA address
     */
    public record MasterAddresses(String brokerAddr, String haAddr) {
        static final MasterAddresses NONE = new MasterAddresses("", "");
    }

    /** Stops the periodic registration and unregisters from every name server (waiting for the answers). */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (periodic != null) {
                periodic.cancel(false);
            }
        }
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (String address : settings.namesrvAddresses()) {
            RemotingCommand request = RemotingCommand.request(RequestCode.UNREGISTER_BROKER)
                    .putExtField("brokerName", settings.brokerName())
                    .putExtField("brokerAddr", settings.brokerAddr())
                    .putExtField("clusterName", settings.clusterName())
                    .putExtField("brokerId", settings.brokerId());
            calls.add(client.invoke(address, request, settings.unregisterTimeoutMs()).handle((response, error) -> {
                if (error != null || response.code() != ResponseCode.SUCCESS) {
                    LOG.warn("unregistering from name server {} failed: {}", address,
                            error != null ? error.toString() : response.code() + " " + response.remark());
                } else {
                    LOG.info("unregistered from name server {}", address);
                }
                return null;
            }));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
    }

    private void registerAllInBackground() {
        if (!closed) {
            registerAll();
        }
    }

    private CompletableFuture<Void> register(Collection<TopicConfig> topics, TableVersion version, String kind) {
        if (closed || settings.namesrvAddresses().isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        byte[] body = registerBody(topics, version);
        int crc = RegisterBrokerBody.crc32(body);
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (String address : settings.namesrvAddresses()) {
            RemotingCommand request = RemotingCommand.request(RequestCode.REGISTER_BROKER)
                    .putExtField("brokerName", settings.brokerName())
                    .putExtField("brokerAddr", settings.brokerAddr())
                    .putExtField("clusterName", settings.clusterName())
                    .putExtField("haServerAddr", settings.haServerAddr())
                    .putExtField("brokerId", settings.brokerId())
                    .putExtField("enableActingMaster", false)
                    .putExtField("compressed", false)
                    .putExtField("bodyCrc32", crc)
                    .setBody(body);
            if (settings.masterEpoch() > 0) {
                // A name server then refuses this master once it accepted one of a later epoch (Apache's ignores it).
                request.putExtField(ControllerWireDescriptor.MASTER_EPOCH, settings.masterEpoch());
            }
            calls.add(client.invoke(address, request, settings.registerTimeoutMs()).handle((response, error) -> {
                if (error != null || response.code() != ResponseCode.SUCCESS) {
                    failures.incrementAndGet();
                    LOG.warn("{} registration of {} topics (version {}) with name server {} failed: {}", kind,
                            topics.size(), version.counter(), address,
                            error != null ? error.toString() : response.code() + " " + response.remark());
                } else {
                    noteMaster(response);
                    registrations.incrementAndGet();
                    LOG.debug("{} registration of {} topics (version {}) with name server {} done", kind,
                            topics.size(), version.counter(), address);
                }
                return null;
            }));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /** The JSON {@code RegisterBrokerBody} of {@code topics} at {@code version}. */
    static byte[] registerBody(Collection<TopicConfig> topics, TableVersion version) {
        Map<String, TopicConfigWire> table = new LinkedHashMap<>();
        for (TopicConfig topic : topics) {
            table.put(topic.topicName(), toWire(topic));
        }
        io.sluice.remoting.protocol.body.DataVersion wireVersion = new io.sluice.remoting.protocol.body.DataVersion(
                version.stateVersion(), version.timestamp(), version.counter());
        return BodyCodec.encode(new RegisterBrokerBody(TopicConfigSerializeWrapper.of(wireVersion, table),
                List.of()));
    }

    /** A topic config in its wire form (attribute keys without the {@code +}). */
    public static TopicConfigWire toWire(TopicConfig topic) {
        return new TopicConfigWire(topic.topicName(), topic.readQueueNums(), topic.writeQueueNums(), topic.perm(),
                topic.topicFilterType(), topic.topicSysFlag(), topic.order(),
                topic.attributes());
    }
}
