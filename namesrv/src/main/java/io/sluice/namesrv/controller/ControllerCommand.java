package io.sluice.namesrv.controller;

import java.util.Set;

/**
 * A change to the {@link ReplicaTable}, proposed by the controller leader and applied by every controller in Raft
 * log order. Each carries everything its outcome depends on (no clocks, no local state), so every controller
 * reaches the same table. Encoded by {@link ControllerLogDescriptor}.
 */
sealed interface ControllerCommand {

    /** The group the command changes. */
    String brokerName();

    /**
     * A broker at {@code address} joins its group (or updates its HA address); the answer is its broker id.
     */
    record Register(String clusterName, String brokerName, String address, String haAddress)
            implements ControllerCommand {
    }

    /**
     * Makes {@code newMasterBrokerId} the master with the next epoch, when the group's epoch is still
     * {@code expectedMasterEpoch} (a stale election is refused); the in-sync set becomes the new master alone.
     */
    record Elect(String brokerName, int expectedMasterEpoch, long newMasterBrokerId) implements ControllerCommand {
    }

    /**
     * The master's new in-sync set; refused unless {@code masterBrokerId}, {@code masterEpoch} and
     * {@code syncStateSetEpoch} are the group's current ones and the set holds the master and registered replicas.
     */
    record AlterSyncStateSet(String brokerName, long masterBrokerId, int masterEpoch, int syncStateSetEpoch,
                             Set<Long> syncStateSet) implements ControllerCommand {
    }
}
