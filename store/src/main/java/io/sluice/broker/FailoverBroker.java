package io.sluice.broker;

import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.BrokerRole;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.ha.ControllerClient;
import io.sluice.broker.ha.EpochEntry;
import io.sluice.broker.ha.EpochFile;
import io.sluice.broker.ha.ReplicaGroupView;
import io.sluice.broker.ha.SyncStateTracker;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.thread.RoundAgent;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RequestHandler;
import io.sluice.store.StoreSettings;
import io.sluice.store.LogTail;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in controller mode ({@code enableControllerMode}): the controllers of {@code controllerAddr} choose its
 * role, and it runs a {@link Broker} in that role on its store, replacing it when the role changes.
 *
 * <p>Role changes restart the broker in-process on the same ports and store rather than switching components in
 * place: every role-specific component (HA service or replica, timers, transaction checks, delay scheduler, send
 * and pull paths) is composed at start, and the restart goes through the tested start and recovery paths. Before
 * it serves as master, the broker records its epoch at its log end ({@link EpochFile}). As a slave, its HA
 * handshake sends its epoch history and log end; the master answers how much of the log the two share. When that
 * is all of it, the slave records the master's history and copies; when its log holds a tail the master does not
 * share (it was master under an epoch that lost, or copied from one), the slave is restarted with its log cut back
 * there ({@link LogTail}) first. A SYNC_MASTER's sends wait for every slave of the in-sync set, so whichever the
 * controller elects holds every acknowledged message. Clients reconnect after a role change, as after any broker
 * restart. The broker's name-server registrations carry its role's master epoch: a master frozen while another was
 * elected is refused as master when it wakes, rather than taking the elected master's route.
 *
 * <p>Threads: a {@link RoundAgent} (thread {@code sluice-broker-role-agent}) owns the role: the heartbeats, the
 * changes and the in-sync set reports. The epoch file is written by it and by a slave's replica thread (the
 * master's history, at the handshake), each under {@link #epochLock}. The running broker is installed by the agent
 * and stopped by it or by {@link #close}, each under {@link #currentLock}. Other threads only read the volatile
 * fields.
 */
public final class FailoverBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverBroker.class);
    private static final long CONTROLLER_CALL_TIMEOUT_MS = 3_000;

    /** The role the running broker has. */
    public enum Role { NONE, MASTER, SLAVE }

    private final BrokerSettings base;
    private final String address;
    private final String haAddress;
    private final StoreSettings storeSettings;
    private final RemotingClient client;
    private final ControllerClient controller;
    private final RoundAgent agent;
    private final GroupView groupView = new GroupView();
    /** Guards {@link #epochs}: held by the role agent thread and by a slave's replica thread. */
    private final Object epochLock = new Object();
    private EpochFile epochs;
    private volatile List<EpochEntry> publishedEpochs = List.of();
    private volatile Broker current;
    private volatile Role role = Role.NONE;
    private volatile int epoch;
    private volatile ReplicaInfo lastInfo;
    /** A master's in-sync slaves (its in-sync set without itself), which every SYNC_MASTER send waits for. */
    private volatile Optional<Set<Long>> inSyncSlaves = Optional.of(Set.of());
    /**
     * Written by a slave's replica thread when the master's handshake answer says this log must end lower; read
     * and reset by the role agent, which cuts the log there and follows again. -1: nothing to cut.
     */
    private volatile long divergedAt = -1;
    private final AtomicLong truncatedBytes = new AtomicLong();
    private String followedMaster = "";
    private SyncStateTracker tracker;
    private long lastKnownEnd;
    private boolean started;
    /** Set by {@link #close} before it stops the agent; read by the agent under {@link #currentLock}. */
    private volatile boolean closed;
    /**
     * Held while the running broker is installed or stopped: the agent may still be starting one when close gives
     * up waiting for it, and a broker installed after close stopped the last would run on with its ports and store.
     */
    private final Object currentLock = new Object();

    /**
     * @param settings settings with {@code enableControllerMode}; a listen or HA port of 0 is resolved to a free
     *                 port now, since the controller knows the broker by its address across role changes
     */
    public FailoverBroker(BrokerSettings settings) {
        if (!settings.controllerMode()) {
            throw new IllegalArgumentException("enableControllerMode is false: run a Broker");
        }
        if (!settings.brokerRole().isMaster()) {
            throw new IllegalArgumentException("brokerRole must be ASYNC_MASTER or SYNC_MASTER with"
                    + " enableControllerMode: it names what this broker is when elected; the controller makes it a"
                    + " slave otherwise");
        }
        BrokerSettings.Builder builder = BrokerSettings.builder();
        settings.toProperties().forEach(builder::setText);
        int port = settings.listenPort() == 0 ? freePort() : settings.listenPort();
        int haPort = settings.haListenPort() == 0 ? freePort() : settings.haListenPort();
        builder.set(BrokerConfigKeys.LISTEN_PORT, port).set(BrokerConfigKeys.HA_LISTEN_PORT, haPort);
        this.base = builder.build();
        String ip = Broker.advertisedAddress(base.brokerIp1()).getHostAddress();
        this.address = ip + ":" + port;
        this.haAddress = ip + ":" + haPort;
        this.storeSettings = Broker.storeSettings(base, new InetSocketAddress(ip, port));
        this.client = new RemotingClient(ClientSettings.defaults().withTls(Broker.clientTls(base))
                .withCredentials(Broker.innerCredentials(base)));
        this.controller = new ControllerClient(client, base.controllerAddresses(), CONTROLLER_CALL_TIMEOUT_MS);
        this.agent = new RoundAgent("sluice-broker-role-agent", base.brokerHeartbeatIntervalMs(), this::onHeartbeat);
    }

    /**
     * Opens the epoch file, reads the log's end and starts heartbeating; the broker serves once the controller
     * gives it a role.
     *
     * @throws IOException when the epoch file or the store cannot be read (or another process holds the store)
     */
    public synchronized void start() throws IOException {
        if (started || closed) {
            throw new IllegalStateException("failover broker already " + (closed ? "closed" : "started"));
        }
        started = true;
        synchronized (epochLock) {
            epochs = EpochFile.open(base.storePathRootDir());
            publishedEpochs = epochs.entries();
        }
        lastKnownEnd = LogTail.end(storeSettings);
        agent.start();
        LOG.info("broker {} at {} in controller mode (controllers {}), log end {}", base.brokerName(), address,
                base.controllerAddresses(), lastKnownEnd);
    }

    // ------------------------------------------------------------------------------------------------ role agent

    /** One heartbeat round; on the role agent thread. */
    private void onHeartbeat(long nowMs) {
        ReplicaInfo info;
        try {
            info = controller.heartbeat(new ControllerClient.Heartbeat(base.brokerClusterName(), base.brokerName(),
                    address, haAddress, logEnd(), base.controllerHeartbeatTimeoutMs()));
        } catch (ControllerClient.ControllerException e) {
            agent.reportFailure("heartbeat to the controller failed: " + e.getMessage());
            return;
        }
        agent.reportSuccess();
        lastInfo = info;
        try {
            if (info.isMaster()) {
                if (role != Role.MASTER || epoch != info.masterEpoch()) {
                    becomeMaster(info);
                }
                reportSyncStateSet(nowMs, info);
            } else if (info.masterBrokerId() > 0 && !info.masterAddress().isEmpty()) {
                if (role != Role.SLAVE || epoch != info.masterEpoch() || !followedMaster.equals(info.masterAddress())
                        || divergedAt >= 0) {
                    becomeSlave(info);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("broker {}: changing role failed; trying again at the next heartbeat", base.brokerName(), e);
            stopCurrent();
        }
    }

    private void becomeMaster(ReplicaInfo info) throws IOException {
        stopCurrent();
        long end = LogTail.end(storeSettings);
        lastKnownEnd = end;
        synchronized (epochLock) {
            if (epochs.last().map(e -> e.epoch() < info.masterEpoch()).orElse(true)) {
                epochs.append(info.masterEpoch(), end);
            }
            publishedEpochs = epochs.entries();
        }
        tracker = new SyncStateTracker(info.brokerId(), base.haMaxTimeSlaveNotCatchupMs());
        setInSyncSlaves(info.brokerId(), info.syncStateSet());
        startBroker(new Broker(roleSettings(0, base.brokerRole(), "")), Role.MASTER, info);
        LOG.warn("broker {} (id {}) is MASTER at epoch {} from log position {}", base.brokerName(), info.brokerId(),
                info.masterEpoch(), end);
    }

    /**
     * Follows the master {@code info} names, first cutting the log where the last handshake said it diverges from
     * its master's (a cut of data the new master also holds only costs copying it again).
     */
    private void becomeSlave(ReplicaInfo info) throws IOException {
        stopCurrent();
        long end = LogTail.end(storeSettings);
        long cut = divergedAt;
        divergedAt = -1;
        if (cut >= 0 && cut < end) {
            LOG.warn("broker {}: dropping the log tail [{}, {}) that its master does not share", base.brokerName(),
                    cut, end);
            long newEnd = LogTail.truncate(storeSettings, cut);
            truncatedBytes.addAndGet(end - newEnd);
            end = newEnd;
        }
        lastKnownEnd = end;
        startBroker(new Broker(roleSettings(info.brokerId(), BrokerRole.SLAVE, info.masterHaAddress())), Role.SLAVE,
                info);
        followedMaster = info.masterAddress();
        LOG.warn("broker {} (id {}) is SLAVE of {} at epoch {} from log position {}", base.brokerName(),
                info.brokerId(), info.masterAddress(), info.masterEpoch(), end);
    }

    private void startBroker(Broker broker, Role newRole, ReplicaInfo info) throws IOException {
        broker.replicaGroup(groupView);
        broker.masterEpoch(info.masterEpoch());
        broker.start();
        broker.server().registerHandler(ControllerWireDescriptor.GET_BROKER_EPOCH_CACHE,
                RequestHandler.sync((connection, request) -> RemotingCommand.response(ResponseCode.SUCCESS, null)
                        .setBody(ControllerClient.encodeEpochCache(publishedEpochs,
                                broker.store().logEndPosition()))));
        synchronized (currentLock) {
            if (closed) {
                broker.close(); // closed while it started: close stops only what was installed
                return;
            }
            current = broker;
            epoch = info.masterEpoch();
            role = newRole;
        }
    }

    /**
     * A master reports the in-sync set its slaves' progress gives. Sends wait for slaves from before a slave is
     * added (it may be elected once the controller has it) until after the controller has removed the last one.
     */
    private void reportSyncStateSet(long nowMs, ReplicaInfo info) {
        Broker broker = current;
        if (broker == null) {
            return;
        }
        Set<Long> wanted = tracker.update(nowMs, broker.store().logEndPosition(), info,
                broker.haServer().slaveAcks());
        if (wanted.equals(info.syncStateSet())) {
            setInSyncSlaves(info.brokerId(), wanted);
            return;
        }
        Set<Long> either = new TreeSet<>(wanted);
        either.addAll(info.syncStateSet());
        setInSyncSlaves(info.brokerId(), either);
        try {
            controller.alterSyncStateSet(base.brokerName(), info.brokerId(), info.masterEpoch(),
                    info.syncStateSetEpoch(), wanted);
            setInSyncSlaves(info.brokerId(), wanted);
            LOG.info("broker {}: in-sync set {} -> {}", base.brokerName(), info.syncStateSet(), wanted);
        } catch (ControllerClient.ControllerException e) {
            LOG.warn("broker {}: changing the in-sync set to {} failed: {}", base.brokerName(), wanted,
                    e.getMessage());
        }
    }

    /** Sends wait for every member of {@code syncStateSet} but this master {@code selfId}; role agent thread. */
    private void setInSyncSlaves(long selfId, Set<Long> syncStateSet) {
        Set<Long> slaves = new TreeSet<>(syncStateSet);
        slaves.remove(selfId);
        if (inSyncSlaves.orElseThrow().equals(slaves)) {
            return;
        }
        inSyncSlaves = Optional.of(Set.copyOf(slaves));
        Broker broker = current;
        if (broker != null && broker.haServer() != null) {
            broker.haServer().inSyncSetChanged();
        }
    }

    private void stopCurrent() {
        Broker broker;
        synchronized (currentLock) {
            broker = current;
            if (broker == null) {
                return;
            }
            if (broker.store() != null) {
                lastKnownEnd = broker.store().logEndPosition();
            }
            current = null;
            role = Role.NONE;
            followedMaster = "";
        }
        broker.close();
    }

    private long logEnd() {
        Broker broker = current;
        return broker != null && broker.store() != null ? broker.store().logEndPosition() : lastKnownEnd;
    }

    private BrokerSettings roleSettings(long brokerId, BrokerRole brokerRole, String haMasterAddress) {
        BrokerSettings.Builder builder = BrokerSettings.builder();
        base.toProperties().forEach(builder::setText);
        return builder.set(BrokerConfigKeys.BROKER_ID, brokerId)
                .set(BrokerConfigKeys.BROKER_ROLE, brokerRole)
                .setText(BrokerConfigKeys.HA_MASTER_ADDRESS.name(), haMasterAddress)
                .build();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the broker", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** The running broker, if the controller gave this one a role. */
    public Optional<Broker> broker() {
        return Optional.ofNullable(current);
    }

    /** The role of the running broker. */
    public Role role() {
        return role;
    }

    /** The epoch of the master this broker is or follows; 0 before it has a role. */
    public int epoch() {
        return epoch;
    }

    /** The advertised address ({@code ip:listenPort}), the same in every role. */
    public String address() {
        return address;
    }

    /** The controller's last answer, if any. */
    public Optional<ReplicaInfo> lastReplicaInfo() {
        return Optional.ofNullable(lastInfo);
    }

    /** This broker's epoch history. */
    public List<EpochEntry> epochs() {
        return publishedEpochs;
    }

    /** Log bytes dropped because a master's handshake said they diverge from its log, so far. */
    public long truncatedBytes() {
        return truncatedBytes.get();
    }

    /** The settings with resolved ports. */
    public BrokerSettings settings() {
        return base;
    }

    /**
     * The broker group as this broker's HA channel sees it. Read by the send path and the HA threads; the epoch
     * history is written under {@link #epochLock}.
     */
    private final class GroupView implements ReplicaGroupView {

        @Override
        public List<EpochEntry> epochs() {
            return publishedEpochs;
        }

        @Override
        public boolean waitsForSlaves() {
            return !inSyncSlaves.orElseThrow().isEmpty();
        }

        @Override
        public Optional<Set<Long>> inSyncSlaves() {
            return inSyncSlaves;
        }

        @Override
        public void onMasterEpochs(List<EpochEntry> masterEpochs) throws IOException {
            synchronized (epochLock) {
                if (!epochs.entries().equals(masterEpochs)) {
                    epochs.replaceAll(masterEpochs);
                    publishedEpochs = epochs.entries();
                }
            }
        }

        @Override
        public void onDivergence(long position) {
            divergedAt = position;
        }
    }

    /** Stops heartbeating, then the running broker. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        agent.close();
        stopCurrent();
        client.close();
        LOG.info("broker {} at {} stopped", base.brokerName(), address);
    }
}
