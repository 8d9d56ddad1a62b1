package io.sluice.remoting.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Last inbound handler of a channel: passes decoded commands and lifecycle events to the {@link Connection},
 * closes idle connections and connections that fail. One instance per channel, used on its I/O thread.
 */
final class InboundHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(InboundHandler.class);

    private final Connection connection;

    InboundHandler(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connection.onActive();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        connection.onInactive();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.onInbound((InboundCommand) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        connection.onReadComplete();
        super.channelReadComplete(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            log.info("Closing idle connection {} to {}", connection.id(), connection.remoteAddressText());
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable error) {
        // A TLS failure (e.g. a plain client on a TLS-only port) arrives wrapped by the decoder; it is the peer's.
        Throwable cause = error instanceof DecoderException && error.getCause() instanceof SSLException
                ? error.getCause() : error;
        if (cause instanceof IOException) {
            log.debug("Connection {} to {} failed: {}", connection.id(), connection.remoteAddressText(),
                    cause.toString());
        } else {
            log.warn("Closing connection {} to {} after an unexpected error", connection.id(),
                    connection.remoteAddressText(), cause);
        }
        ctx.close();
    }
}
