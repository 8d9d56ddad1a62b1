package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.FrameDescriptor;
import io.sluice.remoting.protocol.FrameException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.SerializeType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
    private static final FrameCodec CODEC = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES);

    @Property(tries = 200)
    void framesCutAtAnyPointsDecodeToTheCommandsSent(@ForAll("commands") List<RemotingCommand> sent,
                                                     @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1,
                                                             max = 70_000) Integer> readSizes) throws FrameException {
        byte[] stream = concatenatedFrames(sent);
        Endpoint endpoint = new Endpoint("decoder-test", FrameDescriptor.DEFAULT_MAX_FRAME_BYTES, 1,
                new FlowLimits(1_000, 500, 1L << 30, 1L << 29), 0);
        EmbeddedChannel channel = new EmbeddedChannel();
        Connection connection = new Connection(channel, endpoint, ImmediateEventExecutor.INSTANCE);
        channel.pipeline().addLast(new FrameDecoder(CODEC, connection, endpoint.counters));

        List<ByteBuf> fed = new ArrayList<>();
        int at = 0;
        int cut = 0;
        while (at < stream.length) {
            int length = Math.min(readSizes.get(cut++ % readSizes.size()), stream.length - at);
            ByteBuf read = PooledByteBufAllocator.DEFAULT.directBuffer(length);
            read.writeBytes(stream, at, length);
            fed.add(read);
            channel.writeInbound(read);
            at += length;
        }

        for (RemotingCommand expected : sent) {
            InboundCommand inbound = channel.readInbound();
            RemotingCommand actual = inbound.command();
            assertEquals(expected.code(), actual.code(), "code");
            assertEquals(expected.opaque(), actual.opaque(), "opaque");
            assertEquals(expected.serializeType(), actual.serializeType(), "serializeType");
            assertEquals(expected.extFields(), actual.extFields(), "extFields");
            assertArrayEquals(expected.body(), actual.body(), "body");
            assertEquals(FrameDescriptor.LENGTH_FIELD_BYTES + frameLength(expected), inbound.frameBytes());
        }
        assertNull(channel.readInbound(), "no command beyond those sent");
        assertEquals(0, endpoint.counters.framesRejected.get());
        channel.finishAndReleaseAll();
        for (ByteBuf read : fed) {
            assertEquals(0, read.refCnt(), "a read buffer was not released");
        }
    }

    @Provide
    Arbitrary<List<RemotingCommand>> commands() {
        Arbitrary<Integer> codes = Arbitraries.integers().between(0, 400);
        Arbitrary<Integer> opaques = Arbitraries.integers();
        Arbitrary<SerializeType> types = Arbitraries.of(SerializeType.JSON, SerializeType.ROCKETMQ);
        Arbitrary<String> values = Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(40);
        // Mostly small bodies, some around and above a typical read (64 KiB), as auto-batches send them.
        Arbitrary<Integer> bodySizes = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(0, 300)),
                Tuple.of(3, Arbitraries.integers().between(300, 40_000)),
                Tuple.of(1, Arbitraries.integers().between(60_000, 140_000)));
        return Combinators.combine(codes, opaques, types, values, bodySizes, Arbitraries.integers())
                .as((code, opaque, type, value, bodyBytes, seed) -> {
                    byte[] body = new byte[bodyBytes];
                    new Random(seed).nextBytes(body);
                    return RemotingCommand.request(code).setOpaque(opaque).setSerializeType(type)
                            .putExtField("topic", value).putExtField("queueId", bodyBytes).setBody(body);
                }).list().ofMinSize(1).ofMaxSize(12);
    }

    private static byte[] concatenatedFrames(List<RemotingCommand> commands) throws FrameException {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (RemotingCommand command : commands) {
            ByteBuf frame = CODEC.encode(command, ByteBufAllocator.DEFAULT);
            try {
                stream.writeBytes(ByteBufUtil.getBytes(frame));
            } finally {
                frame.release();
            }
        }
        return stream.toByteArray();
    }

    private static int frameLength(RemotingCommand command) throws FrameException {
        ByteBuf frame = CODEC.encode(command, ByteBufAllocator.DEFAULT);
        try {
            return frame.readableBytes() - FrameDescriptor.LENGTH_FIELD_BYTES;
        } finally {
            frame.release();
        }
    }
}
