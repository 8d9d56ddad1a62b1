package io.sluice.store.log;

import java.io.IOException;

/**
 * Called immediately before the log forces the byte range {@code [fromPosition, toPosition)} to disk.
 *
 * <p>Production code uses {@link #NONE}. Tests use it to block, delay or fail an fsync deterministically
 * (throwing an {@link IOException} here is handled exactly like a failed fsync). Implementations are called on
 * the flushing thread and must be thread-safe.
 */
@FunctionalInterface
public interface ForceHook {

    /** Does nothing. */
    ForceHook NONE = (fromPosition, toPosition) -> { };

    /**
     * @param fromPosition first log position about to be forced
     * @param toPosition   log position after the last byte about to be forced
     * @throws IOException to simulate a failed fsync
     */
    void beforeForce(long fromPosition, long toPosition) throws IOException;
}
