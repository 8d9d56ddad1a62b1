package io.sluice.benchmark.store;

import io.sluice.benchmark.BenchStore;
import io.sluice.broker.meta.TopicConfig;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.ConsumeQueueType;
import io.sluice.format.MessageProperties;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import io.sluice.store.MessageStore;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.MessageDraft;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A push consumer's pulls through a backlog of one BatchCQ queue (docs/storage.md#shared-batchcq-slots): 16 queues
 * written in turn with one inner batch of 32 messages of 1 KiB each, as the Apache producer's auto-batches land, so
 * no two records of a queue lie back to back. One invocation reads queue 0 from offset 0 to its end by
 * {@code nextOffset}, 32 messages asked per pull (the client's {@code pullBatchSize}), and touches every record
 * byte returned. {@code spanMaxBytes} 0 is the baseline: slots of records back to back only, here a slot per
 * record. The score is per message read; the trial's setup prints how many pulls one read of the queue takes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PullReadBenchmark {

    static final String TOPIC = "pull-read";
    static final int QUEUES = 16;
    static final int BATCHES_PER_QUEUE = 256;
    static final int MESSAGES_PER_BATCH = 32;
    static final int MESSAGES_PER_QUEUE = BATCHES_PER_QUEUE * MESSAGES_PER_BATCH;
    static final int PULL_MESSAGES = 32;
    static final int PULL_MAX_BYTES = 256 * 1024;

    @Param({"0", "4194304"})
    int spanMaxBytes;

    private BenchStore bench;
    private MessageStore store;

    @Setup(Level.Trial)
    public void open() throws IOException {
        bench = BenchStore.open("pull-read", "unused", b -> b.index(IndexSettings.defaults(b.rootDir())
                .withBatchCqUnitMaxBytes(256 * 1024).withBatchCqSpan(spanMaxBytes, 256 * 1024 * 1024)));
        bench.metadata().putTopic(TopicConfig.of(TOPIC, QUEUES, ConsumeQueueType.BATCH));
        store = bench.store();
        for (int b = 0; b < BATCHES_PER_QUEUE; b++) {
            for (int q = 0; q < QUEUES; q++) {
                AppendStatus status = store.append(batch(q)).join().status();
                if (status != AppendStatus.PUT_OK) {
                    throw new IllegalStateException("append refused: " + status);
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (store.maxOffset(TOPIC, QUEUES - 1) < MESSAGES_PER_QUEUE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("dispatch did not finish within 60 s");
            }
            Thread.onSpinWait();
        }
        long[] pulls = new long[1];
        readQueueByPulls(pulls);
        System.out.println("spanMaxBytes " + spanMaxBytes + ": " + pulls[0] + " pulls read " + MESSAGES_PER_QUEUE
                + " messages of one queue");
    }

    private static MessageDraft batch(int queueId) {
        byte[] body = new byte[1024];
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>(MESSAGES_PER_BATCH);
        for (int i = 0; i < MESSAGES_PER_BATCH; i++) {
            messages.add(new BatchBodyDescriptor.Message(0, body, ""));
        }
        return MessageDraft.builder(TOPIC, queueId).body(BatchBodyDescriptor.encode(messages))
                .propertiesText(MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY, "b" + queueId)))
                .bornHost(BenchStore.HOST).kind(AppendKind.INNER_BATCH).build();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        bench.close();
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES_PER_QUEUE)
    public long readQueue() {
        return readQueueByPulls(new long[1]);
    }

    private long readQueueByPulls(long[] pulls) {
        long next = 0;
        long touched = 0;
        while (next < MESSAGES_PER_QUEUE) {
            GetResult r = store.getMessages(TOPIC, 0, next, PULL_MESSAGES, PULL_MAX_BYTES, null);
            if (r.status() != GetStatus.FOUND) {
                throw new IllegalStateException("pull at " + next + ": " + r.status());
            }
            for (var view : r.records()) {
                touched += view.get(view.position()) + view.get(view.limit() - 1);
            }
            next = r.nextOffset();
            pulls[0]++;
        }
        return touched;
    }
}
