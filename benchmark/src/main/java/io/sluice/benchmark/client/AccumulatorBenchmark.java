package io.sluice.benchmark.client;

import io.sluice.client.Message;
import io.sluice.client.SendResult;
import io.sluice.client.SendStatus;
import io.sluice.client.internal.Accumulator;
import io.sluice.client.internal.BatchEntryWriter;
import io.sluice.client.internal.BatchMemory;
import io.sluice.client.internal.CallbackTeller;
import io.sluice.client.internal.SendJob;
import io.sluice.format.UniqKeyGenerator;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the auto-batch accumulator alone: measure a message, reserve its memory, write it into its
 * batch's body; full batches are "sent" to a sink that completes every message at once (as an instant broker
 * would), which gives the memory back. Measured with 1 and 8 sending threads sharing one accumulator (one batch
 * key, the contended case).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AccumulatorBenchmark {
    @Param({"100", "1024"})
    public int bodyBytes;

    private static final SendResult RESULT = new SendResult(SendStatus.SEND_OK, "id", "offsetId",
            new MessageQueue("T", "b", 0), 0, null);

    private Accumulator accumulator;
    private UniqKeyGenerator keys;
    private Message message;

    @Setup
    public void setUp() {
        keys = UniqKeyGenerator.forProcess(new byte[] {127, 0, 0, 1});
        accumulator = new Accumulator(32 * 1024, 4 * 1024 * 1024, 10, false, 3000,
                new BatchMemory(32L * 1024 * 1024), keys, new CallbackTeller(), AccumulatorBenchmark::completeAtOnce,
                "bench-linger");
        message = Message.of("BenchTopic", new byte[bodyBytes]);
    }

    @TearDown
    public void tearDown() {
        accumulator.close();
    }

    private static void completeAtOnce(SendJob job) {
        job.succeeded(Collections.nCopies(job.uniqKeys().size(), RESULT));
    }

    @Benchmark
    @Threads(1)
    public CompletableFuture<SendResult> addOneThread() {
        return accumulator.add(message, BatchEntryWriter.propertiesBytes(message, keys.keyChars()), null);
    }

    @Benchmark
    @Threads(8)
    public CompletableFuture<SendResult> addEightThreads() {
        return accumulator.add(message, BatchEntryWriter.propertiesBytes(message, keys.keyChars()), null);
    }
}
