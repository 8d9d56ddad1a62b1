package io.sluice.benchmark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.FrameDescriptor;
import io.sluice.remoting.protocol.FrameException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.SerializeType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode cost of one SEND_MESSAGE_V2-like frame (the 14 single-letter header fields of the V2 send
 * header, a 1 KiB body, an auto-batch's 33,000 bytes or a 256 KiB one) for each header serialization.
 * {@link #decodeBodyCopied}, {@link #decodeBodyStraddlingReads} and {@link #decodeBodyInFrame} compare the ways a
 * decoded body reaches the send handler: copied into an array (any code the transport does not keep), copied into a
 * pooled buffer released after use (a kept code whose frame straddles socket reads), or left in the (direct,
 * pooled) frame as a view that is released after use.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FrameCodecBenchmark {
    @Param({"JSON", "ROCKETMQ"})
    public String serializeType;

    @Param({"1024", "33000", "262144"})
    public int bodyBytes;

    private final FrameCodec codec = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES);
    private final FrameCodec inFrameCodec = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES,
            code -> code == RequestCode.SEND_MESSAGE_V2);
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private RemotingCommand command;
    private ByteBuf encoded;

    @Setup
    public void setUp() throws FrameException {
        command = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setOpaque(12345)
                .setSerializeType(SerializeType.valueOf(serializeType))
                .putExtField("a", "ProducerGroup_benchmark").putExtField("b", "RocketMQ-Benchmark-bcq")
                .putExtField("c", "TBW102").putExtField("d", "4").putExtField("e", "2").putExtField("f", "0")
                .putExtField("g", "1732185600000").putExtField("h", "0")
                .putExtField("i", "KEYS\u0001\u0002UNIQ_KEY\u00017F00000100002A9F0000000000000000\u0002WAIT\u0001true")
                .putExtField("j", "0").putExtField("k", "false").putExtField("l", "16").putExtField("m", "true")
                .putExtField("n", "broker-a")
                .setBody(new byte[bodyBytes]);
        encoded = codec.encode(command, allocator);
    }

    @TearDown
    public void tearDown() {
        encoded.release();
    }

    @Benchmark
    public int encode() throws FrameException {
        ByteBuf frame = codec.encode(command, allocator);
        int length = frame.readableBytes();
        frame.release();
        return length;
    }

    @Benchmark
    public RemotingCommand decode() throws FrameException {
        ByteBuf frame = encoded.duplicate();
        frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
        return codec.decode(frame);
    }

    @Benchmark
    public int decodeBodyCopied() throws FrameException {
        ByteBuf frame = encoded.duplicate();
        frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
        return codec.decode(frame).bodyView().remaining();
    }

    /** A kept-body code whose frame straddles socket reads: its body is copied into a pooled, held buffer. */
    @Benchmark
    public int decodeBodyStraddlingReads() throws FrameException {
        ByteBuf frame = encoded.duplicate();
        frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
        RemotingCommand decoded = inFrameCodec.decode(frame, false);
        int length = decoded.bodyView().remaining();
        decoded.releaseBody();
        return length;
    }

    @Benchmark
    public int decodeBodyInFrame() throws FrameException {
        ByteBuf frame = encoded.duplicate();
        frame.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
        RemotingCommand decoded = inFrameCodec.decode(frame);
        int length = decoded.bodyView().remaining();
        decoded.releaseBody();
        return length;
    }
}
