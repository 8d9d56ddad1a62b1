package io.sluice.broker.timer;

/**
 * Settings of the {@link TimerService}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param enabled     {@code timerWheelEnable}: false refuses timer messages
 * @param precisionMs {@code timerPrecisionMs}: the longest the timer thread sleeps, at least 1
 * @param maxDelayMs  {@code timerMaxDelaySec} in ms: the furthest delivery time accepted, after receipt, at least 1
 */
public record TimerSettings(boolean enabled, long precisionMs, long maxDelayMs) {

    /** Apache's defaults: enabled, 1 s precision, 3 days at most. */
    public static final TimerSettings DEFAULTS = new TimerSettings(true, 1_000, 259_200_000L);

    /** Validates the values; the exception names the bad one. */
    public TimerSettings {
        if (precisionMs < 1) {
            throw new IllegalArgumentException("precisionMs must be >= 1, was " + precisionMs);
        }
        if (maxDelayMs < 1) {
            throw new IllegalArgumentException("maxDelayMs must be >= 1, was " + maxDelayMs);
        }
    }
}
