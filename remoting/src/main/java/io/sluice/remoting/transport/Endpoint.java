package io.sluice.remoting.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.sluice.remoting.protocol.FrameCodec;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a server and a client share: codec, counters, handlers, lanes, the opaque sequence for outbound
 * requests, listeners and the set of live connections. Builds the channel pipeline. Thread-safe.
 */
final class Endpoint {
    private static final Logger log = LoggerFactory.getLogger(Endpoint.class);
    /** Flushes are batched up to this many writes while a read is in progress. */
    private static final int EXPLICIT_FLUSHES_BEFORE_FLUSH = 64;

    final String name;
    final FrameCodec codec;
    final FrameEncoder encoder;
    final RemotingCounters counters = new RemotingCounters();
    final HandlerRegistry handlers = new HandlerRegistry(counters);
    /** Bounds the lines about connections closed for bad frames, over all connections. */
    final LogLimiter badFrameLog = LogLimiter.standard(counters);
    /** Bounds the lines about SYSTEM_ERROR answers, over all connections. */
    final LogLimiter systemErrorLog = LogLimiter.standard(counters);
    final Lanes lanes;
    final FlowLimits limits;
    private final long idleTimeoutMs;
    final TlsPipeline tls;
    /** Checked before every inbound request's handler; replaced by the owner, read by the I/O threads. */
    volatile RequestGate gate = RequestGate.OPEN;
    private final AtomicInteger opaques = new AtomicInteger();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final Set<Connection> live = ConcurrentHashMap.newKeySet();

    /** An endpoint without TLS. */
    Endpoint(String name, int maxFrameBytes, int laneCount, FlowLimits limits, long idleTimeoutMs) {
        this(name, maxFrameBytes, laneCount, limits, idleTimeoutMs, TlsPipeline.forClient(ClientTls.disabled()));
    }

    Endpoint(String name, int maxFrameBytes, int laneCount, FlowLimits limits, long idleTimeoutMs,
             TlsPipeline tls) {
        this.name = name;
        this.codec = new FrameCodec(maxFrameBytes, code -> handlers.lookup(code).options().bodyInFrame());
        this.encoder = new FrameEncoder(codec);
        this.lanes = new Lanes(name + "-lane", laneCount);
        this.limits = limits;
        this.idleTimeoutMs = idleTimeoutMs;
        this.tls = tls;
    }

    /** Installs the pipeline on a new channel and returns its connection. */
    Connection initChannel(Channel channel) {
        Connection connection = new Connection(channel, this, lanes.pin());
        ChannelPipeline pipeline = channel.pipeline();
        if (idleTimeoutMs > 0) {
            pipeline.addLast("idle", new IdleStateHandler(0, 0, idleTimeoutMs, TimeUnit.MILLISECONDS));
        }
        pipeline.addLast("flush", new FlushConsolidationHandler(EXPLICIT_FLUSHES_BEFORE_FLUSH, true));
        pipeline.addLast("decoder", new FrameDecoder(codec, connection, counters, badFrameLog));
        pipeline.addLast("encoder", encoder);
        pipeline.addLast("inbound", new InboundHandler(connection));
        tls.install(channel);
        return connection;
    }

    int nextOpaque() {
        return opaques.incrementAndGet();
    }

    void addListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    Set<Connection> liveConnections() {
        return live;
    }

    void onConnected(Connection connection) {
        live.add(connection);
        counters.connectionsOpened.incrementAndGet();
        for (ConnectionListener listener : listeners) {
            try {
                listener.onConnected(connection);
            } catch (RuntimeException e) {
                log.warn("{}: connection listener failed on connect of {}", name, connection.id(), e);
            }
        }
    }

    void onClosed(Connection connection) {
        live.remove(connection);
        counters.connectionsClosed.incrementAndGet();
        for (ConnectionListener listener : listeners) {
            try {
                listener.onClosed(connection);
            } catch (RuntimeException e) {
                log.warn("{}: connection listener failed on close of {}", name, connection.id(), e);
            }
        }
    }
}
