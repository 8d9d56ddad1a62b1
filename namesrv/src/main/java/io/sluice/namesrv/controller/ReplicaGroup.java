package io.sluice.namesrv.controller;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One broker group's replicated state: its replicas (controller-assigned ids from 1, by address), the master's
 * id ({@link #NO_MASTER} until the first election) and epoch, the in-sync set and its epoch.
 *
 * <p>Not thread-safe: changed only by {@link ReplicaTable}, under its monitor.
 */
final class ReplicaGroup {

    /** masterBrokerId before the first election. */
    static final long NO_MASTER = -1;

    final String clusterName;
    final String brokerName;
    final TreeMap<Long, Replica> replicas = new TreeMap<>();
    long nextBrokerId = 1;
    long masterBrokerId = NO_MASTER;
    int masterEpoch;
    final TreeSet<Long> syncStateSet = new TreeSet<>();
    int syncStateSetEpoch;

    ReplicaGroup(String clusterName, String brokerName) {
        this.clusterName = clusterName;
        this.brokerName = brokerName;
    }

    /** The id of the replica at {@code address}, if registered. */
    Optional<Long> idOf(String address) {
        for (Map.Entry<Long, Replica> entry : replicas.entrySet()) {
            if (entry.getValue().address().equals(address)) {
                return Optional.of(entry.getKey());
            }
        }
        return Optional.empty();
    }

    /** An immutable copy, for readers outside the table's monitor. */
    GroupView view() {
        return new GroupView(clusterName, brokerName, Collections.unmodifiableMap(new TreeMap<>(replicas)),
                masterBrokerId, masterEpoch, Collections.unmodifiableSet(new TreeSet<>(syncStateSet)),
                syncStateSetEpoch);
    }

    /**
     * A registered replica.
     *
     * @param address   its client address, {@code host:port}
     * @param haAddress where it serves slaves when it is master, {@code host:port}
     */
    record Replica(String address, String haAddress) {
    }

    /** A consistent, immutable copy of a group. */
    record GroupView(String clusterName, String brokerName, Map<Long, Replica> replicas, long masterBrokerId,
                     int masterEpoch, Set<Long> syncStateSet, int syncStateSetEpoch) {

        /** The master replica, when there is one. */
        Optional<Replica> master() {
            return Optional.ofNullable(replicas.get(masterBrokerId));
        }
    }
}
