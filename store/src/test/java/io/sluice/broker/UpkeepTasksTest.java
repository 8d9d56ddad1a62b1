package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.lock.QueueLocks;
import io.sluice.broker.stats.BrokerStats;
import java.time.ZoneOffset;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class UpkeepTasksTest {

    @Test
    void shouldScheduleTheSampleAndThePurgeAndCancelBothAtClose() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        scheduler.setRemoveOnCancelPolicy(true);
        try {
            CachedEpochClock clock = new CachedEpochClock();
            UpkeepTasks upkeep = UpkeepTasks.start(scheduler, new BrokerStats(() -> 0, clock, ZoneOffset.UTC),
                    new QueueLocks(QueueLocks.DEFAULT_LOCK_MAX_LIVE_MS, clock));
            assertEquals(2, scheduler.getQueue().size(), "the sample and the purge");
            upkeep.close();
            assertTrue(scheduler.getQueue().isEmpty(), "both cancelled: " + scheduler.getQueue());
            upkeep.close(); // idempotent
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void shouldKeepATaskThatThrowsFromEndingItsSchedule() {
        AtomicInteger runs = new AtomicInteger();
        Runnable failing = () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("injected");
        };
        UpkeepTasks.guarded("failing task", failing);
        UpkeepTasks.guarded("failing task", failing);
        assertEquals(2, runs.get(), "ran each time and nothing thrown");
    }
}
