package io.sluice.broker.ha;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What controller mode tells a broker's HA channel about its broker group ({@code FailoverBroker} implements it;
 * plain master/slave uses {@link #NONE}): this broker's epoch history, which the handshake compares; the in-sync
 * slaves a SYNC_MASTER's sends wait for; and, on a slave, what the master's answer to the handshake said.
 *
 * <p>Called from the HA threads and the send path: implementations are thread-safe.
 */
public interface ReplicaGroupView {

    /** Plain master/slave: no epochs, and a SYNC_MASTER's send waits for any one connected slave. */
    ReplicaGroupView NONE = new ReplicaGroupView() {
        @Override
        public List<EpochEntry> epochs() {
            return List.of();
        }

        @Override
        public boolean waitsForSlaves() {
            return true;
        }

        @Override
        public Optional<Set<Long>> inSyncSlaves() {
            return Optional.empty();
        }

        @Override
        public void onMasterEpochs(List<EpochEntry> masterEpochs) {
            // Without a controller there is no epoch history to keep.
        }

        @Override
        public void onDivergence(long position) {
            // The slave's channel fails with the reason, and the broker's operator sees it in the log.
        }
    };

    /** This broker's epoch history, oldest first; empty when it keeps none (then the handshake compares nothing). */
    List<EpochEntry> epochs();

    /** Whether a SYNC_MASTER's stored send waits for slaves at all (controller mode: the in-sync set has slaves). */
    boolean waitsForSlaves();

    /**
     * The broker ids of the slaves every send must wait for (the in-sync set without this master), or empty when
     * any one connected slave's acknowledgement is enough (plain master/slave).
     */
    Optional<Set<Long>> inSyncSlaves();

    /**
     * A slave's handshake agreed: it follows a master with {@code masterEpochs}, recorded before anything is copied.
     *
     * @throws IOException when the history cannot be recorded (the channel is closed and tried again)
     */
    void onMasterEpochs(List<EpochEntry> masterEpochs) throws IOException;

    /** A slave's handshake found a divergent tail: its log must end at {@code position} before it can follow. */
    void onDivergence(long position);
}
