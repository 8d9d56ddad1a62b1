package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.FrameDescriptor;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a {@link RemotingClient}, validated once on construction. Immutable, thread-safe.
 *
 * @param ioThreads Netty I/O threads shared by all connections of the client
 * @param laneCount ordered lanes that run handlers of server-to-client requests
 * @param connectTimeoutMs TCP connect timeout
 * @param maxFrameBytes largest accepted frame, length field included
 * @param idleTimeoutMs a connection without reads or writes for this long is closed (and reopened on the next
 *                      call); 0 disables the check
 * @param preferEpoll use the native epoll transport when it is available, else NIO
 * @param tls whether and how connections use TLS
 * @param credentials when present, every request is signed with them (the broker's access control)
 */
public record ClientSettings(int ioThreads, int laneCount, long connectTimeoutMs, int maxFrameBytes,
                             long idleTimeoutMs, boolean preferEpoll, ClientTls tls,
                             Optional<Credentials> credentials) {

    /** Inbound (server-to-client) requests are rare; these marks only guard against a misbehaving server. */
    private static final FlowLimits FLOW_LIMITS = new FlowLimits(1024, 256, 64L * 1024 * 1024, 32L * 1024 * 1024);

    /** Validates every field; the exception names the bad value. */
    public ClientSettings {
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(credentials, "credentials");
        ServerSettings.requirePositive("ioThreads", ioThreads);
        ServerSettings.requirePositive("laneCount", laneCount);
        ServerSettings.requirePositive("connectTimeoutMs", connectTimeoutMs);
        if (connectTimeoutMs > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connectTimeoutMs " + connectTimeoutMs + " is too large");
        }
        FlowLimits.validate(maxFrameBytes, FLOW_LIMITS.highRequests(), FLOW_LIMITS.lowRequests(),
                FLOW_LIMITS.highBytes(), FLOW_LIMITS.lowBytes(), idleTimeoutMs);
    }

    /** Settings without TLS and without signing. */
    public ClientSettings(int ioThreads, int laneCount, long connectTimeoutMs, int maxFrameBytes, long idleTimeoutMs,
                          boolean preferEpoll) {
        this(ioThreads, laneCount, connectTimeoutMs, maxFrameBytes, idleTimeoutMs, preferEpoll, ClientTls.disabled(),
                Optional.empty());
    }

    /** Defaults: 1 I/O thread, 1 lane, connect timeout 3000 ms, 16 MiB frames, idle timeout 120 s, epoll, no TLS. */
    public static ClientSettings defaults() {
        return new ClientSettings(1, 1, 3000, FrameDescriptor.DEFAULT_MAX_FRAME_BYTES, 120_000, true);
    }

    /** A copy with other TLS settings. */
    public ClientSettings withTls(ClientTls value) {
        return new ClientSettings(ioThreads, laneCount, connectTimeoutMs, maxFrameBytes, idleTimeoutMs, preferEpoll,
                value, credentials);
    }

    /** A copy that signs every request with {@code value}, or with nothing when empty. */
    public ClientSettings withCredentials(Optional<Credentials> value) {
        return new ClientSettings(ioThreads, laneCount, connectTimeoutMs, maxFrameBytes, idleTimeoutMs, preferEpoll,
                tls, value);
    }

    FlowLimits flowLimits() {
        return FLOW_LIMITS;
    }
}
