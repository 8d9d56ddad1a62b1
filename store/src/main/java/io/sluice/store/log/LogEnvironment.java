package io.sluice.store.log;

import java.util.Objects;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * What a CommitLog is given rather than creates: clocks, the failure handler shared with the rest of the store,
 * the fsync and write hooks and the free-space source. Tests substitute manual clocks, blocking or failing hooks
 * and a fixed free space here.
 *
 * <p>Immutable; thread-safe (the components themselves must be thread-safe).
 *
 * @param epochClock     source of STORETIMESTAMP (ms)
 * @param nanoClock      source of flush deadlines (ns)
 * @param failureHandler receives every storage I/O failure
 * @param forceHook      called before every fsync
 * @param writeHook      called before every write of records through a segment's file
 * @param diskSpace      where the free space is read after a failed write
 */
public record LogEnvironment(
        EpochClock epochClock,
        NanoClock nanoClock,
        StoreFailureHandler failureHandler,
        ForceHook forceHook,
        WriteHook writeHook,
        DiskSpace diskSpace) {

    public LogEnvironment {
        Objects.requireNonNull(epochClock, "epochClock");
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(failureHandler, "failureHandler");
        Objects.requireNonNull(forceHook, "forceHook");
        Objects.requireNonNull(writeHook, "writeHook");
        Objects.requireNonNull(diskSpace, "diskSpace");
    }

    /** System clocks, a fresh failure handler, no hooks, the file system's own free space. */
    public static LogEnvironment system() {
        return new LogEnvironment(SystemEpochClock.INSTANCE, SystemNanoClock.INSTANCE, new StoreFailureHandler(),
                ForceHook.NONE, WriteHook.NONE, DiskSpace.SYSTEM);
    }

    public LogEnvironment withEpochClock(EpochClock clock) {
        return new LogEnvironment(clock, nanoClock, failureHandler, forceHook, writeHook, diskSpace);
    }

    public LogEnvironment withNanoClock(NanoClock clock) {
        return new LogEnvironment(epochClock, clock, failureHandler, forceHook, writeHook, diskSpace);
    }

    public LogEnvironment withFailureHandler(StoreFailureHandler handler) {
        return new LogEnvironment(epochClock, nanoClock, handler, forceHook, writeHook, diskSpace);
    }

    public LogEnvironment withForceHook(ForceHook hook) {
        return new LogEnvironment(epochClock, nanoClock, failureHandler, hook, writeHook, diskSpace);
    }

    public LogEnvironment withWriteHook(WriteHook hook) {
        return new LogEnvironment(epochClock, nanoClock, failureHandler, forceHook, hook, diskSpace);
    }

    public LogEnvironment withDiskSpace(DiskSpace space) {
        return new LogEnvironment(epochClock, nanoClock, failureHandler, forceHook, writeHook, space);
    }
}
