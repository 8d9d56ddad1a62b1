package io.sluice.client.internal;

import java.util.List;

/** Average queue allocation among the members of a consumer group (docs/wire-protocol.md#rebalance). Stateless. */
public final class Allocation {

    private Allocation() {
    }

    /**
     * The contiguous share of {@code queues} that member {@code me} of {@code members} consumes: with {@code n}
     * queues and {@code c} members, the first {@code n mod c} members get one queue more than the others.
     *
     * @param queues every queue, sorted
     * @param members every member's client id, sorted
     * @param me this member's client id
     * @return this member's queues; empty when it is not among the members
     */
    public static <T> List<T> averagely(List<T> queues, List<String> members, String me) {
        int index = members.indexOf(me);
        if (index < 0 || queues.isEmpty()) {
            return List.of();
        }
        int n = queues.size();
        int c = members.size();
        int mod = n % c;
        int size = n <= c ? 1 : (mod > 0 && index < mod ? n / c + 1 : n / c);
        int start = mod > 0 && index < mod ? index * size : index * size + mod;
        if (start >= n) {
            return List.of();
        }
        return List.copyOf(queues.subList(start, start + Math.min(size, n - start)));
    }
}
