package io.sluice.store.dispatch;

/**
 * Settings of dispatch. Validated on construction; the exception names the bad value.
 *
 * <p>Immutable; thread-safe.
 *
 * @param maxParkMicros     longest idle park of the dispatch thread between two looks at the log when no wake-up
 *                          arrives; bounds the visibility delay of a record nobody signalled (SYNC appends whose
 *                          caller does not wait, flushes); default 1000 µs
 * @param maxRecordsPerPass records dispatched before arrival listeners are told and the position published
 *                          for the checkpoint; bounds the long-polling delay during catch-up; default 4096
 * @param drainTimeoutMs    how long a clean shutdown waits for dispatch to catch up; default 5000 ms
 */
public record DispatchSettings(int maxParkMicros, int maxRecordsPerPass, int drainTimeoutMs) {

    public static final int DEFAULT_MAX_PARK_MICROS = 1_000;
    public static final int DEFAULT_MAX_RECORDS_PER_PASS = 4_096;
    public static final int DEFAULT_DRAIN_TIMEOUT_MS = 5_000;

    public DispatchSettings {
        if (maxParkMicros < 1 || maxParkMicros > 1_000_000) {
            throw new IllegalArgumentException("maxParkMicros must be in [1, 1000000], was " + maxParkMicros);
        }
        if (maxRecordsPerPass < 1) {
            throw new IllegalArgumentException("maxRecordsPerPass must be >= 1, was " + maxRecordsPerPass);
        }
        if (drainTimeoutMs < 0) {
            throw new IllegalArgumentException("drainTimeoutMs must be >= 0, was " + drainTimeoutMs);
        }
    }

    /** The defaults. */
    public static DispatchSettings defaults() {
        return new DispatchSettings(DEFAULT_MAX_PARK_MICROS, DEFAULT_MAX_RECORDS_PER_PASS, DEFAULT_DRAIN_TIMEOUT_MS);
    }
}
