package io.sluice.client;

import io.sluice.client.internal.LocalAddress;
import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.Credentials;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a producer, consumer or admin client reaches the cluster. Immutable, validated on construction (the
 * exception names the bad value); thread-safe.
 *
 * @param namesrvAddresses name servers as {@code host:port}; at least one
 * @param instanceName the instance part of the client id ({@code <ip>@<instanceName>}); distinct instances of one
 *                     process must use distinct names
 * @param clientIp the IP written into client ids and message ids, e.g. {@code 127.0.0.1}
 * @param rpcTimeoutMs timeout of name-server and administrative calls
 * @param routeRefreshIntervalMs period of the route refresh of every topic in use
 * @param heartbeatIntervalMs period of the heartbeat to every broker in use
 * @param tls whether connections to name servers and brokers use TLS, and which certificates they trust
 * @param credentials when present, every request is signed with them (for brokers with access control)
 */
public record ConnectionSettings(List<String> namesrvAddresses, String instanceName, String clientIp,
                                 long rpcTimeoutMs, long routeRefreshIntervalMs, long heartbeatIntervalMs,
                                 ClientTls tls, Optional<Credentials> credentials) {

    /** Validates every field. */
    public ConnectionSettings {
        Objects.requireNonNull(namesrvAddresses, "namesrvAddresses");
        if (namesrvAddresses.isEmpty()) {
            throw new IllegalArgumentException("namesrvAddresses must name at least one name server");
        }
        for (String address : namesrvAddresses) {
            int colon = address == null ? -1 : address.lastIndexOf(':');
            if (colon <= 0 || colon == address.length() - 1) {
                throw new IllegalArgumentException("name server address must be host:port, was '" + address + "'");
            }
        }
        namesrvAddresses = List.copyOf(namesrvAddresses);
        if (instanceName == null || instanceName.isEmpty() || instanceName.contains("@")) {
            throw new IllegalArgumentException("instanceName must be non-empty without '@', was '" + instanceName
                    + "'");
        }
        if (clientIp == null || clientIp.isEmpty()) {
            throw new IllegalArgumentException("clientIp must not be empty, was '" + clientIp + "'");
        }
        Checks.positive("rpcTimeoutMs", rpcTimeoutMs);
        Checks.positive("routeRefreshIntervalMs", routeRefreshIntervalMs);
        Checks.positive("heartbeatIntervalMs", heartbeatIntervalMs);
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(credentials, "credentials");
    }

    /** Settings without TLS and without signing. */
    public ConnectionSettings(List<String> namesrvAddresses, String instanceName, String clientIp, long rpcTimeoutMs,
                              long routeRefreshIntervalMs, long heartbeatIntervalMs) {
        this(namesrvAddresses, instanceName, clientIp, rpcTimeoutMs, routeRefreshIntervalMs, heartbeatIntervalMs,
                ClientTls.disabled(), Optional.empty());
    }

    /**
     * Defaults for the given name servers ({@code ;}-separated): instance name {@code <pid>#<nanoTime>}, this host's
     * first non-loopback IPv4 address, 3000 ms RPC timeout, 30 s route refresh and heartbeat.
     */
    public static ConnectionSettings of(String namesrvAddresses) {
        Objects.requireNonNull(namesrvAddresses, "namesrvAddresses");
        return new ConnectionSettings(List.of(namesrvAddresses.split(";")), defaultInstanceName(),
                LocalAddress.ipv4(), 3000, 30_000, 30_000);
    }

    /** A copy with another instance name. */
    public ConnectionSettings withInstanceName(String name) {
        return new ConnectionSettings(namesrvAddresses, name, clientIp, rpcTimeoutMs, routeRefreshIntervalMs,
                heartbeatIntervalMs, tls, credentials);
    }

    /** A copy with another client IP. */
    public ConnectionSettings withClientIp(String ip) {
        return new ConnectionSettings(namesrvAddresses, instanceName, ip, rpcTimeoutMs, routeRefreshIntervalMs,
                heartbeatIntervalMs, tls, credentials);
    }

    /** A copy with other timer periods. */
    public ConnectionSettings withIntervals(long routeRefreshMs, long heartbeatMs) {
        return new ConnectionSettings(namesrvAddresses, instanceName, clientIp, rpcTimeoutMs, routeRefreshMs,
                heartbeatMs, tls, credentials);
    }

    /** A copy with another RPC timeout. */
    public ConnectionSettings withRpcTimeoutMs(long timeoutMs) {
        return new ConnectionSettings(namesrvAddresses, instanceName, clientIp, timeoutMs, routeRefreshIntervalMs,
                heartbeatIntervalMs, tls, credentials);
    }

    /**
     * A copy whose connections use {@code value}, e.g. {@code ClientTls.trusting(caPem)} for servers in TLS
     * enforcing mode.
     */
    public ConnectionSettings withTls(ClientTls value) {
        return new ConnectionSettings(namesrvAddresses, instanceName, clientIp, rpcTimeoutMs, routeRefreshIntervalMs,
                heartbeatIntervalMs, value, credentials);
    }

    /**
     * A copy that signs every request with the user's access key and secret, as the Apache client's
     * {@code AclClientRPCHook} does, for brokers with {@code authenticationEnabled}.
     */
    public ConnectionSettings withCredentials(String accessKey, String secretKey) {
        return new ConnectionSettings(namesrvAddresses, instanceName, clientIp, rpcTimeoutMs, routeRefreshIntervalMs,
                heartbeatIntervalMs, tls, Optional.of(new Credentials(accessKey, secretKey)));
    }

    private static String defaultInstanceName() {
        return ProcessHandle.current().pid() + "#" + System.nanoTime();
    }
}
