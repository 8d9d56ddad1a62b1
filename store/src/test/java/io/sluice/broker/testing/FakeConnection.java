package io.sluice.broker.testing;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.transport.ConnectionClosedException;
import io.sluice.remoting.transport.ConnectionContext;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A connection for handler and registry tests: records what the broker sends to the peer. Thread-safe. */
public final class FakeConnection implements ConnectionContext {

    private static final AtomicInteger IDS = new AtomicInteger();

    private final InetSocketAddress remote;
    private final String id = "fake-" + IDS.incrementAndGet();
    private final List<RemotingCommand> onewaySent = new CopyOnWriteArrayList<>();
    private volatile boolean active = true;
    private volatile Object attachment;
    /** How the peer answers requests the broker sends it; by default it cannot. */
    private volatile Function<RemotingCommand, CompletableFuture<RemotingCommand>> peer =
        request -> CompletableFuture.failedFuture(new UnsupportedOperationException("fake connection"));

    /** A connection from 127.0.0.1:{@code port}. */
    public FakeConnection(int port) {
        this.remote = new InetSocketAddress("127.0.0.1", port);
    }

    /** Oneway requests sent to the peer so far. */
    public List<RemotingCommand> onewaySent() {
        return onewaySent;
    }

    @Override
    public SocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public String remoteAddressText() {
        return "127.0.0.1:" + remote.getPort();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    /** Makes the peer answer the requests the broker sends it with {@code answers}. */
    public void answerRequests(Function<RemotingCommand, CompletableFuture<RemotingCommand>> answers) {
        peer = answers;
    }

    @Override
    public CompletableFuture<RemotingCommand> sendRequest(RemotingCommand request, long timeoutMs) {
        return peer.apply(request);
    }

    @Override
    public CompletableFuture<Void> sendOneway(RemotingCommand request) {
        if (!active) {
            return CompletableFuture.failedFuture(new ConnectionClosedException("closed"));
        }
        onewaySent.add(request);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() {
        active = false;
    }

    @Override
    public int inFlightRequests() {
        return 0;
    }

    @Override
    public boolean isReadPaused() {
        return false;
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public void attach(Object value) {
        attachment = value;
    }
}
