package io.sluice.remoting.protocol.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The controller's replica-info and in-sync-set bodies read back as written, and a body from the network that is
 * not one is refused with an {@link IllegalArgumentException} (which the broker's controller client turns into a
 * failed heartbeat), never another exception.
 */
class ControllerWireDescriptorPropertyTest {

    @Property(tries = 300)
    void aReplicaInfoDecodesToWhatWasEncoded(@ForAll("infos") ReplicaInfo info) {
        ReplicaInfo decoded = ControllerWireDescriptor.decodeReplicaInfo(
                ControllerWireDescriptor.encodeReplicaInfo(info));
        assertEquals(info, decoded);
        assertEquals(info.isMaster(), decoded.isMaster());
    }

    @Property(tries = 200)
    void anInSyncSetDecodesToWhatWasEncoded(@ForAll("ids") Set<Long> syncStateSet) {
        assertEquals(syncStateSet, ControllerWireDescriptor.decodeSyncStateSet(
                ControllerWireDescriptor.encodeSyncStateSet(syncStateSet)));
    }

    @Property(tries = 300)
    void aDamagedReplicaInfoIsRefusedOrReadNeverThrownOtherwise(@ForAll("infos") ReplicaInfo info,
                                                                 @ForAll("cuts") Tuple.Tuple2<Double, Integer> cut) {
        String json = new String(ControllerWireDescriptor.encodeReplicaInfo(info), StandardCharsets.UTF_8);
        int at = (int) (cut.get1() * json.length());
        String damaged = cut.get2() == 0 ? json.substring(0, at) : json.substring(0, at) + json.substring(
                Math.min(json.length(), at + cut.get2()));
        byte[] body = damaged.getBytes(StandardCharsets.UTF_8);
        try {
            ControllerWireDescriptor.decodeReplicaInfo(body);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("not a replica info body"), e.getMessage());
        }
        try {
            ControllerWireDescriptor.decodeSyncStateSet(body);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("not an in-sync set body"), e.getMessage());
        }
    }

    @Example
    void bodiesThatAreNoReplicaInfoAreRefused() {
        for (String body : List.of("", "null", "{}", "{\"replicas\":[1]}", "{\"replicas\":[{}],\"masterEpoch\":\"x\"}",
                "{\"replicas\":[]}", "{\"replicas\"", "[1,2]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ControllerWireDescriptor.decodeReplicaInfo(body.getBytes(StandardCharsets.UTF_8)), body);
            assertTrue(e.getMessage().startsWith("not a replica info body"), body + " -> " + e.getMessage());
        }
        for (String body : List.of("{}", "{\"syncStateSet\":[\"one\"]}", "{\"syncStateSet\"", "null")) {
            assertThrows(IllegalArgumentException.class,
                    () -> ControllerWireDescriptor.decodeSyncStateSet(body.getBytes(StandardCharsets.UTF_8)), body);
        }
    }

    @Example
    void onlyTheNamedBrokerThatIsMasterIsTheMaster() {
        ReplicaInfo master = new ReplicaInfo(2, 2, "h:1", "h:2", 3, Set.of(2L), 4, List.of());
        ReplicaInfo slave = new ReplicaInfo(1, 2, "h:1", "h:2", 3, Set.of(2L), 4, List.of());
        ReplicaInfo anyone = new ReplicaInfo(-1, -1, "", "", 0, Set.of(), 0, List.of());
        assertTrue(master.isMaster());
        assertFalse(slave.isMaster());
        assertFalse(anyone.isMaster(), "no master and no asking broker is not a match");
        ReplicaInfo.ReplicaStatus status = new ReplicaInfo.ReplicaStatus(7, "h:7", true, 100);
        ReplicaInfo withReplica = new ReplicaInfo(7, 2, "h:1", "h:2", 3, Set.of(2L, 7L), 4, List.of(status));
        assertEquals(status, withReplica.replica(7).orElseThrow());
        assertTrue(withReplica.replica(8).isEmpty());
    }

    @Provide
    Arbitrary<Set<Long>> ids() {
        return Arbitraries.longs().between(-1, Long.MAX_VALUE).set().ofMaxSize(6);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<Double, Integer>> cuts() {
        return Combinators.combine(Arbitraries.doubles().between(0, 1), Arbitraries.integers().between(0, 3))
                .as(Tuple::of);
    }

    @Provide
    Arbitrary<ReplicaInfo> infos() {
        Arbitrary<String> addresses = Arbitraries.strings().withChars("ab19.:\"\\é[]{}").ofMaxLength(14);
        Arbitrary<Long> id = Arbitraries.longs().between(-1, 1_000);
        Arbitrary<Integer> epoch = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<ReplicaInfo.ReplicaStatus> status = Combinators.combine(id, addresses, Arbitraries.of(true, false),
                Arbitraries.longs().between(-1, Long.MAX_VALUE)).as(ReplicaInfo.ReplicaStatus::new);
        return Combinators.combine(id, id, addresses, addresses, epoch, ids(), epoch, status.list().ofMaxSize(4))
                .as(ReplicaInfo::new);
    }
}
