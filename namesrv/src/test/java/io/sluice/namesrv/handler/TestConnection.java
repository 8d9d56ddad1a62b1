package io.sluice.namesrv.handler;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.transport.ConnectionContext;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;

/** A connection that exists only as an identity: handlers never send on it in these tests. */
final class TestConnection implements ConnectionContext {

    private final String id;
    private boolean active = true;
    private Object attachment;

    TestConnection(String id) {
        this.id = id;
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 40000);
    }

    @Override
    public String remoteAddressText() {
        return "127.0.0.1:40000";
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public CompletableFuture<RemotingCommand> sendRequest(RemotingCommand request, long timeoutMs) {
        throw new UnsupportedOperationException("name-server handlers never send requests");
    }

    @Override
    public CompletableFuture<Void> sendOneway(RemotingCommand request) {
        throw new UnsupportedOperationException("name-server handlers never send requests");
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
