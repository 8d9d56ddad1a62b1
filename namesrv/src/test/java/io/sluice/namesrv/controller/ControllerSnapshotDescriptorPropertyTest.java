package io.sluice.namesrv.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A controller snapshot decodes to what was encoded, and damage is never half loaded: a changed byte of the JSON,
 * a truncation or a wrong header is refused; a changed header byte is refused or (a hex digit's case) harmless.
 */
class ControllerSnapshotDescriptorPropertyTest {

    @Property(tries = 200)
    void shouldDecodeWhatItEncodes(@ForAll("groups") List<ReplicaGroup> groups) {
        byte[] file = ControllerSnapshotDescriptor.encode(groups);
        List<ReplicaGroup> decoded = ControllerSnapshotDescriptor.decode(file);
        assertEquals(groups.size(), decoded.size());
        for (int i = 0; i < groups.size(); i++) {
            ReplicaGroup want = groups.get(i);
            ReplicaGroup got = decoded.get(i);
            assertEquals(want.clusterName, got.clusterName);
            assertEquals(want.brokerName, got.brokerName);
            assertEquals(want.replicas, got.replicas);
            assertEquals(want.syncStateSet, got.syncStateSet);
            assertEquals(List.of(want.nextBrokerId, want.masterBrokerId, (long) want.masterEpoch,
                    (long) want.syncStateSetEpoch), List.of(got.nextBrokerId, got.masterBrokerId,
                    (long) got.masterEpoch, (long) got.syncStateSetEpoch));
        }
        assertArrayEquals(file, ControllerSnapshotDescriptor.encode(decoded), "stable through a round trip");
    }

    @Property(tries = 300)
    void shouldRefuseAChangedByteOfTheJson(@ForAll("groups") List<ReplicaGroup> groups,
                                           @ForAll @IntRange(min = 0, max = 1 << 20) int where,
                                           @ForAll @IntRange(min = 1, max = 255) int mask) {
        byte[] file = ControllerSnapshotDescriptor.encode(groups);
        int bodyStart = headerLength(file);
        int at = bodyStart + where % (file.length - bodyStart);
        file[at] ^= (byte) mask;
        assertThrows(IllegalArgumentException.class, () -> ControllerSnapshotDescriptor.decode(file));
    }

    @Property(tries = 300)
    void shouldRefuseOrIgnoreAChangedHeaderByte(@ForAll("groups") List<ReplicaGroup> groups,
                                                @ForAll @IntRange(min = 0, max = 1 << 20) int where,
                                                @ForAll @IntRange(min = 1, max = 255) int mask) {
        byte[] file = ControllerSnapshotDescriptor.encode(groups);
        byte[] damaged = file.clone();
        damaged[where % headerLength(file)] ^= (byte) mask;
        List<ReplicaGroup> decoded;
        try {
            decoded = ControllerSnapshotDescriptor.decode(damaged);
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertArrayEquals(file, ControllerSnapshotDescriptor.encode(decoded), "accepted, so it must be the same");
    }

    @Property(tries = 100)
    void shouldRefuseATruncatedFile(@ForAll("groups") List<ReplicaGroup> groups,
                                    @ForAll @IntRange(min = 0, max = 1 << 20) int cut) {
        byte[] file = ControllerSnapshotDescriptor.encode(groups);
        byte[] truncated = Arrays.copyOf(file, cut % file.length);
        assertThrows(IllegalArgumentException.class, () -> ControllerSnapshotDescriptor.decode(truncated));
    }

    /** Bytes up to and including the header's newline. */
    private static int headerLength(byte[] file) {
        return new String(file, StandardCharsets.UTF_8).indexOf('\n') + 1;
    }

    @Provide
    Arbitrary<List<ReplicaGroup>> groups() {
        Arbitrary<String> names = Arbitraries.strings().withChars("abcXYZ09-_%é\"\\").ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> addresses = Arbitraries.integers().between(1, 65_535).map(port -> "127.0.0.1:" + port);
        Arbitrary<List<Long>> ids = Arbitraries.longs().between(0, 1_000).list().ofMaxSize(4);
        Arbitrary<ReplicaGroup> group = Combinators.combine(names, names, ids, addresses,
                Arbitraries.integers().between(0, 1_000), Arbitraries.longs().between(-1, 1_000)).as(
                        (cluster, broker, brokerIds, address, epoch, master) -> {
                    ReplicaGroup g = new ReplicaGroup(cluster, broker);
                    for (long id : brokerIds) {
                        g.replicas.put(id, new ReplicaGroup.Replica(address, address + "0"));
                        if (id % 2 == 0) {
                            g.syncStateSet.add(id);
                        }
                    }
                    g.nextBrokerId = brokerIds.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
                    g.masterBrokerId = master;
                    g.masterEpoch = epoch;
                    g.syncStateSetEpoch = epoch + 1;
                    return g;
                });
        return group.list().ofMaxSize(4).map(ArrayList::new);
    }
}
