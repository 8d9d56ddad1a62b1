package io.sluice.broker.handler;

import java.net.InetSocketAddress;

/**
 * What the {@link SendHandler} needs to know about its broker.
 *
 * <p>Immutable; thread-safe.
 *
 * @param clusterName      {@code brokerClusterName}, stored as the {@code CLUSTER} property
 * @param brokerName       {@code brokerName}, named in refusals
 * @param brokerPermission broker-wide permission bits; without WRITE every send is NO_PERMISSION
 * @param maxMessageBytes  largest body (or batch body) accepted
 * @param storeHost        the broker's address ({@code brokerIP1:listenPort}); its IP seeds generated keys
 */
public record SendSettings(String clusterName, String brokerName, int brokerPermission, int maxMessageBytes,
                           InetSocketAddress storeHost) {

    /** Validates the values. */
    public SendSettings {
        if (maxMessageBytes < 1) {
            throw new IllegalArgumentException("maxMessageBytes must be positive: " + maxMessageBytes);
        }
        if (storeHost == null || storeHost.getAddress() == null) {
            throw new IllegalArgumentException("storeHost must be a resolved address: " + storeHost);
        }
    }
}
