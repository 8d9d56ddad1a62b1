package io.sluice.store.log;

import java.util.Objects;
import org.agrona.concurrent.NanoClock;

/**
 * Forces a {@link FlushTarget} to disk according to a {@link FlushMode}.
 *
 * <p>Implementations run their own threads, started by {@link #start()} and stopped by {@link #close()}, which
 * performs a final flush of everything written. The methods below are thread-safe.
 */
interface FlushAgent extends AutoCloseable {

    /** Creates the agent for {@code settings.mode()}; call {@link #start()} to run it. */
    static FlushAgent create(FlushSettings settings, FlushTarget target, StoreFailureHandler failureHandler,
                             NanoClock nanoClock) {
        Objects.requireNonNull(settings, "settings");
        return switch (settings.mode()) {
            case ASYNC -> new AsyncFlushAgent(settings, target, failureHandler, nanoClock);
            case SYNC -> new GroupCommitAgent(settings, target, failureHandler, nanoClock);
        };
    }

    /** Starts the agent's threads. */
    void start();

    /**
     * Hands over an append that wants to be told when its bytes are durable. Must be called in log position
     * order (the log calls it while holding its append lock). The waiter is never called on the offering thread.
     *
     * @return true when queued; false when the agent will not flush it (closed, failed, or an ASYNC agent, which
     *         does not queue waiters) and the waiter will never be called
     */
    boolean offer(FlushWaiter waiter);

    /** Hint that bytes were appended that nobody waits for; a SYNC agent forces them promptly. */
    void onAppended();

    /** Stops the threads after a final flush; waiters still pending get their outcome. Idempotent. */
    @Override
    void close();
}
