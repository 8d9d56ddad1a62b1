package io.sluice.remoting.transport;

import io.sluice.remoting.protocol.FrameDescriptor;
import java.util.Objects;

/**
 * Settings of a {@link RemotingServer}, validated once on construction. Immutable, thread-safe.
 *
 * @param bindAddress address to listen on, e.g. "0.0.0.0" or "127.0.0.1"
 * @param port port to listen on; 0 picks a free port (see {@link RemotingServer#port()})
 * @param ioThreads Netty I/O threads that read, decode and write
 * @param laneCount ordered lanes that run handlers; each connection is pinned to one lane
 * @param maxFrameBytes largest accepted frame, length field included
 * @param highWaterMarkRequests in-flight requests of one connection at which the server stops reading it
 * @param lowWaterMarkRequests in-flight requests at or below which reading resumes (with the byte mark)
 * @param highWaterMarkBytes in-flight request bytes of one connection at which the server stops reading it
 * @param lowWaterMarkBytes in-flight request bytes at or below which reading resumes (with the request mark)
 * @param idleTimeoutMs a connection without reads or writes for this long is closed; 0 disables the check
 * @param preferEpoll use the native epoll transport when it is available, else NIO
 * @param tls whether and how connections use TLS
 */
public record ServerSettings(String bindAddress, int port, int ioThreads, int laneCount, int maxFrameBytes,
                             int highWaterMarkRequests, int lowWaterMarkRequests, long highWaterMarkBytes,
                             long lowWaterMarkBytes, long idleTimeoutMs, boolean preferEpoll, ServerTls tls) {

    /** Validates every field; the exception names the bad value. */
    public ServerSettings {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must be set, was '" + bindAddress + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " outside 0..65535");
        }
        Objects.requireNonNull(tls, "tls");
        requirePositive("ioThreads", ioThreads);
        requirePositive("laneCount", laneCount);
        FlowLimits.validate(maxFrameBytes, highWaterMarkRequests, lowWaterMarkRequests, highWaterMarkBytes,
                lowWaterMarkBytes, idleTimeoutMs);
    }

    /** A builder with the defaults: 0.0.0.0:10911, 2 I/O threads, 4 lanes, 16 MiB frames, marks 4096/1024 and
     * 64/32 MiB, idle timeout 120 s, epoll when available, no TLS. */
    public static Builder builder() {
        return new Builder();
    }

    FlowLimits flowLimits() {
        return new FlowLimits(highWaterMarkRequests, lowWaterMarkRequests, highWaterMarkBytes, lowWaterMarkBytes);
    }

    static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** Mutable builder of {@link ServerSettings}; not thread-safe. */
    public static final class Builder {
        private String bindAddress = "0.0.0.0";
        private int port = 10911;
        private int ioThreads = 2;
        private int laneCount = 4;
        private int maxFrameBytes = FrameDescriptor.DEFAULT_MAX_FRAME_BYTES;
        private int highWaterMarkRequests = 4096;
        private int lowWaterMarkRequests = 1024;
        private long highWaterMarkBytes = 64L * 1024 * 1024;
        private long lowWaterMarkBytes = 32L * 1024 * 1024;
        private long idleTimeoutMs = 120_000;
        private boolean preferEpoll = true;
        private ServerTls tls = ServerTls.disabled();

        private Builder() {
        }

        public Builder bindAddress(String value) {
            bindAddress = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        public Builder ioThreads(int value) {
            ioThreads = value;
            return this;
        }

        public Builder laneCount(int value) {
            laneCount = value;
            return this;
        }

        public Builder maxFrameBytes(int value) {
            maxFrameBytes = value;
            return this;
        }

        /** Both request-count marks: stop reading at {@code high}, resume at or below {@code low}. */
        public Builder waterMarkRequests(int low, int high) {
            lowWaterMarkRequests = low;
            highWaterMarkRequests = high;
            return this;
        }

        /** Both byte marks: stop reading at {@code high}, resume at or below {@code low}. */
        public Builder waterMarkBytes(long low, long high) {
            lowWaterMarkBytes = low;
            highWaterMarkBytes = high;
            return this;
        }

        public Builder idleTimeoutMs(long value) {
            idleTimeoutMs = value;
            return this;
        }

        public Builder preferEpoll(boolean value) {
            preferEpoll = value;
            return this;
        }

        public Builder tls(ServerTls value) {
            tls = value;
            return this;
        }

        public ServerSettings build() {
            return new ServerSettings(bindAddress, port, ioThreads, laneCount, maxFrameBytes, highWaterMarkRequests,
                    lowWaterMarkRequests, highWaterMarkBytes, lowWaterMarkBytes, idleTimeoutMs, preferEpoll, tls);
        }
    }
}
