package io.sluice.broker.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.agrona.concurrent.CachedEpochClock;

/**
 * Orderly consumers' queue locks against a plain model under any sequence of lock, unlock, passing time and purge
 * from several clients of two groups: a queue is granted only when free, expired or already the caller's, each
 * batch answers exactly the queues the caller then holds, and at no time do two clients hold one queue.
 */
class QueueLocksModelPropertyTest {

    private static final long LIVE_MS = 1_000;
    private static final List<String> GROUPS = List.of("g1", "g2");
    private static final List<MessageQueue> QUEUES = List.of(new MessageQueue("T", "b", 0),
            new MessageQueue("T", "b", 1), new MessageQueue("T", "b", 2), new MessageQueue("U", "b", 0));

    /** One step. */
    sealed interface Op {
    }

    record Lock(String group, String client, List<MessageQueue> queues) implements Op {
    }

    record Unlock(String group, String client, List<MessageQueue> queues) implements Op {
    }

    record Advance(long ms) implements Op {
    }

    record Purge() implements Op {
    }

    /** A lock the model holds: who and when last granted. */
    private record Held(String client, long lastMs) {
        boolean live(long nowMs) {
            return nowMs - lastMs <= LIVE_MS;
        }
    }

    @Property(tries = 300)
    void locksAgreeWithTheModelAndNeverHaveTwoHolders(@ForAll("ops") List<Op> ops) {
        CachedEpochClock clock = new CachedEpochClock();
        clock.update(10_000);
        QueueLocks locks = new QueueLocks(LIVE_MS, clock);
        Map<String, Map<MessageQueue, Held>> model = new HashMap<>();
        for (Op op : ops) {
            long now = clock.time();
            if (op instanceof Lock l) {
                Map<MessageQueue, Held> table = model.computeIfAbsent(l.group(), g -> new HashMap<>());
                Set<MessageQueue> expected = new LinkedHashSet<>();
                for (MessageQueue queue : l.queues()) {
                    Held held = table.get(queue);
                    if (held == null || held.client().equals(l.client()) || !held.live(now)) {
                        table.put(queue, new Held(l.client(), now));
                        expected.add(queue);
                    }
                }
                assertEquals(List.copyOf(expected), List.copyOf(locks.tryLock(l.group(), l.client(), l.queues())),
                        op.toString());
            } else if (op instanceof Unlock u) {
                Map<MessageQueue, Held> table = model.getOrDefault(u.group(), new HashMap<>());
                u.queues().forEach(q -> table.computeIfPresent(q, (k, h) -> h.client().equals(u.client()) ? null : h));
                locks.unlock(u.group(), u.client(), u.queues());
            } else if (op instanceof Advance a) {
                clock.advance(a.ms());
            } else {
                int expired = 0;
                for (Map<MessageQueue, Held> table : model.values()) {
                    int before = table.size();
                    table.values().removeIf(h -> !h.live(now));
                    expired += before - table.size();
                }
                assertEquals(expired, locks.purgeExpired(), "locks purged");
            }
            check(locks, model, clock.time(), op);
        }
    }

    private static void check(QueueLocks locks, Map<String, Map<MessageQueue, Held>> model, long now, Op op) {
        for (String group : GROUPS) {
            Map<MessageQueue, Held> table = model.getOrDefault(group, Map.of());
            boolean anyLive = false;
            for (MessageQueue queue : QUEUES) {
                Held held = table.get(queue);
                Optional<String> expected = held != null && held.live(now) ? Optional.of(held.client())
                        : Optional.empty();
                anyLive |= expected.isPresent();
                assertEquals(expected, locks.holder(group, queue), group + " " + queue + " after " + op);
            }
            assertEquals(anyLive, locks.hasLiveLock(group), group + " after " + op);
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> group = Arbitraries.of(GROUPS);
        Arbitrary<String> client = Arbitraries.of("c1", "c2", "c3");
        Arbitrary<List<MessageQueue>> queues = Arbitraries.of(QUEUES).set().ofMaxSize(QUEUES.size())
                .map(ArrayList::new);
        Arbitrary<Op> lock = Combinators.combine(group, client, queues).as(Lock::new);
        Arbitrary<Op> unlock = Combinators.combine(group, client, queues).as(Unlock::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(1, 700).map(Advance::new);
        Arbitrary<Op> purge = Arbitraries.just(new Purge());
        return Arbitraries.frequencyOf(Tuple.of(5, lock), Tuple.of(2, unlock), Tuple.of(3, advance),
                Tuple.of(1, purge)).list().ofMaxSize(40);
    }
}
