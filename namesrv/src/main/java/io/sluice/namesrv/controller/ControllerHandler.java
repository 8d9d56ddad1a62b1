package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Answers brokers' controller requests ({@link ControllerWireDescriptor}): heartbeats (registering unknown brokers
 * through the Raft log, renewing leases), in-sync set changes from masters, and replica info queries. Only the
 * leader answers; the others say CONTROLLER_NOT_LEADER.
 *
 * <p>Thread-safe: holds no state of its own; the table and leases guard themselves.
 */
final class ControllerHandler {

    private final RaftMember member;
    private final ReplicaTable table;
    private final BrokerLeases leases;
    private final LongSupplier clockMs;

    ControllerHandler(RaftMember member, ReplicaTable table, BrokerLeases leases, LongSupplier clockMs) {
        this.member = member;
        this.table = table;
        this.leases = leases;
        this.clockMs = clockMs;
    }

    CompletableFuture<RemotingCommand> onHeartbeat(ConnectionContext connection, RemotingCommand request) {
        if (!leading()) {
            return CompletableFuture.completedFuture(notLeader());
        }
        String clusterName = request.requireString(ControllerWireDescriptor.CLUSTER_NAME);
        String brokerName = request.requireString(ControllerWireDescriptor.BROKER_NAME);
        String address = request.requireString(ControllerWireDescriptor.BROKER_ADDR);
        String haAddress = request.requireString(ControllerWireDescriptor.HA_SERVER_ADDR);
        long logEnd = request.requireLong(ControllerWireDescriptor.LOG_END_POSITION);
        long timeoutMs = request.optionalLong(ControllerWireDescriptor.HEARTBEAT_TIMEOUT_MILLIS, 0);
        Optional<ReplicaGroup.GroupView> view = table.group(brokerName);
        Optional<Long> id = view.flatMap(v -> idOf(v, address));
        boolean current = id.isPresent() && view.get().replicas().get(id.get()).haAddress().equals(haAddress);
        CompletableFuture<Long> registered = current ? CompletableFuture.completedFuture(id.get())
                : member.propose(new ControllerCommand.Register(clusterName, brokerName, address, haAddress))
                        .thenApply(result -> result.isOk() ? result.value() : -1L);
        return registered.thenApply(brokerId -> {
            if (brokerId < 0) {
                return RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_NOT_LEADER,
                        "the controller group could not register " + address + " now; try again");
            }
            leases.renew(brokerName, brokerId, clockMs.getAsLong(), timeoutMs, logEnd);
            ReplicaGroup.GroupView latest = table.group(brokerName).orElseThrow();
            return success(infoOf(latest, brokerId, leases, clockMs.getAsLong()));
        });
    }

    CompletableFuture<RemotingCommand> onAlterSyncStateSet(ConnectionContext connection, RemotingCommand request) {
        if (!leading()) {
            return CompletableFuture.completedFuture(notLeader());
        }
        Set<Long> set;
        try {
            set = ControllerWireDescriptor.decodeSyncStateSet(request.body() == null ? new byte[0] : request.body());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(RemotingCommand.response(
                    ControllerWireDescriptor.CONTROLLER_INVALID_REQUEST, e.getMessage()));
        }
        ControllerCommand command = new ControllerCommand.AlterSyncStateSet(
                request.requireString(ControllerWireDescriptor.BROKER_NAME),
                request.requireLong(ControllerWireDescriptor.MASTER_BROKER_ID),
                request.requireInt(ControllerWireDescriptor.MASTER_EPOCH),
                request.requireInt(ControllerWireDescriptor.SYNC_STATE_SET_EPOCH), set);
        return member.propose(command).thenApply(result -> {
            if (!result.isOk()) {
                return RemotingCommand.response(result.code(), result.remark());
            }
            return RemotingCommand.response(ResponseCode.SUCCESS, null)
                    .putExtField(ControllerWireDescriptor.NEW_SYNC_STATE_SET_EPOCH, result.value());
        });
    }

    RemotingCommand onGetReplicaInfo(ConnectionContext connection, RemotingCommand request) {
        if (!leading()) {
            return notLeader();
        }
        String brokerName = request.requireString(ControllerWireDescriptor.BROKER_NAME);
        return table.group(brokerName)
                .map(view -> success(infoOf(view, -1, leases, clockMs.getAsLong())))
                .orElseGet(() -> RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_INVALID_REQUEST,
                        "no broker group " + brokerName));
    }

    /**
     * Whether this controller leads; if so, its leases belong to the current term from now on, so that no answer
     * of a new term reports what the previous term heard (or did not hear) as this term's.
     */
    private boolean leading() {
        OptionalLong term = member.leaderTerm();
        term.ifPresent(t -> leases.lead(t, clockMs.getAsLong()));
        return term.isPresent();
    }

    /**
     * The group as this leader sees it. A replica counts alive while its heartbeats are current, and also when a
     * new leader has not heard from it yet but is still within its grace: a master drops slaves the controller
     * reports dead from the in-sync set, and a slave that is the only other in-sync replica must not be dropped
     * merely because its heartbeats went to the previous leader (its master's death would leave none to elect).
     */
    static ReplicaInfo infoOf(ReplicaGroup.GroupView view, long brokerId, BrokerLeases leases, long nowMs) {
        List<ReplicaInfo.ReplicaStatus> replicas = new ArrayList<>();
        for (Map.Entry<Long, ReplicaGroup.Replica> entry : view.replicas().entrySet()) {
            long id = entry.getKey();
            replicas.add(new ReplicaInfo.ReplicaStatus(id, entry.getValue().address(),
                    leases.isAlive(view.brokerName(), id, nowMs),
                    leases.logEndPosition(view.brokerName(), id).orElse(-1L)));
        }
        Optional<ReplicaGroup.Replica> master = view.master();
        return new ReplicaInfo(brokerId, view.masterBrokerId(), master.map(ReplicaGroup.Replica::address).orElse(""),
                master.map(ReplicaGroup.Replica::haAddress).orElse(""), view.masterEpoch(), view.syncStateSet(),
                view.syncStateSetEpoch(), replicas);
    }

    private static Optional<Long> idOf(ReplicaGroup.GroupView view, String address) {
        return view.replicas().entrySet().stream().filter(e -> e.getValue().address().equals(address))
                .map(Map.Entry::getKey).findFirst();
    }

    private static RemotingCommand success(ReplicaInfo info) {
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(ControllerWireDescriptor.encodeReplicaInfo(info));
    }

    private static RemotingCommand notLeader() {
        return RemotingCommand.response(ControllerWireDescriptor.CONTROLLER_NOT_LEADER,
                "this controller is not the leader; ask another of controllerAddr");
    }
}
