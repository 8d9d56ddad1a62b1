package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every broker group's replicated state ({@link ReplicaGroup}), changed only by applying
 * {@link ControllerCommand}s in Raft log order. {@link #apply} is a pure function of the table and the command, so
 * every controller that applies the same log holds the same table.
 *
 * <p>Thread-safety: the monitor of this object guards the groups. Ratis's apply thread holds it while applying a
 * command or loading a snapshot; request handlers and the election agent hold it briefly to copy a group
 * ({@link #group}, {@link #groups}).
 */
final class ReplicaTable {

    private final Map<String, ReplicaGroup> groups = new TreeMap<>();

    /** Applies {@code command}; a refused command leaves the table as it was. */
    synchronized ApplyResult apply(ControllerCommand command) {
        if (command instanceof ControllerCommand.Register r) {
            return register(r);
        }
        if (command instanceof ControllerCommand.Elect e) {
            return elect(e);
        }
        return alterSyncStateSet((ControllerCommand.AlterSyncStateSet) command);
    }

    private ApplyResult register(ControllerCommand.Register r) {
        ReplicaGroup group = groups.computeIfAbsent(r.brokerName(), name -> new ReplicaGroup(r.clusterName(), name));
        Optional<Long> known = group.idOf(r.address());
        long id = known.orElseGet(() -> group.nextBrokerId++);
        group.replicas.put(id, new ReplicaGroup.Replica(r.address(), r.haAddress()));
        return ApplyResult.ok(id);
    }

    private ApplyResult elect(ControllerCommand.Elect e) {
        ReplicaGroup group = groups.get(e.brokerName());
        if (group == null) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_INVALID_REQUEST,
                    "no broker group " + e.brokerName());
        }
        if (group.masterEpoch != e.expectedMasterEpoch()) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH, "master epoch of "
                    + e.brokerName() + " is " + group.masterEpoch + ", not " + e.expectedMasterEpoch());
        }
        if (!group.replicas.containsKey(e.newMasterBrokerId())) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_INVALID_MASTER,
                    "broker id " + e.newMasterBrokerId() + " is not a replica of " + e.brokerName());
        }
        if (!group.syncStateSet.isEmpty() && !group.syncStateSet.contains(e.newMasterBrokerId())) {
            // Only an in-sync replica has every acknowledged message.
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_ELECT_MASTER_FAILED, "broker id "
                    + e.newMasterBrokerId() + " is not in the in-sync set " + group.syncStateSet);
        }
        group.masterBrokerId = e.newMasterBrokerId();
        group.masterEpoch++;
        group.syncStateSet.clear();
        group.syncStateSet.add(e.newMasterBrokerId());
        group.syncStateSetEpoch++;
        return ApplyResult.ok(group.masterEpoch);
    }

    private ApplyResult alterSyncStateSet(ControllerCommand.AlterSyncStateSet a) {
        ReplicaGroup group = groups.get(a.brokerName());
        if (group == null) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_INVALID_REQUEST,
                    "no broker group " + a.brokerName());
        }
        if (group.masterBrokerId != a.masterBrokerId() || group.masterEpoch != a.masterEpoch()) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH, "the master of "
                    + a.brokerName() + " is " + group.masterBrokerId + " at epoch " + group.masterEpoch + ", not "
                    + a.masterBrokerId() + " at " + a.masterEpoch());
        }
        if (group.syncStateSetEpoch != a.syncStateSetEpoch()) {
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH,
                    "in-sync set epoch is " + group.syncStateSetEpoch + ", not " + a.syncStateSetEpoch());
        }
        if (!a.syncStateSet().contains(a.masterBrokerId()) || !group.replicas.keySet().containsAll(a.syncStateSet())) {
            // Sorted: the remark is part of the applied result, which every controller replaying the log must
            // reach alike, whatever set the command was decoded into.
            return ApplyResult.refused(ControllerWireDescriptor.CONTROLLER_INVALID_REPLICAS, "in-sync set "
                    + new TreeSet<>(a.syncStateSet()) + " must hold the master and registered replicas only");
        }
        group.syncStateSet.clear();
        group.syncStateSet.addAll(a.syncStateSet());
        group.syncStateSetEpoch++;
        return ApplyResult.ok(group.syncStateSetEpoch);
    }

    /** A copy of one group, if it exists. */
    synchronized Optional<ReplicaGroup.GroupView> group(String brokerName) {
        ReplicaGroup group = groups.get(brokerName);
        return group == null ? Optional.empty() : Optional.of(group.view());
    }

    /** Copies of every group. */
    synchronized List<ReplicaGroup.GroupView> groups() {
        List<ReplicaGroup.GroupView> views = new ArrayList<>();
        groups.values().forEach(group -> views.add(group.view()));
        return views;
    }

    /** The whole table as a snapshot ({@link ControllerSnapshotDescriptor}). */
    synchronized byte[] snapshot() {
        return ControllerSnapshotDescriptor.encode(groups.values());
    }

    /** Replaces the whole table with a snapshot's content. */
    synchronized void restore(byte[] snapshot) {
        List<ReplicaGroup> loaded = ControllerSnapshotDescriptor.decode(snapshot);
        groups.clear();
        loaded.forEach(group -> groups.put(group.brokerName, group));
    }
}
