package io.sluice.broker.client;

import io.sluice.remoting.protocol.LanguageCode;

/**
 * One client connection registered in a producer or consumer group, as admin requests report it.
 *
 * <p>Immutable; thread-safe.
 *
 * @param clientId     the client's id ({@code ip@instanceName...})
 * @param clientAddr   the connection's peer address, {@code host:port}
 * @param language     the client's language
 * @param version      the client's protocol version (ordinal of Apache's {@code MQVersion.Version})
 * @param lastUpdateMs epoch ms of the last heartbeat on this connection
 */
public record ClientConnection(String clientId, String clientAddr, LanguageCode language, int version,
                               long lastUpdateMs) {
}
