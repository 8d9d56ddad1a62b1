package io.sluice.store.thread;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentTerminationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a thread loop does with an exception its duty cycle did not handle: counts it, logs it (the first and then
 * each time the count reaches a power of two, so a fault that repeats cannot flood the log) and pauses briefly, so
 * that a fault that repeats on every cycle does not spin a processor. The loop then goes on. An
 * {@link AgentTerminationException} is how an agent ends its own loop (a closed socket): neither counted nor logged.
 *
 * <p>Thread-safe; called on the loop's thread (and on a stopping thread for an error in the agent's close).
 */
final class CountingErrorHandler implements ErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CountingErrorHandler.class);
    /** Pause after an error: long enough not to spin, short enough not to matter if the fault was transient. */
    static final long PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final String roleName;
    private final AtomicLong errors = new AtomicLong();

    CountingErrorHandler(String roleName) {
        this.roleName = roleName;
    }

    @Override
    public void onError(Throwable error) {
        if (error instanceof AgentTerminationException) {
            return; // the agent ended its own loop (its work is over): not a failure
        }
        long n = errors.incrementAndGet();
        if (shouldLog(n)) {
            LOG.error("{} failed; going on [{} failures so far]", roleName, n, error);
        }
        LockSupport.parkNanos(this, PAUSE_NS);
    }

    /** Errors so far. */
    public long errorCount() {
        return errors.get();
    }

    /** The first failure and then each time the count reaches a power of two. */
    static boolean shouldLog(long count) {
        return Long.bitCount(count) == 1;
    }
}
