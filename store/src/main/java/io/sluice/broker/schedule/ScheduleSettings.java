package io.sluice.broker.schedule;

import java.util.List;

/**
 * Settings of the {@link DelayScheduler}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param delayLevelsMs  delay of level {@code i + 1} at index {@code i}, each positive (Apache's
 *                       {@code messageDelayLevel}, by default {@code 1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m
 *                       20m 30m 1h 2h}); levels above the last clamp to it
 * @param maxBatch       records read from one level queue per read, at least 1
 * @param pollIntervalMs longest wait of the scheduler thread between passes when nothing wakes it, at least 1
 *                       (Apache polls each level every 100 ms)
 */
public record ScheduleSettings(List<Long> delayLevelsMs, int maxBatch, long pollIntervalMs) {

    /** Apache's default levels: 1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h. */
    public static final List<Long> DEFAULT_DELAY_LEVELS_MS = List.of(1_000L, 5_000L, 10_000L, 30_000L, 60_000L,
            120_000L, 180_000L, 240_000L, 300_000L, 360_000L, 420_000L, 480_000L, 540_000L, 600_000L, 1_200_000L,
            1_800_000L, 3_600_000L, 7_200_000L);
    /** Default {@code maxBatch}. */
    public static final int DEFAULT_MAX_BATCH = 32;
    /** Default {@code pollIntervalMs}. */
    public static final long DEFAULT_POLL_INTERVAL_MS = 100;

    /** Validates the values; the exception names the bad one. */
    public ScheduleSettings {
        if (delayLevelsMs == null || delayLevelsMs.isEmpty()) {
            throw new IllegalArgumentException("delayLevelsMs must name at least one level");
        }
        delayLevelsMs = List.copyOf(delayLevelsMs);
        for (int i = 0; i < delayLevelsMs.size(); i++) {
            if (delayLevelsMs.get(i) <= 0) {
                throw new IllegalArgumentException("delay level " + (i + 1) + " must be positive, was "
                        + delayLevelsMs.get(i) + " ms");
            }
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be >= 1, was " + maxBatch);
        }
        if (pollIntervalMs < 1) {
            throw new IllegalArgumentException("pollIntervalMs must be >= 1, was " + pollIntervalMs);
        }
    }

    /** The given levels with the default batch and poll interval. */
    public static ScheduleSettings of(List<Long> delayLevelsMs) {
        return new ScheduleSettings(delayLevelsMs, DEFAULT_MAX_BATCH, DEFAULT_POLL_INTERVAL_MS);
    }

    /** Apache's default levels, batch and poll interval. */
    public static ScheduleSettings defaults() {
        return of(DEFAULT_DELAY_LEVELS_MS);
    }

    /** The highest level; also the number of schedule queues. */
    public int maxLevel() {
        return delayLevelsMs.size();
    }

    /** {@code level} clamped to {@code 1..maxLevel()}. */
    public int clampLevel(int level) {
        return Math.max(1, Math.min(level, maxLevel()));
    }

    /** The delay of {@code level} (clamped into range), in ms. */
    public long delayMs(int level) {
        return delayLevelsMs.get(clampLevel(level) - 1);
    }
}
