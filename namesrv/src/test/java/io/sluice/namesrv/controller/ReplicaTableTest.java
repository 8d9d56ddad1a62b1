package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ReplicaTableTest {

    private final ReplicaTable table = new ReplicaTable();

    private ApplyResult register(String address) {
        return table.apply(new ControllerCommand.Register("c", "broker-a", address, address + "1"));
    }

    @Test
    void registrationAssignsStableIdsFromOne() {
        assertEquals(1, register("h:10").value());
        assertEquals(2, register("h:20").value());
        assertEquals(1, register("h:10").value(), "a known address keeps its id");
        assertEquals(2, table.group("broker-a").orElseThrow().replicas().size());
    }

    @Test
    void electionNeedsTheCurrentEpochAndAnInSyncReplica() {
        register("h:10");
        register("h:20");
        assertEquals(ApplyResult.ok(1), table.apply(new ControllerCommand.Elect("broker-a", 0, 1)));
        assertEquals(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH,
                table.apply(new ControllerCommand.Elect("broker-a", 0, 2)).code(), "stale epoch");
        assertEquals(ControllerWireDescriptor.CONTROLLER_ELECT_MASTER_FAILED,
                table.apply(new ControllerCommand.Elect("broker-a", 1, 2)).code(), "not in sync");
        assertEquals(ApplyResult.ok(2), table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", 1, 1, 1, Set.of(1L, 2L))));
        assertEquals(ApplyResult.ok(2), table.apply(new ControllerCommand.Elect("broker-a", 1, 2)));
        ReplicaGroup.GroupView group = table.group("broker-a").orElseThrow();
        assertEquals(2, group.masterBrokerId());
        assertEquals(2, group.masterEpoch());
        assertEquals(Set.of(2L), group.syncStateSet(), "the new master alone is in sync");
        assertEquals(3, group.syncStateSetEpoch());
    }

    @Test
    void staleOrInvalidInSyncSetsAreRefusedAndChangeNothing() {
        register("h:10");
        register("h:20");
        table.apply(new ControllerCommand.Elect("broker-a", 0, 1));
        assertEquals(ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH, table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", 2, 1, 1, Set.of(1L, 2L))).code());
        assertEquals(ControllerWireDescriptor.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", 1, 1, 0, Set.of(1L, 2L))).code());
        assertEquals(ControllerWireDescriptor.CONTROLLER_INVALID_REPLICAS, table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", 1, 1, 1, Set.of(2L))).code());
        assertEquals(ControllerWireDescriptor.CONTROLLER_INVALID_REPLICAS, table.apply(
                new ControllerCommand.AlterSyncStateSet("broker-a", 1, 1, 1, Set.of(1L, 9L))).code());
        assertEquals(Set.of(1L), table.group("broker-a").orElseThrow().syncStateSet());
    }

    @Test
    void commandsAndSnapshotsRoundTrip() {
        for (ControllerCommand command : new ControllerCommand[] {
                new ControllerCommand.Register("c", "b", "h:1", "h:2"), new ControllerCommand.Elect("b", 3, 2),
                new ControllerCommand.AlterSyncStateSet("b", 2, 4, 5, Set.of(2L, 3L))}) {
            assertEquals(command, ControllerLogDescriptor.decode(ControllerLogDescriptor.encode(command)));
        }
        register("h:10");
        register("h:20");
        table.apply(new ControllerCommand.Elect("broker-a", 0, 2));
        byte[] snapshot = table.snapshot();
        ReplicaTable copy = new ReplicaTable();
        copy.restore(snapshot);
        assertEquals(table.groups(), copy.groups());
        assertArrayEquals(snapshot, copy.snapshot());
        assertEquals(3, copy.apply(new ControllerCommand.Register("c", "broker-a", "h:30", "h:31")).value(),
                "the next id survives the snapshot");
    }

    @Test
    void garbageCommandsAndDamagedSnapshotsAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> ControllerLogDescriptor.decode("{\"type\":\"NOPE\"}".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class,
                () -> ControllerLogDescriptor.decode("not json".getBytes(StandardCharsets.UTF_8)));
        register("h:10");
        byte[] snapshot = table.snapshot();
        snapshot[snapshot.length - 3] ^= 1;
        IllegalArgumentException damaged = assertThrows(IllegalArgumentException.class,
                () -> new ReplicaTable().restore(snapshot));
        assertTrue(damaged.getMessage().contains("checksum"), damaged.getMessage());
    }
}
