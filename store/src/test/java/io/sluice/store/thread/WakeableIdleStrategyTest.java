package io.sluice.store.thread;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WakeableIdleStrategyTest {

    @Test
    void shouldNotParkWhenTheRecheckFindsWork() {
        AtomicLong published = new AtomicLong(1);
        WakeableIdleStrategy idle = new WakeableIdleStrategy(new SleepingIdleStrategy(TimeUnit.SECONDS.toNanos(30)),
                () -> published.get() > 0);
        long startNs = System.nanoTime();
        idle.idle(0);
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(10), "no park with work pending");
        assertFalse(idle.needsWakeUp(), "not idling after idle() returned");
    }

    /** Work handed over by another thread is taken within one short round: no signal is lost between them. */
    @Test
    void shouldNeverLoseAWakeUp() {
        AtomicLong produced = new AtomicLong();
        AtomicLong consumed = new AtomicLong();
        // A park far longer than the test: a lost signal would stall it until the timeout.
        WakeableIdleStrategy idle = new WakeableIdleStrategy(new SleepingIdleStrategy(TimeUnit.SECONDS.toNanos(60)),
                () -> produced.get() > consumed.get());
        AgentHost consumer = new AgentHost(new LoopAgent("test-consumer", () -> {
            long p = produced.get();
            int work = (int) (p - consumed.get());
            consumed.set(p);
            return work;
        }), idle);
        try (consumer) {
            consumer.start();
            for (int i = 1; i <= 300; i++) {
                produced.set(i);
                if (idle.needsWakeUp()) {
                    consumer.wakeUp();
                }
                long target = i;
                Await.until("item " + i + " consumed", () -> consumed.get() == target);
            }
        }
    }
}
