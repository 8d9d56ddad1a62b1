package io.sluice.store.retention;

import java.util.List;
import java.util.Objects;

/**
 * Retention and disk-protection settings (Apache's {@code fileReservedTime}, {@code deleteWhen},
 * {@code diskMaxUsedSpaceRatio}, {@code diskSpaceCleanForciblyRatio}, {@code cleanFileForciblyEnable},
 * {@code diskSpaceWarningLevelRatio}, {@code cleanResourceInterval}, {@code deleteFileBatchMax}). Ratios are
 * fractions (0.75), not percentages. Validated on construction; the exception names the bad value.
 *
 * <p>Immutable; thread-safe.
 *
 * @param fileReservedHours       a segment last written longer ago than this is expired (72)
 * @param deleteWhenHours         local hours (0-23) at which expired segments are deleted ([4]); may be empty
 * @param diskMaxUsedSpaceRatio   above this used fraction expired segments are deleted at any hour (0.75)
 * @param diskForceCleanRatio     above this, the oldest segments are deleted even if not expired (0.85), when
 *                                {@code cleanFileForcibly}
 * @param cleanFileForcibly       allow deleting unexpired segments that consumers have not read under disk pressure
 *                                (false: Sluice keeps unread messages and refuses sends instead)
 * @param diskRefuseWriteRatio    above this, appends are refused with DISK_FULL (0.90)
 * @param checkIntervalMs         period of the retention and disk check (10 000)
 * @param maxSegmentDeletesPerRun segments deleted at most per check (10)
 */
public record RetentionSettings(int fileReservedHours, List<Integer> deleteWhenHours, double diskMaxUsedSpaceRatio,
                                double diskForceCleanRatio, boolean cleanFileForcibly, double diskRefuseWriteRatio,
                                int checkIntervalMs, int maxSegmentDeletesPerRun) {

    public static final int DEFAULT_FILE_RESERVED_HOURS = 72;
    public static final List<Integer> DEFAULT_DELETE_WHEN_HOURS = List.of(4);
    public static final double DEFAULT_DISK_MAX_USED_SPACE_RATIO = 0.75;
    public static final double DEFAULT_DISK_FORCE_CLEAN_RATIO = 0.85;
    public static final double DEFAULT_DISK_REFUSE_WRITE_RATIO = 0.90;
    public static final int DEFAULT_CHECK_INTERVAL_MS = 10_000;
    public static final int DEFAULT_MAX_SEGMENT_DELETES_PER_RUN = 10;

    public RetentionSettings {
        if (fileReservedHours < 1) {
            throw new IllegalArgumentException("fileReservedHours must be >= 1, was " + fileReservedHours);
        }
        Objects.requireNonNull(deleteWhenHours, "deleteWhenHours");
        for (Integer hour : deleteWhenHours) {
            if (hour == null || hour < 0 || hour > 23) {
                throw new IllegalArgumentException("deleteWhenHours must hold hours in [0, 23], was "
                        + deleteWhenHours);
            }
        }
        deleteWhenHours = List.copyOf(deleteWhenHours);
        requireRatio("diskMaxUsedSpaceRatio", diskMaxUsedSpaceRatio);
        requireRatio("diskForceCleanRatio", diskForceCleanRatio);
        requireRatio("diskRefuseWriteRatio", diskRefuseWriteRatio);
        if (checkIntervalMs < 1) {
            throw new IllegalArgumentException("checkIntervalMs must be >= 1, was " + checkIntervalMs);
        }
        if (maxSegmentDeletesPerRun < 1) {
            throw new IllegalArgumentException("maxSegmentDeletesPerRun must be >= 1, was " + maxSegmentDeletesPerRun);
        }
    }

    private static void requireRatio(String name, double value) {
        if (!(value > 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in (0, 1], was " + value);
        }
    }

    /** Apache's defaults, except {@code cleanFileForcibly}: false, so that unread messages are never deleted. */
    public static RetentionSettings defaults() {
        return new RetentionSettings(DEFAULT_FILE_RESERVED_HOURS, DEFAULT_DELETE_WHEN_HOURS,
                DEFAULT_DISK_MAX_USED_SPACE_RATIO, DEFAULT_DISK_FORCE_CLEAN_RATIO, false,
                DEFAULT_DISK_REFUSE_WRITE_RATIO, DEFAULT_CHECK_INTERVAL_MS, DEFAULT_MAX_SEGMENT_DELETES_PER_RUN);
    }

    public RetentionSettings withFileReservedHours(int hours) {
        return new RetentionSettings(hours, deleteWhenHours, diskMaxUsedSpaceRatio, diskForceCleanRatio,
                cleanFileForcibly, diskRefuseWriteRatio, checkIntervalMs, maxSegmentDeletesPerRun);
    }

    public RetentionSettings withDeleteWhenHours(List<Integer> hours) {
        return new RetentionSettings(fileReservedHours, hours, diskMaxUsedSpaceRatio, diskForceCleanRatio,
                cleanFileForcibly, diskRefuseWriteRatio, checkIntervalMs, maxSegmentDeletesPerRun);
    }

    public RetentionSettings withRatios(double maxUsed, double forceClean, double refuseWrite) {
        return new RetentionSettings(fileReservedHours, deleteWhenHours, maxUsed, forceClean, cleanFileForcibly,
                refuseWrite, checkIntervalMs, maxSegmentDeletesPerRun);
    }

    public RetentionSettings withCleanFileForcibly(boolean enabled) {
        return new RetentionSettings(fileReservedHours, deleteWhenHours, diskMaxUsedSpaceRatio, diskForceCleanRatio,
                enabled, diskRefuseWriteRatio, checkIntervalMs, maxSegmentDeletesPerRun);
    }

    public RetentionSettings withCheckIntervalMs(int intervalMs) {
        return new RetentionSettings(fileReservedHours, deleteWhenHours, diskMaxUsedSpaceRatio, diskForceCleanRatio,
                cleanFileForcibly, diskRefuseWriteRatio, intervalMs, maxSegmentDeletesPerRun);
    }

    public RetentionSettings withMaxSegmentDeletesPerRun(int deletes) {
        return new RetentionSettings(fileReservedHours, deleteWhenHours, diskMaxUsedSpaceRatio, diskForceCleanRatio,
                cleanFileForcibly, diskRefuseWriteRatio, checkIntervalMs, deletes);
    }

    /** {@code fileReservedHours} in milliseconds. */
    public long fileReservedMs() {
        return fileReservedHours * 3_600_000L;
    }
}
