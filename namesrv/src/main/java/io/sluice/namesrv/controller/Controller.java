package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.RequestHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failover controller: one member of a Ratis group ({@link ControllerSettings}) whose state machine holds the
 * {@link ReplicaTable}. Its request handlers ({@link ControllerHandler}) go on a remoting server it is given: the
 * name server's ({@code enableControllerInNamesrv}) or a standalone controller's. While it is the Raft leader it
 * renews broker leases from their heartbeats and its {@link ElectionAgent} replaces masters whose heartbeats are
 * overdue; followers answer CONTROLLER_NOT_LEADER.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #close()} (idempotent). Thread-safe.
 */
public final class Controller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);
    /** A proposal not committed within this is answered as failed (no quorum). */
    static final long PROPOSE_TIMEOUT_MS = 5_000;
    /** Grace a new leader gives replicas it has not heard from yet, and the lease of a heartbeat without one. */
    static final long DEFAULT_BROKER_TIMEOUT_MS = 3_000;

    private final ControllerSettings settings;
    private final LongSupplier clockMs;
    private final ReplicaTable table = new ReplicaTable();
    private final BrokerLeases leases = new BrokerLeases(DEFAULT_BROKER_TIMEOUT_MS);
    private final RaftGroup group;
    private final RaftProperties properties;
    private final RaftMember member = new RaftMember() {
        @Override
        public OptionalLong leaderTerm() {
            return Controller.this.leaderTerm();
        }

        @Override
        public CompletableFuture<ApplyResult> propose(ControllerCommand command) {
            return Controller.this.propose(command);
        }
    };
    private final ElectionAgent agent;
    private RaftServer server;
    private RaftClient client;
    private boolean started;
    private boolean closed;

    public Controller(ControllerSettings settings) {
        this(settings, System::currentTimeMillis);
    }

    public Controller(ControllerSettings settings, LongSupplier clockMs) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clockMs = clockMs;
        List<RaftPeer> peers = new ArrayList<>();
        for (Map.Entry<String, String> peer : settings.peers().entrySet()) {
            peers.add(RaftPeer.newBuilder().setId(peer.getKey()).setAddress(peer.getValue()).build());
        }
        this.group = RaftGroup.valueOf(RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(settings.group().getBytes(StandardCharsets.UTF_8))), peers);
        this.properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setPort(properties, settings.selfPort());
        RaftServerConfigKeys.setStorageDir(properties,
                List.of(settings.storePath().resolve(settings.selfId()).toFile()));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, 10_000);
        this.agent = new ElectionAgent(member, table, leases, clockMs, settings.scanIntervalMs());
    }

    /**
     * Starts the Raft server (recovering its log and snapshot) and the election agent.
     *
     * @throws IOException when the store cannot be opened or the Raft port bound
     */
    public synchronized void start() throws IOException {
        if (started || closed) {
            throw new IllegalStateException("controller already " + (closed ? "closed" : "started"));
        }
        started = true;
        boolean fresh = !Files.isDirectory(settings.storePath().resolve(settings.selfId()));
        server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(settings.selfId()))
                .setGroup(group)
                .setProperties(properties)
                .setStateMachine(new ControllerStateMachine(table))
                .setOption(fresh ? RaftStorage.StartupOption.FORMAT : RaftStorage.StartupOption.RECOVER)
                .build();
        server.start();
        // Proposals come from this controller while it leads: its own server is the first to ask.
        client = RaftClient.newBuilder().setProperties(properties).setRaftGroup(group)
                .setLeaderId(RaftPeerId.valueOf(settings.selfId())).build();
        agent.start();
        LOG.info("controller {} of group {} started, Raft peers {}", settings.selfId(), settings.group(),
                settings.peers());
    }

    /** Puts the controller's request handlers on {@code remoting}. */
    public void registerHandlers(RemotingServer remoting) {
        ControllerHandler handler = new ControllerHandler(member, table, leases, clockMs);
        RequestHandler heartbeat = handler::onHeartbeat;
        remoting.registerHandler(ControllerWireDescriptor.BROKER_HEARTBEAT, heartbeat);
        remoting.registerHandler(ControllerWireDescriptor.CONTROLLER_ALTER_SYNC_STATE_SET,
                handler::onAlterSyncStateSet);
        remoting.registerHandler(ControllerWireDescriptor.CONTROLLER_GET_REPLICA_INFO,
                RequestHandler.sync(handler::onGetReplicaInfo));
    }

    /** True while this controller is the Raft leader and has applied its term's first entry. */
    public boolean isLeader() {
        return leaderTerm().isPresent();
    }

    /** The term this controller leads once it has applied the term's first entry; empty while it does not. */
    private OptionalLong leaderTerm() {
        RaftServer s = server;
        if (s == null) {
            return OptionalLong.empty();
        }
        try {
            DivisionInfo info = s.getDivision(group.getGroupId()).getInfo();
            return info.isLeader() && info.isLeaderReady() ? OptionalLong.of(info.getCurrentTerm())
                    : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** Commits {@code command} through the Raft log; the future completes with its outcome once applied. */
    CompletableFuture<ApplyResult> propose(ControllerCommand command) {
        Message message = Message.valueOf(ByteString.copyFrom(ControllerLogDescriptor.encode(command)));
        return client.async().send(message)
                .orTimeout(PROPOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .thenApply(Controller::resultOf);
    }

    private static ApplyResult resultOf(RaftClientReply reply) {
        if (!reply.isSuccess()) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_NOT_LEADER,
                    "the controller group did not commit the change: " + reply.getException());
        }
        return ControllerLogDescriptor.decodeResult(reply.getMessage().getContent().toByteArray());
    }

    /** The group of {@code brokerName} as this controller has applied it (brokerId -1). */
    public Optional<ReplicaInfo> replicaInfo(String brokerName) {
        return table.group(brokerName).map(view -> ControllerHandler.infoOf(view, -1, leases, clockMs.getAsLong()));
    }

    /** Elections this controller proposed as leader. */
    public long electionCount() {
        return agent.elections();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        agent.close();
        closeQuietly("Raft client", client);
        closeQuietly("Raft server", server);
        LOG.info("controller {} stopped", settings.selfId());
    }

    private static void closeQuietly(String what, AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.error("closing the {} failed", what, e);
        }
    }
}
