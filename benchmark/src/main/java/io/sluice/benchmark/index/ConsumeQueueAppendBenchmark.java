package io.sluice.benchmark.index;

import io.sluice.benchmark.BenchFiles;
import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.SlotAppendStatus;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Dispatcher-side append throughput into one consume queue, in messages per second, with the upstream file
 * sizes (so file creation and pre-allocation are part of the cost). Goal: at least 3,000,000 msg/s for SimpleCQ.
 *
 * <ul>
 *   <li>{@code simpleCqEntry}: one {@link DispatchEntry} per 100-byte message (the entry is built per call, as
 *       the dispatcher does);</li>
 *   <li>{@code simpleCqPrimitives}: the allocation-free overload, the cost of the index alone;</li>
 *   <li>{@code batchCq32}: BatchCQ records of 32 messages (one slot per 32 messages).</li>
 * </ul>
 * Each iteration starts from an empty store directory, which is deleted afterwards.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ConsumeQueueAppendBenchmark {

    /** A 100-byte body plus the record header, topic and properties. */
    private static final int RECORD_BYTES = 230;
    private static final int BATCH = 32;
    private static final int BATCH_RECORD_BYTES = 150 + BATCH * 160;

    private Path root;
    private ConsumeQueueTable table;
    private ConsumeQueue simple;
    private ConsumeQueue batch;
    private long simpleOffset;
    private long batchOffset;
    private long position;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        root = BenchFiles.newRoot("sluice-cq-append");
        table = ConsumeQueueTable.open(IndexSettings.defaults(root),
                topic -> topic.startsWith("Batch") ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE,
                StoreTimeLookup.NONE);
        simple = table.getOrCreate("Simple", 0);
        batch = table.getOrCreate("Batch", 0);
        simpleOffset = 0;
        batchOffset = 0;
        position = 0;
    }

    @TearDown(Level.Iteration)
    public void close() {
        table.close();
        BenchFiles.deleteRecursively(root);
    }

    @Benchmark
    public SlotAppendStatus simpleCqEntry() {
        DispatchEntry entry = new DispatchEntry("Simple", 0, simpleOffset++, 1, position, RECORD_BYTES,
                0x5EED, 1_700_000_000_000L, 0);
        position += RECORD_BYTES;
        return simple.append(entry);
    }

    @Benchmark
    public SlotAppendStatus simpleCqPrimitives() {
        SlotAppendStatus status = simple.append(simpleOffset++, 1, position, RECORD_BYTES, 0x5EED, 1_700_000_000_000L);
        position += RECORD_BYTES;
        return status;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public SlotAppendStatus batchCq32() {
        DispatchEntry entry = new DispatchEntry("Batch", 0, batchOffset, BATCH, position, BATCH_RECORD_BYTES,
                0x5EED, 1_700_000_000_000L, 0xC0);
        batchOffset += BATCH;
        position += BATCH_RECORD_BYTES;
        return batch.append(entry);
    }
}
