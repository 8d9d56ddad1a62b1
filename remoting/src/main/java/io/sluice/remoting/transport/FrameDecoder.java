package io.sluice.remoting.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.FrameDescriptor;
import io.sluice.remoting.protocol.FrameException;
import io.sluice.remoting.protocol.RemotingCommand;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the inbound byte stream into frames and decodes them into {@link InboundCommand}s. A frame that cannot
 * be decoded closes the connection (two counters, and a log line within the endpoint's {@link LogLimiter}); later
 * bytes are discarded.
 *
 * <p>Received bytes are gathered in a composite cumulation: a read that ends inside a frame keeps its buffer, and
 * the next read's buffer is added beside it rather than copied onto it. With the default merging cumulation, an
 * auto-batch frame (about 33 KiB) that straddled two reads was copied once into the cumulation, often after the
 * cumulation had been reallocated to make room, before {@link FrameCodec#decode} copied its body again; the
 * composite leaves only that second copy, and a body kept in its frame ({@link HandlerOptions#bodyInFrame()}) that lies
 * within one read is not copied at all: it holds a slice of that read's buffer until its handler returns. Such a body
 * that straddles reads is copied into a pooled buffer, held and released the same way.
 *
 * <p>While the connection's reading is paused (in-flight water marks), already received frames stay in the
 * cumulation buffer undecoded, so no handler sees more than the high mark; {@link Connection} re-feeds the
 * decoder when it resumes. One instance per channel, used only on the channel's I/O thread.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(FrameDecoder.class);

    private final FrameCodec codec;
    private final Connection connection;
    private final RemotingCounters counters;
    private final LogLimiter logLimit;
    private boolean failed;

    FrameDecoder(FrameCodec codec, Connection connection, RemotingCounters counters, LogLimiter logLimit) {
        this.codec = codec;
        this.connection = connection;
        this.counters = counters;
        this.logLimit = logLimit;
        setCumulator(COMPOSITE_CUMULATOR);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (connection.isReadPaused() || in.readableBytes() < FrameDescriptor.LENGTH_FIELD_BYTES) {
            return;
        }
        int totalLength = in.getInt(in.readerIndex());
        try {
            codec.checkTotalLength(totalLength);
            if (in.readableBytes() < FrameDescriptor.LENGTH_FIELD_BYTES + totalLength) {
                return;
            }
            in.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
            ByteBuf piece = onePiece(in, totalLength);
            RemotingCommand command;
            if (piece != null) {
                in.skipBytes(totalLength);
                command = codec.decode(piece, true);
            } else {
                command = codec.decode(in.readSlice(totalLength), false);
            }
            out.add(new InboundCommand(command, FrameDescriptor.LENGTH_FIELD_BYTES + totalLength));
        } catch (FrameException e) {
            reject(ctx, in, e);
        }
    }

    /**
     * The next {@code length} bytes of {@code in} as a view of the one read buffer that holds them all, or null when
     * they straddle two. A body kept from such a view ({@link HandlerOptions#bodyInFrame()}) pins that read buffer
     * alone; kept from a slice of the cumulation it would pin the cumulation, which then could not drop the read
     * buffers it is done with while any kept body is unreleased.
     */
    private static ByteBuf onePiece(ByteBuf in, int length) {
        int from = in.readerIndex();
        if (!(in instanceof CompositeByteBuf composite)) {
            return in.slice(from, length);
        }
        int index = composite.toComponentIndex(from);
        int offset = from - composite.toByteIndex(index);
        ByteBuf component = composite.component(index); // shares the read buffer's reference count
        if (offset + length > component.readableBytes()) {
            return null;
        }
        return component.slice(component.readerIndex() + offset, length);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (connection.isReadPaused()) {
            // The base class would ask for another read when nothing was decoded and auto-read is off;
            // while paused, that would keep filling the cumulation buffer.
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    private void reject(ChannelHandlerContext ctx, ByteBuf in, FrameException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        counters.framesRejected.incrementAndGet();
        counters.connectionsClosedForBadInput.incrementAndGet();
        long suppressed = logLimit.admit();
        if (suppressed != LogLimiter.SUPPRESS) {
            log.warn("Closing connection {} from {}: bad frame: {}{}", connection.id(),
                    connection.remoteAddressText(), e.getMessage(), LogLimiter.suffix(suppressed));
        }
        ctx.close();
    }
}
