package io.sluice.benchmark.store;

import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.BatchBodyDescriptor;
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
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 *   <li>{@code baselineCopy1KiB} / {@code baselineCopy32KiB}: {@code putBytes} of the same body bytes into a
 *       1 GiB mapped file whose pages were touched at setup, wrapping at its end.</li>
 * </ul>
 *
 * <p>Files go to {@code /dev/shm} when it exists (so the figures are the code's cost, not the disk's), else to
 * the temp directory; {@code -Dsluice.bench.dir=...} overrides. Every iteration gets a fresh log with 1 GiB
 * segments, pre-allocated ahead of the writer or not ({@code preallocate}), that is deleted afterwards.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Threads(1)
public class CommitLogAppendBenchmark {

    static final int SINGLE_BODY_BYTES = 1024;
    static final int BATCH_BODY_BYTES = 32 * 1024;
    static final int BATCH_ENTRIES = 32;
    static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final String PROPERTIES = "UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A60000\u0002WAIT\u0001true\u0002";

    static Path baseDir() {
        String override = System.getProperty("sluice.bench.dir");
        if (override != null) {
            return Path.of(override);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
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

    /** A fresh ASYNC CommitLog per iteration. */
    @State(Scope.Benchmark)
    public static class LogState {
        /** Zero-fill each new segment ahead of the writer (the production default) or map it sparse. */
        @Param({"true", "false"})
        boolean preallocate;

        Path dir;
        CommitLog log;
        MessageDraft single;
        MessageDraft innerBatch;

        @Setup(Level.Iteration)
        public void open() throws IOException {
            dir = Files.createTempDirectory(baseDir(), "sluice-bench-log");
            log = CommitLog.open(LogSettings.builder(dir, HOST).preallocateSegments(preallocate).build());
            log.recover(0, false, e -> { });
            // Wait here, not in the measurement, for the first segment; the next one is then prepared behind.
            checked(log.append(MessageDraft.builder("BenchTopic", 1).body(new byte[1]).bornHost(HOST).build()).join());
            single = MessageDraft.builder("BenchTopic", 0).body(singleBody()).propertiesText(PROPERTIES)
                    .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).build();
            innerBatch = MessageDraft.builder("BenchBatchTopic", 0).body(batchBody()).propertiesText(PROPERTIES)
                    .bornHost(HOST).bornTimestampMs(System.currentTimeMillis()).kind(AppendKind.INNER_BATCH).build();
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            log.close();
            deleteRecursively(dir);
            // Deleted segments are unmapped by the GC (see MappedSegment); give their memory back before the next
            // iteration instead of letting tmpfs fill up.
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
