package io.sluice.broker.registry;

import java.util.List;

/**
 * Settings of the {@link NameServerRegistrar}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param clusterName         {@code brokerClusterName}
 * @param brokerName          {@code brokerName}
 * @param brokerId            0 = master
 * @param brokerAddr          the client-facing {@code ip:port} registered in routes
 * @param haServerAddr        {@code ip:haPort}, informational
 * @param namesrvAddresses    name servers as {@code host:port}; empty = register nowhere
 * @param registerIntervalMs  period of the full registration
 * @param registerTimeoutMs   timeout of one REGISTER_BROKER call
 * @param unregisterTimeoutMs timeout of the UNREGISTER_BROKER call at shutdown
 * @param masterEpoch         controller mode: the controller's master epoch of this broker's role, sent as
 *                            {@code masterEpoch}; 0 outside controller mode (not sent)
 */
public record RegistrarSettings(String clusterName, String brokerName, long brokerId, String brokerAddr,
                                String haServerAddr, List<String> namesrvAddresses, long registerIntervalMs,
                                long registerTimeoutMs, long unregisterTimeoutMs, int masterEpoch) {

    /** Apache's timeout of UNREGISTER_BROKER. */
    public static final long DEFAULT_UNREGISTER_TIMEOUT_MS = 3_000;

    /** Validates the values; the exception names the bad one. */
    public RegistrarSettings {
        requireText("clusterName", clusterName);
        requireText("brokerName", brokerName);
        requireText("brokerAddr", brokerAddr);
        requireText("haServerAddr", haServerAddr);
        if (brokerId < 0) {
            throw new IllegalArgumentException("brokerId " + brokerId + " must be >= 0");
        }
        namesrvAddresses = List.copyOf(namesrvAddresses);
        requirePositive("registerIntervalMs", registerIntervalMs);
        requirePositive("registerTimeoutMs", registerTimeoutMs);
        requirePositive("unregisterTimeoutMs", unregisterTimeoutMs);
        if (masterEpoch < 0) {
            throw new IllegalArgumentException("masterEpoch " + masterEpoch + " must be >= 0");
        }
    }

    private static void requireText(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank: '" + value + "'");
        }
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }
}
