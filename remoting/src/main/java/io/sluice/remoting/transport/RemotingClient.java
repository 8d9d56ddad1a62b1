package io.sluice.remoting.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestSignature;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A RocketMQ-protocol client: one reused connection per "host:port", requests matched to responses by opaque,
 * per-call timeouts, oneway calls, and handlers for requests the server sends to the client (e.g.
 * NOTIFY_CONSUMER_IDS_CHANGED; unknown codes are answered REQUEST_CODE_NOT_SUPPORTED unless oneway). With
 * {@link ClientSettings#credentials()}, every request is signed as the Apache client's ACL hook signs it.
 *
 * <p>Futures complete on a Netty I/O thread: dependent stages must not block (use the *Async variants with an
 * executor for slow work). Thread-safe.
 */
public final class RemotingClient implements AutoCloseable {
    private static final AttributeKey<Connection> CONNECTION = AttributeKey.valueOf("sluice.connection");
    private static final long SHUTDOWN_TIMEOUT_MS = 5_000;

    private final Endpoint endpoint;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Optional<Credentials> credentials;
    private final ConcurrentHashMap<String, CompletableFuture<Connection>> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public RemotingClient(ClientSettings settings) {
        NettyTransport transport = NettyTransport.choose(settings.preferEpoll());
        this.credentials = settings.credentials();
        this.endpoint = new Endpoint("sluice-client", settings.maxFrameBytes(), settings.laneCount(),
                settings.flowLimits(), settings.idleTimeoutMs(), TlsPipeline.forClient(settings.tls()));
        this.group = transport.newGroup(settings.ioThreads(), "sluice-client-io");
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeoutMs())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.attr(CONNECTION).set(endpoint.initChannel(channel));
                    }
                });
    }

    /** Runs {@code handler} on the connection's lane for server-to-client requests with {@code code}. */
    public void registerHandler(int code, RequestHandler handler) {
        registerHandler(code, handler, HandlerOptions.LANE);
    }

    /** Runs {@code handler} for server-to-client requests with {@code code} as {@code options} say. */
    public void registerHandler(int code, RequestHandler handler, HandlerOptions options) {
        endpoint.handlers.register(code, handler, options);
    }

    /** Adds a listener told about every connection that opens or closes from now on. */
    public void addConnectionListener(ConnectionListener listener) {
        endpoint.addListener(listener);
    }

    /**
     * The open connection to {@code address} ("host:port"), connecting if there is none. Fails with
     * {@link RemotingConnectException}; an invalid address fails with {@link IllegalArgumentException}.
     */
    public CompletableFuture<ConnectionContext> connect(String address) {
        return connection(address).thenApply(connection -> connection);
    }

    /**
     * Sends {@code request} to {@code address} and returns its response. {@code timeoutMs} covers connecting
     * too. Fails with {@link RemotingTimeoutException}, {@link RemotingConnectException} or
     * {@link ConnectionClosedException}; the transport assigns the request's opaque.
     */
    public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
        if (timeoutMs <= 0) {
            request.releaseBody();
            throw new IllegalArgumentException("timeoutMs must be positive, was " + timeoutMs);
        }
        sign(request);
        CompletableFuture<Connection> connecting = connection(address);
        if (connecting.isDone() && !connecting.isCompletedExceptionally()) {
            return connecting.join().sendRequest(request, timeoutMs); // connected: no connect timer, no extra stage
        }
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        CompletableFuture<RemotingCommand> result = new CompletableFuture<>();
        connecting.copy().orTimeout(timeoutMs, TimeUnit.MILLISECONDS).whenComplete((connection, error) -> {
            if (error != null) {
                request.releaseBody();
                result.completeExceptionally(translate(error, address, request, timeoutMs));
                return;
            }
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (leftMs <= 0) {
                request.releaseBody();
                result.completeExceptionally(timeout(address, request, timeoutMs));
                return;
            }
            connection.sendRequest(request, leftMs).whenComplete((response, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(unwrap(failure));
                } else {
                    result.complete(response);
                }
            });
        });
        return result;
    }

    /** Sends {@code request} marked oneway; the future completes when it is written. */
    public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
        sign(request);
        CompletableFuture<Void> result = new CompletableFuture<>();
        connection(address).whenComplete((connection, error) -> {
            if (error != null) {
                request.releaseBody();
                result.completeExceptionally(unwrap(error));
                return;
            }
            connection.sendOneway(request).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(unwrap(failure));
                } else {
                    result.complete(null);
                }
            });
        });
        return result;
    }

    /** With credentials, adds AccessKey and Signature; the request must not change afterwards. */
    private void sign(RemotingCommand request) {
        credentials.ifPresent(c -> RequestSignature.signInPlace(request, c.accessKey(), c.secretKey()));
    }

    /** Closes the connection to {@code address}, if any; the next call reconnects. */
    public void closeConnection(String address) {
        CompletableFuture<Connection> existing = connections.remove(address);
        if (existing != null) {
            existing.thenAccept(Connection::close);
        }
    }

    public RemotingCounters counters() {
        return endpoint.counters;
    }

    /** Closes every connection (outstanding calls fail) and stops the I/O threads and lanes. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (Connection connection : endpoint.liveConnections()) {
            connection.channel().close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
        }
        connections.clear();
        endpoint.lanes.shutdown(SHUTDOWN_TIMEOUT_MS);
        group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
    }

    private CompletableFuture<Connection> connection(String address) {
        if (closed) {
            return CompletableFuture.failedFuture(new ConnectionClosedException("client is closed"));
        }
        while (true) {
            CompletableFuture<Connection> existing = connections.get(address);
            if (existing != null) {
                if (!existing.isDone() || !existing.isCompletedExceptionally() && existing.join().isActive()) {
                    return existing;
                }
                connections.remove(address, existing);
                continue;
            }
            CompletableFuture<Connection> created = new CompletableFuture<>();
            if (connections.putIfAbsent(address, created) == null) {
                open(address, created);
                return created;
            }
        }
    }

    private void open(String address, CompletableFuture<Connection> created) {
        InetSocketAddress target;
        try {
            target = parseAddress(address);
        } catch (IllegalArgumentException e) {
            connections.remove(address, created);
            created.completeExceptionally(e);
            return;
        }
        ChannelFuture connecting = bootstrap.connect(target);
        connecting.addListener(done -> {
            Channel channel = connecting.channel();
            if (done.isSuccess()) {
                channel.closeFuture().addListener(ignored -> connections.remove(address, created));
                if (endpoint.tls.handshakesAlways()) {
                    awaitHandshake(address, channel, created);
                } else {
                    created.complete(channel.attr(CONNECTION).get());
                }
            } else {
                connections.remove(address, created);
                created.completeExceptionally(new RemotingConnectException("cannot connect to " + address,
                        done.cause()));
            }
        });
    }

    /** Completes {@code created} when the TLS handshake succeeds; a failed handshake fails it, naming the cause. */
    private void awaitHandshake(String address, Channel channel, CompletableFuture<Connection> created) {
        SslHandler tls = (SslHandler) channel.pipeline().get(TlsPipeline.HANDLER_NAME);
        tls.handshakeFuture().addListener(handshake -> {
            if (handshake.isSuccess()) {
                created.complete(channel.attr(CONNECTION).get());
            } else {
                connections.remove(address, created);
                channel.close();
                created.completeExceptionally(new RemotingConnectException("TLS handshake with " + address
                        + " failed: " + handshake.cause(), handshake.cause()));
            }
        });
    }

    /** Parses "host:port" or "[v6-address]:port". */
    static InetSocketAddress parseAddress(String address) {
        int colon = address == null ? -1 : address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("address must be host:port, was '" + address + "'");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address must be host:port, was '" + address + "'", e);
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port of address '" + address + "' outside 1..65535");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    private static Throwable translate(Throwable error, String address, RemotingCommand request, long timeoutMs) {
        Throwable cause = unwrap(error);
        return cause instanceof TimeoutException ? timeout(address, request, timeoutMs) : cause;
    }

    private static RemotingTimeoutException timeout(String address, RemotingCommand request, long timeoutMs) {
        return new RemotingTimeoutException("no response from " + address + " to request code " + request.code()
                + " within " + timeoutMs + " ms (connecting)");
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
