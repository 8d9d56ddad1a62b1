package io.sluice.broker.handler;

/**
 * Settings of the {@link PullHandler}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param brokerPermission        broker-wide permission bits; without READ every pull is NO_PERMISSION
 * @param longPollingEnable       park pulls until a message arrives or their suspend time passes
 * @param shortPollingTimeMs      without long polling, how long a pull that found nothing is parked
 * @param longPollingSuspendMaxMs upper bound on a parked pull's suspend time
 * @param maxTransferBytes        a response stops adding records beyond this many bytes (the first is always
 *                                returned)
 * @param maxTransferCount        a response carries at most this many messages (an inner batch counts its messages;
 *                                the first record is always returned)
 * @param rerunOnIoThread         a parked pull woken by new messages runs again on its connection's I/O thread
 *                                (with pullOnIoThread), not on the pull pool
 * @param slaveReadEnable         {@code slaveReadEnable}: the suggested broker id of a pull response is the
 *                                group's {@code whichBrokerWhenConsumeSlowly} for a consumer that lags by more than
 *                                {@code slowLagBytes}, else the group's {@code brokerId}; without it, always 0
 * @param slowLagBytes            CommitLog bytes between a pull's first record and the log's end beyond which the
 *                                consumer counts as slow (Apache: 40% of the machine's memory)
 */
public record PullSettings(int brokerPermission, boolean longPollingEnable, long shortPollingTimeMs,
                           long longPollingSuspendMaxMs, int maxTransferBytes, int maxTransferCount,
                           boolean rerunOnIoThread, boolean slaveReadEnable, long slowLagBytes) {

    /** Settings whose parked pulls run again on the pull pool, without slave reads (the master is suggested). */
    public PullSettings(int brokerPermission, boolean longPollingEnable, long shortPollingTimeMs,
                        long longPollingSuspendMaxMs, int maxTransferBytes, int maxTransferCount) {
        this(brokerPermission, longPollingEnable, shortPollingTimeMs, longPollingSuspendMaxMs, maxTransferBytes,
                maxTransferCount, false, false, Long.MAX_VALUE);
    }

    /** Validates the values. */
    public PullSettings {
        requirePositive("slowLagBytes", slowLagBytes);
        requirePositive("shortPollingTimeMs", shortPollingTimeMs);
        requirePositive("longPollingSuspendMaxMs", longPollingSuspendMaxMs);
        requirePositive("maxTransferBytes", maxTransferBytes);
        requirePositive("maxTransferCount", maxTransferCount);
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }
}
