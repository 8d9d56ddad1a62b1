package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The leader's election scan and heartbeat answers across a change of controller leader, on a clock the test
 * moves and a Raft member that applies every proposal at once. Broker group {@code broker-a}: master 1 at epoch 1,
 * in-sync set [1, 2], heartbeat timeout 3 s (also the new leader's grace).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ElectionAgentTest {

    private static final long TIMEOUT_MS = 3_000;
    private static final long MASTER = 1;
    private static final long SLAVE = 2;

    private final AtomicLong nowMs = new AtomicLong();
    private final ReplicaTable table = new ReplicaTable();
    private final BrokerLeases leases = new BrokerLeases(TIMEOUT_MS);
    private final Member member = new Member();
    private final ControllerHandler handler = new ControllerHandler(member, table, leases, nowMs::get);
    private final ElectionAgent agent = new ElectionAgent(member, table, leases, nowMs::get, 1_000);

    ElectionAgentTest() {
        table.apply(new ControllerCommand.Register("c", "broker-a", address(MASTER), haAddress(MASTER)));
        table.apply(new ControllerCommand.Register("c", "broker-a", address(SLAVE), haAddress(SLAVE)));
        table.apply(new ControllerCommand.Elect("broker-a", 0, MASTER));
    }

    private void inSyncSetOfBoth() {
        assertEquals(ApplyResult.ok(2), table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", MASTER, 1, 1, Set.of(MASTER, SLAVE))));
    }

    @Test
    void aNewLeaderAnswersTheMastersFirstHeartbeatWithItsUnheardInSyncSlaveAlive() {
        inSyncSetOfBoth();
        member.term = OptionalLong.of(3);
        nowMs.set(10_000);
        // The master's heartbeat reaches the new leader before its election scan and before the slave's heartbeat:
        // a slave reported dead here is one the master drops from the in-sync set, leaving none to elect.
        ReplicaInfo info = heartbeat(MASTER, 500);
        assertTrue(info.isMaster());
        assertTrue(info.replica(SLAVE).orElseThrow().alive(), "unheard, but within the new leader's grace: " + info);
        assertEquals(-1, info.replica(SLAVE).orElseThrow().logEndPosition());

        nowMs.set(10_000 + TIMEOUT_MS + 1);
        assertFalse(heartbeat(MASTER, 600).replica(SLAVE).orElseThrow().alive(), "still unheard after the grace");
    }

    @Test
    void theInSyncSlaveIsElectedWhenTheMasterDiesJustAfterTheControllerLeaderChanged() {
        inSyncSetOfBoth();
        member.term = OptionalLong.of(3);
        nowMs.set(300);
        heartbeat(MASTER, 500); // its last one: it is killed now
        for (long t = 1_000; t <= 4_000; t += 1_000) {
            nowMs.set(t);
            heartbeat(SLAVE, 500);
            nowMs.set(t + 200);
            agent.scanOnce();
        }
        ReplicaGroup.GroupView group = table.group("broker-a").orElseThrow();
        assertEquals(SLAVE, group.masterBrokerId(), "elected once the master's lease ran out at 3300: " + group);
        assertEquals(2, group.masterEpoch());
        assertEquals(1, agent.elections());
        assertEquals(0, agent.stalls());
    }

    @Test
    void heartbeatsAnsweredBeforeTheFirstScanOfATermCountForThatTerm() {
        member.term = OptionalLong.of(3);
        nowMs.set(100);
        heartbeat(SLAVE, 700);
        nowMs.set(900);
        agent.scanOnce(); // the agent learns it leads only now
        assertTrue(leases.isHeard("broker-a", SLAVE, 900));
        assertEquals(700L, leases.logEndPosition("broker-a", SLAVE).orElseThrow());
    }

    @Test
    void leadingAgainAfterAnotherControllerLedForgetsWhatTheEarlierTermHeard() {
        member.term = OptionalLong.of(3);
        heartbeat(SLAVE, 700);
        member.term = OptionalLong.empty();
        nowMs.set(5_000);
        agent.scanOnce();
        member.term = OptionalLong.of(7);
        nowMs.set(20_000);
        ReplicaInfo info = heartbeat(MASTER, 900);
        assertEquals(-1, info.replica(SLAVE).orElseThrow().logEndPosition(), "term 3's heartbeat is forgotten");
        assertTrue(info.replica(SLAVE).orElseThrow().alive(), "and term 7's grace has begun");
    }

    @Test
    void anOverdueMasterWithNoInSyncReplicaToElectIsNotedOncePerChangeAndNotReplaced() {
        // The in-sync set is the master alone: the slave is heard from but may not have every acknowledged message.
        member.term = OptionalLong.of(3);
        heartbeat(MASTER, 900);
        for (long t = 1_000; t <= 6_000; t += 1_000) {
            nowMs.set(t);
            heartbeat(SLAVE, 500);
            agent.scanOnce();
        }
        assertEquals(MASTER, table.group("broker-a").orElseThrow().masterBrokerId());
        assertEquals(0, agent.elections());
        assertEquals(1, agent.stalls(), "noted once, not at every scan");

        nowMs.set(6_500);
        heartbeat(MASTER, 900); // it returns
        agent.scanOnce();
        nowMs.set(10_000);
        heartbeat(SLAVE, 500);
        agent.scanOnce(); // and is overdue again
        assertEquals(2, agent.stalls());
        assertEquals(0, agent.elections());
    }

    @Test
    void aFollowerNeitherAnswersNorElects() {
        inSyncSetOfBoth();
        RemotingCommand response = handler.onHeartbeat(null, heartbeatRequest(SLAVE, 1)).join();
        assertEquals(ControllerWireDescriptor.CONTROLLER_NOT_LEADER, response.code());
        nowMs.set(60_000);
        agent.scanOnce();
        assertEquals(MASTER, table.group("broker-a").orElseThrow().masterBrokerId());
    }

    private ReplicaInfo heartbeat(long brokerId, long logEndPosition) {
        RemotingCommand response = handler.onHeartbeat(null, heartbeatRequest(brokerId, logEndPosition)).join();
        assertEquals(ResponseCode.SUCCESS, response.code(), response.remark());
        return ControllerWireDescriptor.decodeReplicaInfo(response.body());
    }

    private static RemotingCommand heartbeatRequest(long brokerId, long logEndPosition) {
        return RemotingCommand.request(ControllerWireDescriptor.BROKER_HEARTBEAT)
                .putExtField(ControllerWireDescriptor.CLUSTER_NAME, "c")
                .putExtField(ControllerWireDescriptor.BROKER_NAME, "broker-a")
                .putExtField(ControllerWireDescriptor.BROKER_ADDR, address(brokerId))
                .putExtField(ControllerWireDescriptor.HA_SERVER_ADDR, haAddress(brokerId))
                .putExtField(ControllerWireDescriptor.LOG_END_POSITION, logEndPosition)
                .putExtField(ControllerWireDescriptor.HEARTBEAT_TIMEOUT_MILLIS, TIMEOUT_MS);
    }

    private static String address(long brokerId) {
        return "h:" + (10 * brokerId);
    }

    private static String haAddress(long brokerId) {
        return "h:" + (10 * brokerId + 1);
    }

    /** Leads {@link #term} (empty: a follower) and applies each proposal to the table at once. */
    private final class Member implements RaftMember {
        private OptionalLong term = OptionalLong.empty();

        @Override
        public OptionalLong leaderTerm() {
            return term;
        }

        @Override
        public CompletableFuture<ApplyResult> propose(ControllerCommand command) {
            return CompletableFuture.completedFuture(table.apply(command));
        }
    }
}
