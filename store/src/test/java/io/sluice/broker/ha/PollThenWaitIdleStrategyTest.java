package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.store.thread.WakeableIdleStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PollThenWaitIdleStrategyTest {

    private final AtomicInteger workChecks = new AtomicInteger();
    /** Stands for the wait on a quiet log: counts how often it is entered (it looks for work first). */
    private final WakeableIdleStrategy waiting = new WakeableIdleStrategy(NoOpIdleStrategy.INSTANCE, () -> {
        workChecks.incrementAndGet();
        return false;
    });

    @Test
    void whileTheLogGrowsItPollsWithoutAskingToBeWoken() {
        PollThenWaitIdleStrategy idle = new PollThenWaitIdleStrategy(waiting, TimeUnit.MICROSECONDS.toNanos(10),
                TimeUnit.MINUTES.toNanos(1));
        idle.idle(1);
        for (int i = 0; i < 5; i++) {
            idle.idle(0);
        }
        assertEquals(0, workChecks.get(), "it never waited");
        assertFalse(idle.needsWakeUp(), "appends need not wake a polling pusher");
    }

    @Test
    void onAQuietLogItWaitsToBeWoken() {
        PollThenWaitIdleStrategy idle = new PollThenWaitIdleStrategy(waiting, TimeUnit.MICROSECONDS.toNanos(10), 0);
        idle.idle(1);
        for (int i = 0; i < 5; i++) {
            idle.idle(0);
        }
        assertEquals(5, workChecks.get(), "every idle round waited (and looked for work first)");
    }
}
