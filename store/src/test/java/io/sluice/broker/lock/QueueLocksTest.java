package io.sluice.broker.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QueueLocksTest {

    private static final MessageQueue Q0 = new MessageQueue("T", "broker-a", 0);
    private static final MessageQueue Q1 = new MessageQueue("T", "broker-a", 1);

    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final QueueLocks locks = new QueueLocks(60_000, nowMs::get);

    @Test
    void shouldGrantFreeQueuesAndRefuseQueuesHeldByAnotherClient() {
        assertEquals(Set.of(Q0, Q1), locks.tryLock("g", "c1", List.of(Q0, Q1)));
        assertEquals(Set.of(), locks.tryLock("g", "c2", List.of(Q0, Q1)));
        assertEquals(Optional.of("c1"), locks.holder("g", Q0));
        assertEquals(Set.of(Q0), locks.tryLock("other-group", "c2", List.of(Q0)), "locks are per group");
    }

    @Test
    void shouldRenewOwnLocksAndFreeExpiredOnes() {
        locks.tryLock("g", "c1", List.of(Q0, Q1));
        nowMs.addAndGet(50_000);
        assertEquals(Set.of(Q0), locks.tryLock("g", "c1", List.of(Q0)), "renewal");
        nowMs.addAndGet(10_001);
        assertEquals(Set.of(Q1), locks.tryLock("g", "c2", List.of(Q0, Q1)),
                "Q1 expired 60 s after its grant; Q0 was renewed 10 s ago");
        assertEquals(Optional.of("c2"), locks.holder("g", Q1));
        assertEquals(Optional.of("c1"), locks.holder("g", Q0));
    }

    @Test
    void shouldUnlockOnlyTheCallersQueues() {
        locks.tryLock("g", "c1", List.of(Q0));
        locks.tryLock("g", "c2", List.of(Q1));
        locks.unlock("g", "c1", List.of(Q0, Q1));
        assertEquals(Optional.empty(), locks.holder("g", Q0));
        assertEquals(Optional.of("c2"), locks.holder("g", Q1));
        locks.unlock("unknown", "c1", List.of(Q0));
        assertEquals(Set.of(Q0), locks.tryLock("g", "c3", List.of(Q0)));
    }

    @Test
    void shouldReportLiveLocksAndPurgeExpiredOnes() {
        assertFalse(locks.hasLiveLock("g"));
        locks.tryLock("g", "c1", List.of(Q0));
        assertTrue(locks.hasLiveLock("g"));
        nowMs.addAndGet(60_001);
        assertFalse(locks.hasLiveLock("g"));
        assertEquals(Optional.empty(), locks.holder("g", Q0));
        assertEquals(1, locks.purgeExpired());
        assertEquals(0, locks.purgeExpired());
    }

    @Test
    void shouldRefuseANonPositiveLifetime() {
        assertThrows(IllegalArgumentException.class, () -> new QueueLocks(0, nowMs::get));
    }
}
