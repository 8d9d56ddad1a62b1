package io.sluice.benchmark.client;

import io.sluice.client.Message;
import io.sluice.client.internal.BatchEntryWriter;
import io.sluice.client.internal.EncodedMessage;
import io.sluice.format.UniqKeyGenerator;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageDecoder;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of building a message and turning it into its batch entry, with a fresh UNIQ_KEY, tag and keys: the Sluice
 * client's encoder against the Apache client's ({@code MessageClientIDSetter.setUniqID} +
 * {@code MessageDecoder.encodeMessage}, what its auto-batching does per message) in the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EncodeBenchmark {
    @Param({"100", "1024"})
    public int bodyBytes;

    private UniqKeyGenerator keys;
    private byte[] body;

    @Setup
    public void setUp() {
        keys = UniqKeyGenerator.forProcess(new byte[] {127, 0, 0, 1});
        body = new byte[bodyBytes];
    }

    @Benchmark
    public EncodedMessage sluiceEncode() {
        Message sluice = Message.builder("BenchTopic", body).tags("TagA").keys("order-1").build();
        return BatchEntryWriter.encode(sluice, keys);
    }

    @Benchmark
    public byte[] apacheEncode() {
        org.apache.rocketmq.common.message.Message apache =
                new org.apache.rocketmq.common.message.Message("BenchTopic", "TagA", "order-1", body);
        MessageClientIDSetter.setUniqID(apache);
        return MessageDecoder.encodeMessage(apache);
    }
}
