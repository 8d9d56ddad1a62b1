package io.sluice.benchmark.index;

import io.sluice.benchmark.BenchFiles;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.index.SlotAppendStatus;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.SlotReadStatus;
import io.sluice.store.index.SlotBatch;
import io.sluice.store.index.SlotLookup;
import io.sluice.store.index.StoreTimeLookup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Pull-side lookups in a BatchCQ of {@code slots} records (default 10^6, over 4 files of the upstream 300,000
 * slots) with batch sizes drawn from 1..32. Goal: a lookup by offset under 1 µs.
 *
 * <ul>
 *   <li>{@code lookupRandomOffset}: any offset of the queue (binary search over file first-slot caches, then
 *       inside one file; cold-ish pages);</li>
 *   <li>{@code lookupNearTail}: offsets among the newest 10,000 messages, where consumers usually are;</li>
 *   <li>{@code read32NearTail}: a pull's read of 32 slots starting near the tail;</li>
 *   <li>{@code offsetByTimestamp}: time search (store time is in the slot, no CommitLog read);</li>
 *   <li>{@code simpleCqLookupRandomOffset}: the O(1) SimpleCQ lookup over as many slots, for comparison.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BatchConsumeQueueLookupBenchmark {

    private static final int SAMPLES = 1 << 16;
    private static final long FIRST_STORE_TIME_MS = 1_700_000_000_000L;

    @Param({"1000000"})
    public int slots;

    private Path root;
    private ConsumeQueueTable table;
    private ConsumeQueue batch;
    private ConsumeQueue simple;
    private final long[] randomOffsets = new long[SAMPLES];
    private final long[] tailOffsets = new long[SAMPLES];
    private final long[] timestamps = new long[SAMPLES];
    private final long[] simpleOffsets = new long[SAMPLES];

    /** Per-thread cursor over the samples and a reusable read buffer. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
        final SlotBatch slots = new SlotBatch(32);

        int advance() {
            next = (next + 1) & (SAMPLES - 1);
            return next;
        }
    }

    @Setup(Level.Trial)
    public void build() throws IOException {
        root = BenchFiles.newRoot("sluice-bcq-lookup");
        table = ConsumeQueueTable.open(IndexSettings.defaults(root),
                topic -> topic.startsWith("Batch") ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE,
                StoreTimeLookup.NONE);
        batch = table.getOrCreate("Batch", 0);
        simple = table.getOrCreate("Simple", 0);
        SplittableRandom random = new SplittableRandom(42);
        long offset = 0;
        long position = 0;
        for (int i = 0; i < slots; i++) {
            int count = 1 + random.nextInt(32);
            int size = 150 + count * 160;
            require(batch.append(offset, count, position, size, 0, FIRST_STORE_TIME_MS + i / 4));
            require(simple.append(i, 1, position, size, 0, 0));
            offset += count;
            position += size;
        }
        long max = batch.maxOffset();
        for (int i = 0; i < SAMPLES; i++) {
            randomOffsets[i] = random.nextLong(max);
            tailOffsets[i] = max - 1 - random.nextLong(Math.min(max, 10_000));
            timestamps[i] = FIRST_STORE_TIME_MS + random.nextLong(slots / 4);
            simpleOffsets[i] = random.nextLong(slots);
        }
    }

    private static void require(SlotAppendStatus status) {
        if (status != SlotAppendStatus.APPENDED) {
            throw new IllegalStateException("benchmark set-up append returned " + status);
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        table.close();
        BenchFiles.deleteRecursively(root);
    }

    @Benchmark
    public SlotLookup lookupRandomOffset(Cursor cursor) {
        return batch.lookup(randomOffsets[cursor.advance()]);
    }

    @Benchmark
    public SlotLookup lookupNearTail(Cursor cursor) {
        return batch.lookup(tailOffsets[cursor.advance()]);
    }

    @Benchmark
    public SlotReadStatus read32NearTail(Cursor cursor) {
        return batch.read(tailOffsets[cursor.advance()], cursor.slots);
    }

    @Benchmark
    public long offsetByTimestamp(Cursor cursor) {
        return batch.offsetByTimestamp(timestamps[cursor.advance()], true);
    }

    @Benchmark
    public SlotLookup simpleCqLookupRandomOffset(Cursor cursor) {
        return simple.lookup(simpleOffsets[cursor.advance()]);
    }
}
