package io.sluice.broker.ha;

/**
 * Which slaves a SYNC_MASTER's stored send waits for, from Apache's keys. Immutable, validated.
 *
 * @param inSyncReplicas       replicas, the master included, that must have a send ({@code inSyncReplicas});
 *                             at least one slave always: a SYNC_MASTER that waited for none would be an
 *                             ASYNC_MASTER (Apache 5 answers at once with 1; Sluice keeps the 4.x meaning)
 * @param allAckInSyncStateSet in controller mode, wait for every slave of the in-sync set instead
 *                             ({@code allAckInSyncStateSet}): the controller may elect any of them
 */
public record SlaveAckRule(int inSyncReplicas, boolean allAckInSyncStateSet) {

    /** Most replicas a group may count. */
    static final int MAX_REPLICAS = 64;

    /** Validates; the exception names the bad value. */
    public SlaveAckRule {
        if (inSyncReplicas < 1 || inSyncReplicas > MAX_REPLICAS) {
            throw new IllegalArgumentException("inSyncReplicas " + inSyncReplicas + " must be within 1.."
                    + MAX_REPLICAS);
        }
    }

    /** Distinct slaves whose acknowledgement a send needs, outside the all-in-sync rule. */
    int slaveAcks() {
        return Math.max(1, inSyncReplicas - 1);
    }
}
