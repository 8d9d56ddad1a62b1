package io.sluice.remoting.transport;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.RemotingCommand;
import java.util.List;

/**
 * Encodes outbound commands into frames; large bodies are wrapped, not copied. A command that cannot be encoded
 * fails its write promise with an {@link io.netty.handler.codec.EncoderException}. Stateless, shared by all
 * channels of an endpoint.
 */
@ChannelHandler.Sharable
final class FrameEncoder extends MessageToMessageEncoder<RemotingCommand> {
    private final FrameCodec codec;

    FrameEncoder(FrameCodec codec) {
        super(RemotingCommand.class);
        this.codec = codec;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RemotingCommand command, List<Object> out) throws Exception {
        // A body in files is copied into the frame only while the connection takes what it is given (see the codec).
        out.add(codec.encode(command, ctx.alloc(), ctx.channel().isWritable()));
    }
}
