package io.sluice.remoting.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RocketMQ-protocol server on Netty (epoll when available, else NIO).
 *
 * <p>I/O threads read and decode frames; every connection is pinned to one ordered lane that runs its requests'
 * handlers one after the other in arrival order, without waiting for the handlers' futures; responses are
 * written when those futures complete, in any order. In-flight requests of a connection are bounded by count
 * and bytes ({@link ServerSettings}): reading stops at a high mark and resumes at the low marks. Unknown codes
 * get REQUEST_CODE_NOT_SUPPORTED; handler failures get SYSTEM_ERROR; a request of a code whose
 * {@link QueueBound} is full gets SYSTEM_BUSY without waiting; a frame that cannot be decoded closes its
 * connection only. TLS, when {@link ServerSettings#tls()} enables it, sits in front of everything else.
 *
 * <p>Thread-safe. Register handlers and listeners before {@link #start()} (later registrations apply to later
 * requests); {@link #close()} stops everything.
 */
public final class RemotingServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RemotingServer.class);
    private static final long SHUTDOWN_TIMEOUT_MS = 5_000;

    private final ServerSettings settings;
    private final NettyTransport transport;
    private final Endpoint endpoint;
    private EventLoopGroup acceptGroup;
    private EventLoopGroup ioGroup;
    private Channel serverChannel;
    private boolean started;
    private boolean closed;

    public RemotingServer(ServerSettings settings) {
        this.settings = settings;
        this.transport = NettyTransport.choose(settings.preferEpoll());
        this.endpoint = new Endpoint("sluice-server", settings.maxFrameBytes(), settings.laneCount(),
                settings.flowLimits(), settings.idleTimeoutMs(), TlsPipeline.forServer(settings.tls()));
    }

    /** Runs {@code handler} on the connection's lane for requests with {@code code}. */
    public void registerHandler(int code, RequestHandler handler) {
        registerHandler(code, handler, HandlerOptions.LANE);
    }

    /** Runs {@code handler} for requests with {@code code} as {@code options} say. */
    public void registerHandler(int code, RequestHandler handler, HandlerOptions options) {
        endpoint.handlers.register(code, handler, options);
    }

    /** Handles codes without a registered handler (otherwise answered REQUEST_CODE_NOT_SUPPORTED). */
    public void registerDefaultHandler(RequestHandler handler, HandlerOptions options) {
        endpoint.handlers.registerDefault(handler, options);
    }

    /**
     * Makes every later request pass {@code gate} before its handler is looked up (replacing the previous gate;
     * the default lets everything through).
     */
    public void setRequestGate(RequestGate gate) {
        endpoint.gate = Objects.requireNonNull(gate, "gate");
    }

    /** Adds a listener told about every connection that opens or closes from now on. */
    public void addConnectionListener(ConnectionListener listener) {
        endpoint.addListener(listener);
    }

    /**
     * Binds and starts accepting connections.
     *
     * @throws IllegalStateException when already started or closed, or when binding fails (message names the
     *     address)
     */
    public synchronized void start() {
        if (started || closed) {
            throw new IllegalStateException("server already " + (closed ? "closed" : "started"));
        }
        started = true;
        acceptGroup = transport.newGroup(1, "sluice-server-accept");
        ioGroup = transport.newGroup(settings.ioThreads(), "sluice-server-io");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptGroup, ioGroup)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, false)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        endpoint.initChannel(channel);
                    }
                });
        InetSocketAddress address = new InetSocketAddress(settings.bindAddress(), settings.port());
        try {
            serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutdownGroups();
            throw new IllegalStateException("cannot listen on " + address + ": " + e, e);
        }
        log.info("Remoting server listening on {} ({}, TLS {})", serverChannel.localAddress(),
                transport.epoll() ? "epoll" : "nio", settings.tls().mode().text());
    }

    /** The bound address; valid after {@link #start()}. */
    public synchronized InetSocketAddress localAddress() {
        if (serverChannel == null) {
            throw new IllegalStateException("server not started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The bound port (the chosen one when the settings say 0); valid after {@link #start()}. */
    public int port() {
        return localAddress().getPort();
    }

    /** True when the native epoll transport is in use. */
    public boolean usesEpoll() {
        return transport.epoll();
    }

    public RemotingCounters counters() {
        return endpoint.counters;
    }

    /** The currently open connections (a snapshot). */
    public List<ConnectionContext> connections() {
        return List.copyOf(endpoint.liveConnections());
    }

    /** Stops listening, closes every connection, then stops the lanes and the I/O threads. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        }
        for (Connection connection : endpoint.liveConnections()) {
            connection.channel().close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        }
        endpoint.lanes.shutdown(SHUTDOWN_TIMEOUT_MS);
        shutdownGroups();
        log.info("Remoting server stopped; {}", endpoint.counters);
    }

    private void shutdownGroups() {
        for (EventLoopGroup group : new EventLoopGroup[] {acceptGroup, ioGroup}) {
            if (group != null) {
                group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
            }
        }
    }
}
