package io.sluice.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Average allocation as Apache's {@code AllocateMessageQueueAveragely} does it: every queue to exactly one member,
 * in contiguous runs, in member order, shares differing by at most one with the larger shares first.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllocationPropertyTest {

    @Property(tries = 500)
    void everyQueueGoesToExactlyOneMemberInContiguousRuns(@ForAll @IntRange(min = 0, max = 64) int queueCount,
                                                          @ForAll @IntRange(min = 1, max = 24) int memberCount) {
        List<Integer> queues = IntStream.range(0, queueCount).boxed().toList();
        List<String> members = members(memberCount);
        List<Integer> joined = new ArrayList<>();
        for (String member : members) {
            List<Integer> share = Allocation.averagely(queues, members, member);
            for (int i = 1; i < share.size(); i++) {
                assertEquals(share.get(i - 1) + 1, share.get(i), member + " has a contiguous run: " + share);
            }
            joined.addAll(share);
        }
        assertEquals(queues, joined, "the shares, in member order, are every queue once");
    }

    @Property(tries = 500)
    void theFirstQueuesModMembersGetOneMore(@ForAll @IntRange(min = 0, max = 64) int queueCount,
                                            @ForAll @IntRange(min = 1, max = 24) int memberCount) {
        List<Integer> queues = IntStream.range(0, queueCount).boxed().toList();
        List<String> members = members(memberCount);
        for (int i = 0; i < memberCount; i++) {
            int expected = queueCount / memberCount + (i < queueCount % memberCount ? 1 : 0);
            assertEquals(expected, Allocation.averagely(queues, members, members.get(i)).size(),
                    "member " + i + " of " + memberCount + " with " + queueCount + " queues");
        }
    }

    @Test
    void aClientThatIsNoMemberGetsNothing() {
        assertEquals(List.of(), Allocation.averagely(List.of(1, 2, 3), List.of("a", "b"), "c"));
    }

    @Test
    void fewerQueuesThanMembersLeavesTheLastMembersIdle() {
        List<String> members = members(5);
        List<String> queues = List.of("q0", "q1");
        assertEquals(List.of("q0"), Allocation.averagely(queues, members, members.get(0)));
        assertEquals(List.of("q1"), Allocation.averagely(queues, members, members.get(1)));
        for (int i = 2; i < 5; i++) {
            assertTrue(Allocation.averagely(queues, members, members.get(i)).isEmpty(), "member " + i);
        }
    }

    @Test
    void sharesAreCopiesTheCallerCannotChangeThroughTheQueueList() {
        List<Integer> queues = new ArrayList<>(List.of(0, 1, 2, 3));
        List<Integer> share = Allocation.averagely(queues, List.of("a", "b"), "b");
        queues.set(2, 99);
        assertEquals(List.of(2, 3), share);
    }

    private static List<String> members(int count) {
        return IntStream.range(0, count).mapToObj(i -> String.format("client-%03d", i)).toList();
    }
}
