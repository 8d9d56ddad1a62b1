package io.sluice.store.log;

import io.sluice.store.flush.ForceHook;
import io.sluice.store.flush.StoreFailureHandler;
import java.util.Objects;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * What a CommitLog is given rather than creates: clocks, the failure handler shared with the rest of the store,
 * and the fsync hook. Tests substitute manual clocks and blocking or failing hooks here.
 *
 * <p>Immutable; thread-safe (the components themselves must be thread-safe).
 *
 * @param epochClock     source of STORETIMESTAMP (ms)
 * @param nanoClock      source of flush deadlines (ns)
 * @param failureHandler receives every storage I/O failure
 * @param forceHook      called before every fsync
 */
public record LogEnvironment(
        EpochClock epochClock,
        NanoClock nanoClock,
        StoreFailureHandler failureHandler,
        ForceHook forceHook) {

    public LogEnvironment {
        Objects.requireNonNull(epochClock, "epochClock");
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(failureHandler, "failureHandler");
        Objects.requireNonNull(forceHook, "forceHook");
    }

    /** System clocks, a fresh failure handler, no hook. */
    public static LogEnvironment system() {
        return new LogEnvironment(SystemEpochClock.INSTANCE, SystemNanoClock.INSTANCE, new StoreFailureHandler(),
                ForceHook.NONE);
    }

    public LogEnvironment withEpochClock(EpochClock clock) {
        return new LogEnvironment(clock, nanoClock, failureHandler, forceHook);
    }

    public LogEnvironment withNanoClock(NanoClock clock) {
        return new LogEnvironment(epochClock, clock, failureHandler, forceHook);
    }

    public LogEnvironment withFailureHandler(StoreFailureHandler handler) {
        return new LogEnvironment(epochClock, nanoClock, handler, forceHook);
    }

    public LogEnvironment withForceHook(ForceHook hook) {
        return new LogEnvironment(epochClock, nanoClock, failureHandler, hook);
    }
}
