package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.sluice.remoting.protocol.Commands;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.FrameDescriptor;
import io.sluice.remoting.protocol.FrameException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.SerializeType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link FrameDecoder} over a byte stream cut at arbitrary points, as TCP reads cut it: every frame decodes to the
 * command that was encoded, in order, whether it arrives whole, in many pieces or several to a read, and every
 * buffer the channel was given is released (the decoder gathers pieces in a composite cumulation without copying
 * them, so a leaked or double-released piece would show here).
 */
class FrameDecoderPropertyTest {

    @Property(tries = 200)
    void framesCutAtAnyPointsDecodeToTheCommandsSent(@ForAll("commands") List<RemotingCommand> sent,
                                                     @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1,
                                                             max = 70_000) Integer> readSizes) throws FrameException {
        ByteArrayOutputStream concatenated = new ByteArrayOutputStream();
        List<Integer> frameBytes = new ArrayList<>();
        for (RemotingCommand command : sent) {
            byte[] frame = Commands.frameBytes(command);
            concatenated.writeBytes(frame);
            frameBytes.add(frame.length);
        }
        byte[] stream = concatenated.toByteArray();
        Endpoint endpoint = new Endpoint("decoder-test", FrameDescriptor.DEFAULT_MAX_FRAME_BYTES, 1,
                new FlowLimits(1_000, 500, 1L << 30, 1L << 29), 0);
        EmbeddedChannel channel = new EmbeddedChannel();
        Connection connection = new Connection(channel, endpoint, ImmediateEventExecutor.INSTANCE);
        channel.pipeline().addLast(new FrameDecoder(Commands.CODEC, connection, endpoint.counters,
                endpoint.badFrameLog));

        List<ByteBuf> fed = feed(channel, stream, readSizes);

        for (int i = 0; i < sent.size(); i++) {
            InboundCommand inbound = channel.readInbound();
            Commands.assertSameCommand(sent.get(i), inbound.command());
            assertEquals(frameBytes.get(i), inbound.frameBytes(), "frame bytes");
        }
        assertNull(channel.readInbound(), "no command beyond those sent");
        assertEquals(0, endpoint.counters.framesRejected.get());
        channel.finishAndReleaseAll();
        for (ByteBuf read : fed) {
            assertEquals(0, read.refCnt(), "a read buffer was not released");
        }
    }

    /**
     * With every request's body kept in its frame ({@link HandlerOptions#bodyInFrame()}) and held unreleased until
     * all frames are decoded: each body still reads as sent, a kept body pins only the one read buffer it lies in
     * (so the decoder keeps dropping the reads it is done with), and once the bodies are released every read is.
     */
    @Property(tries = 200)
    void keptBodiesPinOnlyTheirOwnReads(@ForAll("commands") List<RemotingCommand> sent,
                                        @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1,
                                                max = 70_000) Integer> readSizes) throws FrameException {
        ByteArrayOutputStream concatenated = new ByteArrayOutputStream();
        for (RemotingCommand command : sent) {
            concatenated.writeBytes(Commands.frameBytes(command));
        }
        byte[] stream = concatenated.toByteArray();
        Endpoint endpoint = new Endpoint("decoder-test", FrameDescriptor.DEFAULT_MAX_FRAME_BYTES, 1,
                new FlowLimits(1_000, 500, 1L << 30, 1L << 29), 0);
        EmbeddedChannel channel = new EmbeddedChannel();
        Connection connection = new Connection(channel, endpoint, ImmediateEventExecutor.INSTANCE);
        FrameCodec keeping = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES, code -> true);
        channel.pipeline().addLast(new FrameDecoder(keeping, connection, endpoint.counters, endpoint.badFrameLog));

        List<ByteBuf> fed = feed(channel, stream, readSizes);

        List<RemotingCommand> decoded = new ArrayList<>();
        int kept = 0;
        for (RemotingCommand expected : sent) {
            RemotingCommand command = ((InboundCommand) channel.readInbound()).command();
            ByteBuffer view = command.bodyView();
            byte[] body = new byte[view == null ? 0 : view.remaining()];
            if (view != null) {
                view.duplicate().get(body);
                kept += view.isDirect() ? 1 : 0;
            }
            assertArrayEquals(expected.body() == null ? new byte[0] : expected.body(), body);
            decoded.add(command);
        }
        // Identity, not equals: two reads of equal bytes are two reads.
        Set<ByteBuf> held = Collections.newSetFromMap(new IdentityHashMap<>());
        fed.stream().filter(read -> read.refCnt() > 0).forEach(held::add);
        long pinned = held.size();
        assertTrue(pinned <= kept, pinned + " reads still held by " + kept + " kept bodies");
        decoded.forEach(RemotingCommand::releaseBody);
        channel.finishAndReleaseAll();
        for (ByteBuf read : fed) {
            assertEquals(0, read.refCnt(), "a read buffer was not released");
        }
    }

    /** Writes {@code stream} into the channel in reads of the given sizes (cycled); returns the read buffers. */
    private static List<ByteBuf> feed(EmbeddedChannel channel, byte[] stream, List<Integer> readSizes) {
        List<ByteBuf> fed = new ArrayList<>();
        int at = 0;
        int cut = 0;
        while (at < stream.length) {
            int length = Math.min(readSizes.get(cut++ % readSizes.size()), stream.length - at);
            // Unpooled: a pooled ByteBuf object, once released, may come back as another buffer (a later read, or
            // one the decoder allocates), and would then be counted as a read still held.
            ByteBuf read = Unpooled.directBuffer(length);
            read.writeBytes(stream, at, length);
            fed.add(read);
            channel.writeInbound(read);
            at += length;
        }
        return fed;
    }

    /**
     * The codec tests' commands of either serialize type, with bodies that are mostly small and sometimes around
     * or above a typical read (64 KiB), as auto-batches send them.
     */
    @Provide
    Arbitrary<List<RemotingCommand>> commands() {
        Arbitrary<RemotingCommand> headers = Arbitraries.of(SerializeType.JSON, SerializeType.ROCKETMQ)
                .flatMap(Commands::commands);
        Arbitrary<Integer> bodySizes = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(0, 300)),
                Tuple.of(3, Arbitraries.integers().between(300, 40_000)),
                Tuple.of(1, Arbitraries.integers().between(60_000, 140_000)));
        return Combinators.combine(headers, bodySizes, Arbitraries.longs())
                .as((command, bodyBytes, seed) -> {
                    byte[] body = new byte[bodyBytes];
                    new Random(seed).nextBytes(body);
                    return command.setBody(body);
                }).list().ofMinSize(1).ofMaxSize(12);
    }
}
