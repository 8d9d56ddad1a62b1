package io.sluice.remoting.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;

/**
 * A fresh {@link SSLEngine} per connection for a protocol that runs on plain sockets rather than this transport
 * (the broker's HA channel), from the same validated settings and contexts the transport's TLS uses: a server's
 * follows its certificate files and asks for client certificates as {@link ServerTls} says; a client's trusts and
 * presents what {@link ClientTls} says. Immutable, thread-safe.
 */
public final class TlsEngines implements Supplier<SSLEngine> {

    private final Supplier<SslContext> contexts;

    private TlsEngines(Supplier<SslContext> contexts) {
        this.contexts = contexts;
    }

    /**
     * Server-mode engines; the certificate files are read now (and again when they change).
     *
     * @throws IllegalArgumentException when {@code tls} is disabled
     * @throws IllegalStateException    naming the files when they cannot be loaded
     */
    public static TlsEngines forServer(ServerTls tls) {
        if (tls.mode() == TlsMode.DISABLED) {
            throw new IllegalArgumentException("TLS is disabled: no server engines");
        }
        return new TlsEngines(new ReloadingServerContext(tls));
    }

    /**
     * Client-mode engines; the files are read now.
     *
     * @throws IllegalArgumentException when {@code tls} is disabled
     * @throws IllegalStateException    naming the files when they cannot be loaded
     */
    public static TlsEngines forClient(ClientTls tls) {
        if (!tls.enabled()) {
            throw new IllegalArgumentException("TLS is disabled: no client engines");
        }
        SslContext context = tls.newSslContext();
        return new TlsEngines(() -> context);
    }

    /** A new engine for one connection, in the context's mode (server or client). */
    @Override
    public SSLEngine get() {
        return contexts.get().newEngine(ByteBufAllocator.DEFAULT);
    }
}
