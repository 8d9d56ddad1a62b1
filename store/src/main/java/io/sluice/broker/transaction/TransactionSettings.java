package io.sluice.broker.transaction;

/**
 * Settings of the {@link TransactionService}, with Apache's key names.
 *
 * <p>Immutable; thread-safe.
 *
 * @param timeoutMs       {@code transactionTimeOut}: a half message unresolved this long after it was stored is
 *                        checked back; at least 1
 * @param checkIntervalMs {@code transactionCheckInterval}: period of the check pass; at least 1
 * @param checkMax        {@code transactionCheckMax}: checks before a half message is given up; at least 1
 * @param brokerName      reported in CHECK_TRANSACTION_STATE headers
 */
public record TransactionSettings(long timeoutMs, long checkIntervalMs, int checkMax, String brokerName) {

    /** Apache's default {@code transactionTimeOut}. */
    public static final long DEFAULT_TIMEOUT_MS = 6_000;
    /** Apache's default {@code transactionCheckInterval}. */
    public static final long DEFAULT_CHECK_INTERVAL_MS = 30_000;
    /** Apache's default {@code transactionCheckMax}. */
    public static final int DEFAULT_CHECK_MAX = 15;

    /** Validates the values; the exception names the bad one. */
    public TransactionSettings {
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("transactionTimeOut must be >= 1 ms, was " + timeoutMs);
        }
        if (checkIntervalMs < 1) {
            throw new IllegalArgumentException("transactionCheckInterval must be >= 1 ms, was " + checkIntervalMs);
        }
        if (checkMax < 1) {
            throw new IllegalArgumentException("transactionCheckMax must be >= 1, was " + checkMax);
        }
        if (brokerName == null || brokerName.isEmpty()) {
            throw new IllegalArgumentException("brokerName must be set");
        }
    }
}
