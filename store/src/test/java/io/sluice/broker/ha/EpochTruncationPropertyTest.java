package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Where a slave's log must end to follow a master, from the two epoch histories: the end of the latest epoch both
 * share (same number, same start), as far as both logs reach; 0 when they share none. Histories here share a prefix
 * and then diverge (the slave's later epochs odd, the master's even), as after a failover.
 */
class EpochTruncationPropertyTest {

    @Property(tries = 500)
    void theSlaveFollowsFromTheEndOfTheLatestSharedEpoch(
            @ForAll @Size(max = 5) List<@IntRange(min = 1, max = 1_000) Integer> sharedLengths,
            @ForAll @Size(max = 3) List<@IntRange(min = 1, max = 1_000) Integer> slaveLengths,
            @ForAll @Size(max = 3) List<@IntRange(min = 1, max = 1_000) Integer> masterLengths,
            @ForAll @IntRange(min = 0, max = 1_000) int slaveTail,
            @ForAll @IntRange(min = 0, max = 1_000) int masterTail) {
        List<EpochEntry> shared = new ArrayList<>();
        long position = 0;
        int epoch = 0;
        for (int length : sharedLengths) {
            epoch += 2;
            shared.add(new EpochEntry(epoch, position));
            position += length;
        }
        long sharedEnd = position;
        List<EpochEntry> slave = new ArrayList<>(shared);
        long slaveEnd = diverge(slave, epoch + 1, sharedEnd, slaveLengths) + slaveTail;
        List<EpochEntry> master = new ArrayList<>(shared);
        long masterEnd = diverge(master, epoch + 2, sharedEnd, masterLengths) + masterTail;

        long expected;
        if (shared.isEmpty()) {
            expected = 0;
        } else {
            long slaveEpochEnd = slave.size() > shared.size() ? slave.get(shared.size()).startPosition() : slaveEnd;
            long masterEpochEnd = master.size() > shared.size() ? master.get(shared.size()).startPosition()
                    : masterEnd;
            expected = Math.min(slaveEpochEnd, masterEpochEnd);
        }
        long point = EpochFile.truncationPoint(slave, slaveEnd, master, masterEnd);
        assertEquals(expected, point);
        assertEquals(point, EpochFile.truncationPoint(master, masterEnd, slave, slaveEnd), "the rule is symmetric");
        assertTrue(point <= slaveEnd && point <= masterEnd, "never beyond either log");
        if (!shared.isEmpty()) {
            assertTrue(point >= shared.get(shared.size() - 1).startPosition(),
                    "nothing of an earlier shared epoch is cut");
        }
    }

    @Property(tries = 200)
    void identicalHistoriesFollowFromTheShorterLog(
            @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 1, max = 1_000) Integer> lengths,
            @ForAll @IntRange(min = 0, max = 1_000) int slaveTail,
            @ForAll @IntRange(min = 0, max = 1_000) int masterTail) {
        List<EpochEntry> history = new ArrayList<>();
        long position = 0;
        for (int i = 0; i < lengths.size(); i++) {
            history.add(new EpochEntry(i + 1, position));
            position += lengths.get(i);
        }
        long slaveEnd = position + slaveTail;
        long masterEnd = position + masterTail;
        assertEquals(Math.min(slaveEnd, masterEnd), EpochFile.truncationPoint(history, slaveEnd, history,
                masterEnd));
    }

    /** Appends epochs {@code first, first + 2, ...} of the given lengths from {@code start}; returns the end. */
    private static long diverge(List<EpochEntry> history, int first, long start, List<Integer> lengths) {
        long position = start;
        int epoch = first;
        for (int length : lengths) {
            history.add(new EpochEntry(epoch, position));
            position += length;
            epoch += 2;
        }
        return position;
    }
}
