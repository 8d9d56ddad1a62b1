package io.sluice.remoting.transport;

import io.netty.channel.Channel;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * Puts TLS in front of a channel's pipeline: an {@link SslHandler}, or for a permissive server an
 * {@link OptionalSslHandler} that looks at the first bytes and installs the SslHandler only for a TLS client.
 * Immutable, thread-safe; the context is built once per endpoint.
 */
final class TlsPipeline {
    /** Name of the TLS handler in the pipeline. */
    static final String HANDLER_NAME = "tls";

    private static final TlsPipeline NONE = new TlsPipeline(Mode.NONE, null);

    private enum Mode { NONE, REQUIRED, OPTIONAL }

    private final Mode mode;
    /** Unused (null) in mode NONE only. */
    private final SslContext context;

    private TlsPipeline(Mode mode, SslContext context) {
        this.mode = mode;
        this.context = context;
    }

    static TlsPipeline forServer(ServerTls tls) {
        return switch (tls.mode()) {
            case DISABLED -> NONE;
            case PERMISSIVE -> new TlsPipeline(Mode.OPTIONAL, tls.newSslContext());
            case ENFORCING -> new TlsPipeline(Mode.REQUIRED, tls.newSslContext());
        };
    }

    static TlsPipeline forClient(ClientTls tls) {
        return tls.enabled() ? new TlsPipeline(Mode.REQUIRED, tls.newSslContext()) : NONE;
    }

    /** Adds the TLS handler, if any, first in {@code channel}'s pipeline. */
    void install(Channel channel) {
        switch (mode) {
            case NONE -> {
            }
            case REQUIRED -> channel.pipeline().addFirst(HANDLER_NAME, context.newHandler(channel.alloc()));
            case OPTIONAL -> channel.pipeline().addFirst(HANDLER_NAME, new OptionalSslHandler(context));
            default -> throw new IllegalStateException("unknown TLS mode " + mode);
        }
    }

    /** True when every channel gets an SslHandler (a client waits for its handshake before using a connection). */
    boolean handshakesAlways() {
        return mode == Mode.REQUIRED;
    }
}
