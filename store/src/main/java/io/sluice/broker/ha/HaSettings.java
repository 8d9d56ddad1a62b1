package io.sluice.broker.ha;

/**
 * Timings and sizes of the HA channel, on both ends.
 *
 * <p>Immutable; thread-safe.
 *
 * @param heartbeatIntervalMs a master with nothing to send sends an empty transfer this often, and the slave
 *                            reports back, so both ends see a live channel
 * @param silenceTimeoutMs    either end closes a channel on which nothing arrived for this long (a dead or
 *                            frozen peer); a slave then connects again
 * @param reconnectDelayMs    a slave's pause before it connects again
 * @param maxTransferBytes    largest body of one transfer (a larger first record is sent whole)
 */
public record HaSettings(long heartbeatIntervalMs, long silenceTimeoutMs, long reconnectDelayMs,
                         int maxTransferBytes) {

    /** Apache's heartbeat (5 s) and housekeeping (20 s) intervals; 1 s reconnect pause; 256 KiB transfers. */
    public static final HaSettings DEFAULTS = new HaSettings(5_000, 20_000, 1_000, 256 * 1024);

    /** Validates the values; the exception names the bad one. */
    public HaSettings {
        if (heartbeatIntervalMs <= 0 || silenceTimeoutMs <= heartbeatIntervalMs) {
            throw new IllegalArgumentException("heartbeatIntervalMs " + heartbeatIntervalMs
                    + " must be positive and below silenceTimeoutMs " + silenceTimeoutMs);
        }
        if (reconnectDelayMs <= 0 || maxTransferBytes <= 0) {
            throw new IllegalArgumentException("reconnectDelayMs " + reconnectDelayMs + " and maxTransferBytes "
                    + maxTransferBytes + " must be positive");
        }
    }
}
