package io.sluice.broker;

import io.sluice.broker.lock.QueueLocks;
import io.sluice.broker.stats.BrokerStats;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's periodic upkeep of in-memory state, on its scheduler: the once-a-second sample behind the put and
 * get rates, and the purge of queue locks whose holders stopped renewing them. A failed run is logged and the
 * next one runs on time: a skipped sample or purge only delays figures or frees a lock later.
 *
 * <p>Thread-safe: started and closed by the broker's start and close; the tasks run on the scheduler's thread.
 */
final class UpkeepTasks implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UpkeepTasks.class);
    static final long STATS_SAMPLE_INTERVAL_MS = 1_000;
    static final long LOCK_PURGE_INTERVAL_MS = 60_000;

    private final ScheduledFuture<?> sampling;
    private final ScheduledFuture<?> purging;

    private UpkeepTasks(ScheduledFuture<?> sampling, ScheduledFuture<?> purging) {
        this.sampling = sampling;
        this.purging = purging;
    }

    /** Schedules the stats sample and the lock purge on {@code scheduler}; {@link #close} cancels them. */
    static UpkeepTasks start(ScheduledExecutorService scheduler, BrokerStats stats, QueueLocks locks) {
        ScheduledFuture<?> sampling = scheduler.scheduleAtFixedRate(() -> guarded("stats sample", stats::sample),
                STATS_SAMPLE_INTERVAL_MS, STATS_SAMPLE_INTERVAL_MS, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> purging = scheduler.scheduleWithFixedDelay(
                () -> guarded("lock purge", locks::purgeExpired), LOCK_PURGE_INTERVAL_MS, LOCK_PURGE_INTERVAL_MS,
                TimeUnit.MILLISECONDS);
        return new UpkeepTasks(sampling, purging);
    }

    /** Runs {@code task}; an exception is logged, not thrown, so that the scheduler keeps running the task. */
    static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("{} failed", what, e);
        }
    }

    /** Cancels both tasks (a run in progress finishes). Idempotent. */
    @Override
    public void close() {
        sampling.cancel(false);
        purging.cancel(false);
    }
}
