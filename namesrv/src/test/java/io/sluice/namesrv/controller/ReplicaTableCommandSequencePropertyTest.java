package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The controller's table under any sequence of commands (registrations, elections and in-sync changes, stale or
 * not): its invariants hold after every command, a refused command changes nothing, a successful one moves its
 * epoch by exactly one, and a second controller that applies the same log entries (or restores a snapshot taken
 * part way and applies the rest) ends with the same table.
 */
class ReplicaTableCommandSequencePropertyTest {

    private static final List<String> GROUPS = List.of("broker-a", "broker-b");

    @Property(tries = 300)
    void everyCommandKeepsTheInvariantsAndARefusalChangesNothing(@ForAll("commands") List<ControllerCommand> log) {
        ReplicaTable table = new ReplicaTable();
        for (ControllerCommand command : log) {
            byte[] before = table.snapshot();
            ReplicaGroup.GroupView old = table.group(command.brokerName()).orElse(null);
            ApplyResult result = table.apply(command);
            if (!result.isOk()) {
                assertArrayEquals(before, table.snapshot(), "refused " + command + ": " + result);
                assertTrue(result.value() == -1 && !result.remark().isBlank(), result.toString());
            } else {
                checkSuccess(command, old, table.group(command.brokerName()).orElseThrow(), result);
            }
            table.groups().forEach(ReplicaTableCommandSequencePropertyTest::checkInvariants);
        }
    }

    @Property(tries = 200)
    void aSecondControllerReplayingTheLogOrASnapshotAndTheRestEndsEqual(
            @ForAll("commands") List<ControllerCommand> log, @ForAll @IntRange(min = 0, max = 40) int cut) {
        ReplicaTable leader = new ReplicaTable();
        ReplicaTable follower = new ReplicaTable();
        int snapshotAt = Math.min(cut, log.size());
        byte[] snapshot = leader.snapshot();
        for (int i = 0; i < log.size(); i++) {
            if (i == snapshotAt) {
                snapshot = leader.snapshot();
            }
            ApplyResult atLeader = leader.apply(log.get(i));
            ApplyResult atFollower = follower.apply(ControllerLogDescriptor.decode(
                    ControllerLogDescriptor.encode(log.get(i))));
            assertEquals(atLeader, atFollower, "entry " + i + ": " + log.get(i));
        }
        if (snapshotAt == log.size()) {
            snapshot = leader.snapshot();
        }
        assertArrayEquals(leader.snapshot(), follower.snapshot());

        ReplicaTable restored = new ReplicaTable();
        restored.restore(snapshot);
        for (ControllerCommand command : log.subList(snapshotAt, log.size())) {
            restored.apply(command);
        }
        assertArrayEquals(leader.snapshot(), restored.snapshot(), "restored at entry " + snapshotAt);
    }

    private static void checkSuccess(ControllerCommand command, ReplicaGroup.GroupView old,
                                     ReplicaGroup.GroupView now, ApplyResult result) {
        if (command instanceof ControllerCommand.Register r) {
            assertEquals(r.address(), now.replicas().get(result.value()).address());
            assertEquals(r.haAddress(), now.replicas().get(result.value()).haAddress());
            if (old != null) {
                old.replicas().forEach((id, replica) -> {
                    if (!replica.address().equals(r.address())) {
                        assertEquals(replica, now.replicas().get(id), "another replica is untouched");
                    }
                });
            }
        } else if (command instanceof ControllerCommand.Elect e) {
            assertEquals(old.masterEpoch() + 1, now.masterEpoch());
            assertEquals(now.masterEpoch(), result.value());
            assertEquals(e.newMasterBrokerId(), now.masterBrokerId());
            assertEquals(Set.of(e.newMasterBrokerId()), now.syncStateSet());
            assertEquals(old.syncStateSetEpoch() + 1, now.syncStateSetEpoch());
            assertTrue(old.syncStateSet().isEmpty() || old.syncStateSet().contains(e.newMasterBrokerId()),
                    "only an in-sync replica is elected");
        } else {
            ControllerCommand.AlterSyncStateSet a = (ControllerCommand.AlterSyncStateSet) command;
            assertEquals(old.syncStateSetEpoch() + 1, now.syncStateSetEpoch());
            assertEquals(now.syncStateSetEpoch(), result.value());
            assertEquals(a.syncStateSet(), now.syncStateSet());
            assertEquals(old.masterEpoch(), now.masterEpoch(), "an in-sync change keeps the master's epoch");
        }
    }

    private static void checkInvariants(ReplicaGroup.GroupView group) {
        assertTrue(group.replicas().keySet().containsAll(group.syncStateSet()), group.toString());
        if (group.masterBrokerId() == ReplicaGroup.NO_MASTER) {
            assertEquals(0, group.masterEpoch(), group.toString());
            assertTrue(group.syncStateSet().isEmpty(), group.toString());
        } else {
            assertTrue(group.master().isPresent(), group.toString());
            assertTrue(group.syncStateSet().contains(group.masterBrokerId()), group.toString());
        }
        Set<String> addresses = new HashSet<>();
        group.replicas().forEach((id, replica) -> {
            assertTrue(id >= 1, group.toString());
            assertTrue(addresses.add(replica.address()), "one id per address: " + group);
        });
    }

    @Provide
    Arbitrary<List<ControllerCommand>> commands() {
        Arbitrary<String> group = Arbitraries.of(GROUPS);
        Arbitrary<String> address = Arbitraries.integers().between(1, 4).map(i -> "10.0.0." + i + ":10911");
        Arbitrary<Long> id = Arbitraries.longs().between(0, 5);
        Arbitrary<Integer> epoch = Arbitraries.integers().between(0, 4);
        Arbitrary<ControllerCommand> register = Combinators.combine(group, address,
                Arbitraries.integers().between(0, 2)).as((g, a, ha) -> new ControllerCommand.Register("c", g, a,
                a.replace(":10911", ":" + (10912 + ha))));
        Arbitrary<ControllerCommand> elect = Combinators.combine(group, epoch, id).as(ControllerCommand.Elect::new);
        Arbitrary<ControllerCommand> alter = Combinators.combine(group, id, epoch, epoch,
                id.set().ofMaxSize(4)).as(ControllerCommand.AlterSyncStateSet::new);
        return Arbitraries.frequencyOf(Tuple.of(4, register), Tuple.of(3, elect), Tuple.of(4, alter))
                .list().ofMaxSize(40);
    }
}
