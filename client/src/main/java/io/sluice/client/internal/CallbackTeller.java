package io.sluice.client.internal;

import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells {@link SendCallback}s their outcome. A callback that throws costs nobody else theirs: the throw is counted,
 * and logged at the 1st, 2nd, 4th, 8th... time (a bug of the caller's, which may repeat for every message).
 * One per producer; thread-safe.
 */
public final class CallbackTeller {
    private static final Logger LOG = LoggerFactory.getLogger(CallbackTeller.class);

    private final AtomicLong failures = new AtomicLong();

    /** Tells {@code callback} its message's result, or (when {@code error} is not null) its error. */
    public void tell(SendCallback callback, SendResult result, Throwable error) {
        try {
            if (error == null) {
                callback.onSuccess(result);
            } else {
                callback.onException(error);
            }
        } catch (RuntimeException e) {
            long count = failures.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                LOG.warn("a send callback threw ({} so far); every other message is told anyway", count, e);
            }
        }
    }

    /** Callbacks that threw so far. */
    public long failures() {
        return failures.get();
    }
}
