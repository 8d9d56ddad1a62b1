package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.protocol.controller.ReplicaInfo.ReplicaStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The master's in-sync set: itself always, a live slave while it caught up with the master's end within the
 * window, judged by what its HA links acknowledged against the master's ends sampled over time; the end a slave
 * reports to the controller does not count.
 */
@Timeout(10)
class SyncStateTrackerTest {

    private static final long SELF = 1;
    private static final long WINDOW_MS = 1_000;

    private final SyncStateTracker tracker = new SyncStateTracker(SELF, WINDOW_MS);

    @Test
    void theMasterIsInSyncAloneWithoutSlaves() {
        assertEquals(Set.of(SELF), update(0, 500, List.of()));
    }

    @Test
    void aSlaveAtTheMastersEndIsInSyncAndADeadOneIsNot() {
        Set<Long> inSync = update(0, 500, List.of(slave(2, true, 500), slave(3, false, 500)));
        assertEquals(Set.of(SELF, 2L), inSync);
    }

    @Test
    void theMastersOwnEntryInTheReplicasIsNotJudged() {
        assertEquals(Set.of(SELF), update(0, 500, List.of(slave(SELF, false, 0))));
    }

    @Test
    void aSlaveReportingAnOlderEndCaughtUpWhenTheMasterWasThere() {
        update(0, 100, List.of(slave(2, true, 100)));
        // The master moved to 200; the slave's report (100) is a heartbeat old: it caught up at time 0.
        assertEquals(Set.of(SELF, 2L), update(600, 200, List.of(slave(2, true, 100))));
        assertEquals(Set.of(SELF, 2L), update(WINDOW_MS, 250, List.of(slave(2, true, 100))),
                "still within the window of its last catch-up");
        assertEquals(Set.of(SELF), update(WINDOW_MS + 1, 250, List.of(slave(2, true, 100))),
                "behind for longer than the window");
    }

    @Test
    void aSlaveThatNeverReachedASampledEndIsNeverInSync() {
        update(0, 100, List.of());
        assertEquals(Set.of(SELF), update(10, 200, List.of(slave(2, true, 99))));
    }

    @Test
    void aLaggingSlaveComesBackWhenItReachesASampledEnd() {
        update(0, 100, List.of(slave(2, true, 100)));
        assertEquals(Set.of(SELF), update(2_000, 300, List.of(slave(2, true, 150))));
        // Reaching 300 (the end sampled at 2,000 ms) counts as caught up at 2,000 ms.
        assertEquals(Set.of(SELF, 2L), update(2_500, 400, List.of(slave(2, true, 300))));
        assertEquals(Set.of(SELF, 2L), update(3_000, 400, List.of(slave(2, true, 300))),
                "1,000 ms after its catch-up at 2,000 ms");
        assertEquals(Set.of(SELF), update(3_001, 400, List.of(slave(2, true, 300))));
    }

    @Test
    void samplesOlderThanTheWindowNoLongerCount() {
        update(0, 100, List.of());
        update(500, 200, List.of());
        // At 1,600 the samples of 0 and 500 ms are out of the window: a slave at 150 or 200 reached no kept one.
        assertEquals(Set.of(SELF), update(1_600, 300, List.of(slave(2, true, 150))));
        assertEquals(Set.of(SELF), update(1_600, 300, List.of(slave(3, true, 200))));
        assertEquals(Set.of(SELF, 4L), update(1_600, 300, List.of(slave(4, true, 300))));
    }

    @Test
    void aCatchUpIsNeverMovedBackByAnOlderReport() {
        update(0, 100, List.of(slave(2, true, 100)));
        update(900, 200, List.of(slave(2, true, 200)));
        // The report goes back to 100 (the time-0 sample is still in the window): the catch-up at 900 ms holds.
        assertEquals(Set.of(SELF, 2L), update(1_000, 200, List.of(slave(2, true, 100))));
        assertEquals(Set.of(SELF, 2L), update(1_900, 200, List.of(slave(2, true, 100))));
    }

    @Test
    void aSlaveDeadForAMomentIsJudgedAgainWhenAlive() {
        update(0, 100, List.of(slave(2, true, 100)));
        assertEquals(Set.of(SELF), update(100, 100, List.of(slave(2, false, 100))));
        assertEquals(Set.of(SELF, 2L), update(200, 100, List.of(slave(2, true, 100))));
    }

    @Test
    void theAckRuleNeedsOneSlaveAtLeastAndBoundsItsCount() {
        assertEquals(1, new SlaveAckRule(1, false).slaveAcks(), "a SYNC_MASTER always waits for a slave");
        assertEquals(1, new SlaveAckRule(2, false).slaveAcks());
        assertEquals(4, new SlaveAckRule(5, true).slaveAcks());
        assertEquals(63, new SlaveAckRule(SlaveAckRule.MAX_REPLICAS, false).slaveAcks());
        assertThrows(IllegalArgumentException.class, () -> new SlaveAckRule(0, false));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlaveAckRule(65, false));
        assertEquals("inSyncReplicas 65 must be within 1..64", e.getMessage());
    }

    @Test
    void aSlaveIsJudgedByWhatItsLinksAcknowledgedNotByTheEndItReports() {
        // Slave 2 reports the master's end to the controller, but no link of it acknowledged anything.
        assertEquals(Set.of(SELF), tracker.update(0, 500, info(slave(2, true, 500)), Map.of()));
        assertEquals(Set.of(SELF), tracker.update(10, 500, info(slave(2, true, 500)), Map.of(2L, 400L)));
        assertEquals(Set.of(SELF, 2L), tracker.update(20, 500, info(slave(2, true, 0)), Map.of(2L, 500L)));
    }

    @Test
    void anOldMasterWhoseLogRunsPastTheMastersIsNotInSyncBeforeItsLinkAcknowledges() {
        // The new master took over at 100; the old one comes back reporting 150, a tail the new master lacks.
        tracker.update(0, 100, info(), Map.of());
        assertEquals(Set.of(SELF), tracker.update(1_000, 100, info(slave(2, true, 150)), Map.of()));
        // Cut back to 100 and following, its link acknowledges the master's end.
        assertEquals(Set.of(SELF, 2L), tracker.update(1_500, 100, info(slave(2, true, 100)), Map.of(2L, 100L)));
    }

    @Test
    void theAcknowledgementsOfADeadSlaveDoNotCount() {
        assertEquals(Set.of(SELF), tracker.update(0, 100, info(slave(2, false, 100)), Map.of(2L, 100L)));
    }

    /** Updates the tracker with {@code replicas}, each of whose links acknowledged the end it reports. */
    private Set<Long> update(long nowMs, long masterEnd, List<ReplicaStatus> replicas) {
        Map<Long, Long> acks = new HashMap<>();
        replicas.forEach(replica -> acks.put(replica.brokerId(), replica.logEndPosition()));
        return tracker.update(nowMs, masterEnd, info(replicas.toArray(ReplicaStatus[]::new)), acks);
    }

    private static ReplicaInfo info(ReplicaStatus... replicas) {
        return new ReplicaInfo(SELF, SELF, "127.0.0.1:10911", "127.0.0.1:10912", 1, Set.of(SELF), 1,
                List.of(replicas));
    }

    private static ReplicaStatus slave(long id, boolean alive, long logEndPosition) {
        return new ReplicaStatus(id, "127.0.0.1:" + (20_000 + id), alive, logEndPosition);
    }
}
