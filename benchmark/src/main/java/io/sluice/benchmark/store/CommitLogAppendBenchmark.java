package io.sluice.benchmark.store;

import io.sluice.benchmark.BenchFiles;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * CommitLog append cost on one thread, ASYNC flush, against a floor: copying the same payload bytes into an
 * already-resident mapped buffer.
 *
 * <ul>
 *   <li>{@code appendSingle1KiB}: 1 KiB body, ~60 bytes of properties; ops/s = messages/s.</li>
 *   <li>{@code appendInnerBatch32KiB}: a 32 KiB BatchCQ inner batch (32 entries) stored as one record.</li>
 *   <li>{@code appendInnerBatchStagedOrGathered}: a 32 or 256 KiB inner batch (1 KiB entries), its body on the
 *       heap (staged: the baseline) or in direct memory (written by gathering, as a send's body from its network
 *       buffer).</li>
 *   <li>{@code baselineCopy1KiB} / {@code baselineCopy32KiB}: {@code putBytes} of the same body bytes into a
 *       1 GiB mapped file whose pages were touched at setup, wrapping at its end.</li>
 *   <li>{@code prepareSegments1GiB} (single shot, s/op): how long the log's background allocator takes to
 *       prepare 1 GiB of segments (16 of 64 MiB: zero-fill when pre-allocating, map), which bounds the rate a
 *       writer sustains beyond the segments prepared in advance.</li>
 * </ul>
 *
 * <p>The append figures are the writer thread's cost per append on segments already prepared: one log with 1 GiB
 * segments and {@code SEGMENTS_AHEAD} prepared ahead, the written ones deleted before every iteration, which waits
 * until that many are ready again (with too few, the figure becomes the allocator's rate). Files go to
 * {@code /dev/shm} when it exists (the code's cost, not the disk's; {@code -Dsluice.bench.dir=...} overrides): give
 * the run memory for about 16 GiB of files besides the pre-touched 2 GiB heap.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Threads(1)
public class CommitLogAppendBenchmark {

    static final int SINGLE_BODY_BYTES = 1024;
    static final int BATCH_BODY_BYTES = 32 * 1024;
    static final int BATCH_ENTRIES = 32;
    static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final String PROPERTIES = "UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A60000\u0002WAIT\u0001true\u0002";
    /**
     * Segments prepared ahead of the writer in the append benchmarks: with the active one, enough for a 1 s
     * iteration of the fastest writer ({@code -Dsluice.bench.segmentsAhead=...} overrides, 1..16).
     */
    static final int SEGMENTS_AHEAD = Integer.getInteger("sluice.bench.segmentsAhead", 8);
    /** Quiet time before an append iteration, for the unmapping of the segments deleted at its setup. */
    static final long SETTLE_NS = TimeUnit.SECONDS.toNanos(1);
    /** Longest wait for them before an iteration. */
    static final long READY_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(3);

    static Path baseDir() {
        String override = System.getProperty("sluice.bench.dir");
        if (override != null) {
            return Path.of(override);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    static byte[] random(int length, long seed) {
        byte[] out = new byte[length];
        new Random(seed).nextBytes(out);
        return out;
    }

    /** The two payloads, shared by the log and the baseline. */
    static ByteBuffer singleBody() {
        return ByteBuffer.wrap(random(SINGLE_BODY_BYTES, 1));
    }

    static ByteBuffer batchBody() {
        int entryBodyBytes = BATCH_BODY_BYTES / BATCH_ENTRIES - BatchBodyDescriptor.ENTRY_OVERHEAD_BYTES - 42;
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < BATCH_ENTRIES; i++) {
            String props = String.format("UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A6%04X\u0002", i);
            messages.add(new BatchBodyDescriptor.Message(0, random(entryBodyBytes, i), props));
        }
        return ByteBuffer.wrap(BatchBodyDescriptor.encode(messages));
    }

    /** One ASYNC CommitLog per trial, with {@code SEGMENTS_AHEAD} segments ready before every iteration. */
    @State(Scope.Benchmark)
    public static class LogState extends OpenLog {
        /** Pre-allocate each new segment ahead of the writer, or keep it sparse (the production default). */
        @Param({"true", "false"})
        boolean preallocate;

        MessageDraft single;
        MessageDraft innerBatch;

        @Setup(Level.Trial)
        public void open() throws IOException {
            openLog(preallocate);
            single = MessageDraft.builder("BenchTopic", 0).body(singleBody()).propertiesText(PROPERTIES)
                    .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).build();
            innerBatch = MessageDraft.builder("BenchBatchTopic", 0).body(batchBody()).propertiesText(PROPERTIES)
                    .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).kind(AppendKind.INNER_BATCH).build();
        }
    }

    /**
     * An ASYNC CommitLog for one trial, opened by the subclass's trial setup, with {@code SEGMENTS_AHEAD} segments
     * ready before every iteration.
     */
    public abstract static class OpenLog {
        Path dir;
        CommitLog log;

        void openLog(boolean preallocate) throws IOException {
            dir = Files.createTempDirectory(baseDir(), "sluice-bench-log");
            log = CommitLog.open(LogSettings.builder(dir, HOST).preallocateSegments(preallocate)
                    .segmentsPreparedAhead(SEGMENTS_AHEAD).segmentAllocationTimeoutMs(60_000).build());
            log.recover(0, false, e -> { });
        }

        @Setup(Level.Iteration)
        public void awaitSegments() {
            // Drop what earlier iterations wrote (all but the active segment) and let the GC unmap it, so the
            // files in tmpfs stay bounded; then wait for the allocator to have the next segments ready.
            log.deleteExpiredSegments(System.currentTimeMillis(), 0, true, Integer.MAX_VALUE);
            System.gc();
            awaitReady(log, SEGMENTS_AHEAD);
            // The unmapping runs on the JVM's reference handler thread after the GC; on a two-core machine it
            // would compete with the measurement, so give it time to finish.
            LockSupport.parkNanos(SETTLE_NS);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            log.close();
            BenchFiles.deleteRecursively(dir);
            // Deleted segments are unmapped by the GC (see MappedSegment); give their memory back now.
            System.gc();
        }
    }

    static void awaitReady(CommitLog log, int segments) {
        long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        while (log.segmentsReadyAhead() < segments) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("only " + log.segmentsReadyAhead() + " of " + segments
                        + " segments prepared after " + TimeUnit.NANOSECONDS.toSeconds(READY_TIMEOUT_NS) + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * A sparse-segment log like {@link LogState}, and an inner batch of 32 KiB (the Apache client's auto-batch) or
     * 256 KiB (the native OMB driver's) whose body is on the heap (so the log stages it: the baseline) or in direct
     * memory, as a send's body sits in its network buffer (so the log writes it by gathering).
     */
    @State(Scope.Benchmark)
    public static class BigBatchState extends OpenLog {
        @Param({"heap", "direct"})
        String bodyMemory;
        @Param({"32", "256"})
        int batchKiB;

        MessageDraft innerBatch;

        @Setup(Level.Trial)
        public void open() throws IOException {
            openLog(false);
            ByteBuffer heap = bigBatchBody(batchKiB);
            ByteBuffer body = heap;
            if ("direct".equals(bodyMemory)) {
                body = ByteBuffer.allocateDirect(heap.remaining()).put(heap.duplicate()).flip();
            }
            innerBatch = MessageDraft.builder("BenchBatchTopic", 0).body(body).propertiesText(PROPERTIES)
                    .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).kind(AppendKind.INNER_BATCH).build();
        }
    }

    static ByteBuffer bigBatchBody(int kiB) {
        int entries = kiB;
        int entryBodyBytes = 1024 - BatchBodyDescriptor.ENTRY_OVERHEAD_BYTES - 42;
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            String props = String.format("UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A6%04X\u0002", i);
            messages.add(new BatchBodyDescriptor.Message(0, random(entryBodyBytes, i), props));
        }
        return ByteBuffer.wrap(BatchBodyDescriptor.encode(messages));
    }

    /** A log about to prepare 1 GiB of segments; set up afresh for every (single-shot) invocation. */
    @State(Scope.Benchmark)
    public static class PreparationState {
        static final int SEGMENT_BYTES = 64 << 20;
        static final int SEGMENTS = 16;
        Path dir;
        CommitLog log;

        @Setup(Level.Invocation)
        public void open() throws IOException {
            dir = Files.createTempDirectory(baseDir(), "sluice-bench-prepare");
            log = CommitLog.open(LogSettings.builder(dir, HOST).segmentBytes(SEGMENT_BYTES)
                    .segmentsPreparedAhead(SEGMENTS).build());
        }

        @TearDown(Level.Invocation)
        public void close() throws IOException {
            log.close();
            BenchFiles.deleteRecursively(dir);
            System.gc();
        }
    }

    /** A 1 GiB mapped file, every page touched once. */
    @State(Scope.Benchmark)
    public static class MappedState {
        static final int BYTES = 1 << 30;
        Path file;
        UnsafeBuffer mapped;
        MappedByteBuffer mapping;
        ByteBuffer single;
        ByteBuffer batch;
        int position;

        @Setup(Level.Trial)
        public void map() throws IOException {
            file = Files.createTempFile(baseDir(), "sluice-bench-baseline", ".bin");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                mapping = ch.map(FileChannel.MapMode.READ_WRITE, 0, BYTES);
            }
            mapped = new UnsafeBuffer(mapping);
            mapped.setMemory(0, BYTES, (byte) 0);
            single = singleBody();
            batch = batchBody();
        }

        @TearDown(Level.Trial)
        public void unmap() throws IOException {
            Files.deleteIfExists(file);
        }

        int copy(ByteBuffer src) {
            int length = src.remaining();
            if (position + length > BYTES) {
                position = 0;
            }
            mapped.putBytes(position, src, src.position(), length);
            position += length;
            return position;
        }
    }

    @Benchmark
    public AppendResult appendSingle1KiB(LogState s) {
        return checked(s.log.append(s.single).join());
    }

    @Benchmark
    public AppendResult appendInnerBatch32KiB(LogState s) {
        return checked(s.log.append(s.innerBatch).join());
    }

    @Benchmark
    public AppendResult appendInnerBatchStagedOrGathered(BigBatchState s) {
        return checked(s.log.append(s.innerBatch).join());
    }

    /** Recovery of the empty log starts the preparation of its first {@code SEGMENTS} segments. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public int prepareSegments1GiB(PreparationState p) throws IOException {
        p.log.recover(0, false, e -> { });
        awaitReady(p.log, PreparationState.SEGMENTS);
        return p.log.segmentsReadyAhead();
    }

    @Benchmark
    public int baselineCopy1KiB(MappedState m) {
        return m.copy(m.single);
    }

    @Benchmark
    public int baselineCopy32KiB(MappedState m) {
        return m.copy(m.batch);
    }

    private static AppendResult checked(AppendResult r) {
        if (r.status() != AppendStatus.PUT_OK) {
            throw new IllegalStateException("append refused: " + r);
        }
        return r;
    }
}
