package io.sluice.remoting.transport;

import io.netty.channel.Channel;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.function.Supplier;

/**
 * Puts TLS in front of a channel's pipeline: an {@link SslHandler}, or for a permissive server an
 * {@link OptionalSslHandler} that looks at the first bytes and installs the SslHandler only for a TLS client.
 * Immutable, thread-safe; a client's context is built once, a server's follows its files
 * ({@link ReloadingServerContext}).
 */
final class TlsPipeline {
    /** Name of the TLS handler in the pipeline. */
    static final String HANDLER_NAME = "tls";

    private static final TlsPipeline NONE = new TlsPipeline(Mode.NONE, null);

    private enum Mode { NONE, REQUIRED, OPTIONAL }

    private final Mode mode;
    /** The context for a new channel; unused (null) in mode NONE only. */
    private final Supplier<SslContext> contexts;

    private TlsPipeline(Mode mode, Supplier<SslContext> contexts) {
        this.mode = mode;
        this.contexts = contexts;
    }

    static TlsPipeline forServer(ServerTls tls) {
        return switch (tls.mode()) {
            case DISABLED -> NONE;
            case PERMISSIVE -> new TlsPipeline(Mode.OPTIONAL, new ReloadingServerContext(tls));
            case ENFORCING -> new TlsPipeline(Mode.REQUIRED, new ReloadingServerContext(tls));
        };
    }

    static TlsPipeline forClient(ClientTls tls) {
        if (!tls.enabled()) {
            return NONE;
        }
        SslContext context = tls.newSslContext();
        return new TlsPipeline(Mode.REQUIRED, () -> context);
    }

    /** Adds the TLS handler, if any, first in {@code channel}'s pipeline. */
    void install(Channel channel) {
        switch (mode) {
            case NONE -> {
            }
            case REQUIRED -> channel.pipeline().addFirst(HANDLER_NAME, contexts.get().newHandler(channel.alloc()));
            case OPTIONAL -> channel.pipeline().addFirst(HANDLER_NAME, new OptionalSslHandler(contexts.get()));
            default -> throw new IllegalStateException("unknown TLS mode " + mode);
        }
    }

    /** True when every channel gets an SslHandler (a client waits for its handshake before using a connection). */
    boolean handshakesAlways() {
        return mode == Mode.REQUIRED;
    }
}
