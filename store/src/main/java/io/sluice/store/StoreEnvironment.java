package io.sluice.store;

import io.sluice.store.log.LogEnvironment;
import io.sluice.store.retention.DiskUsage;
import java.time.ZoneId;
import java.util.Objects;

/**
 * What a store is given rather than creates: clocks, the storage failure handler and fsync hook (through
 * {@link LogEnvironment}), the disk usage probe and the time zone of the retention hours. Tests substitute
 * manual clocks and a controllable disk here.
 *
 * <p>Immutable; thread-safe (the components themselves must be thread-safe).
 *
 * @param log       clocks, failure handler and fsync hook
 * @param diskUsage how full the CommitLog's file system is
 * @param zone      the zone of {@code deleteWhenHours}
 */
public record StoreEnvironment(LogEnvironment log, DiskUsage diskUsage, ZoneId zone) {

    public StoreEnvironment {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(diskUsage, "diskUsage");
        Objects.requireNonNull(zone, "zone");
    }

    /** System clocks, a fresh failure handler, the real file system, the system time zone. */
    public static StoreEnvironment system() {
        return new StoreEnvironment(LogEnvironment.system(), DiskUsage.fileStore(), ZoneId.systemDefault());
    }

    public StoreEnvironment withLog(LogEnvironment value) {
        return new StoreEnvironment(value, diskUsage, zone);
    }

    public StoreEnvironment withDiskUsage(DiskUsage value) {
        return new StoreEnvironment(log, value, zone);
    }

    public StoreEnvironment withZone(ZoneId value) {
        return new StoreEnvironment(log, diskUsage, value);
    }
}
