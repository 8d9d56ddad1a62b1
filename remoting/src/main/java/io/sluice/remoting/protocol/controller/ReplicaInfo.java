package io.sluice.remoting.protocol.controller;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the controller tells a broker about its group (the body of a heartbeat or CONTROLLER_GET_REPLICA_INFO
 * answer, {@link ControllerWireDescriptor}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param brokerId          the asking broker's id in the group (from 1); -1 when the request named no broker
 * @param masterBrokerId    the master's id; -1 before the first election
 * @param masterAddress     the master's client address; empty without a master
 * @param masterHaAddress   where the master serves its slaves; empty without a master
 * @param masterEpoch       the master's epoch (0 before the first election)
 * @param syncStateSet      ids of the in-sync replicas (the master among them)
 * @param syncStateSetEpoch the in-sync set's epoch, which an AlterSyncStateSet must name
 * @param replicas          every replica, with what the leader last heard from it
 */
public record ReplicaInfo(long brokerId, long masterBrokerId, String masterAddress, String masterHaAddress,
                          int masterEpoch, Set<Long> syncStateSet, int syncStateSetEpoch,
                          List<ReplicaStatus> replicas) {

    /** True when the asking broker is the master. */
    public boolean isMaster() {
        return brokerId > 0 && brokerId == masterBrokerId;
    }

    /** The status of replica {@code id}, if registered. */
    public Optional<ReplicaStatus> replica(long id) {
        return replicas.stream().filter(r -> r.brokerId() == id).findFirst();
    }

    /**
     * One replica as the controller leader sees it.
     *
     * @param brokerId       its id
     * @param address        its client address
     * @param alive          whether its heartbeats are current, or, not yet heard by a new controller leader,
     *                       it is still within that leader's grace (one heartbeat timeout)
     * @param logEndPosition the end of its CommitLog in its last heartbeat; -1 when not heard from
     */
    public record ReplicaStatus(long brokerId, String address, boolean alive, long logEndPosition) {
    }
}
