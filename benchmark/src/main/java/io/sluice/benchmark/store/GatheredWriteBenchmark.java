package io.sluice.benchmark.store;

import io.sluice.benchmark.BenchFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * The two ways the CommitLog can put a record whose body sits in direct memory into its file, without the cost of
 * fresh page-cache pages: a record of {@code bodyKiB} is written again and again over a 64 MiB region of a file whose
 * pages are all cached, so the figures are the appender's own copy and system calls.
 *
 * <ul>
 *   <li>{@code stagedPwrite} (the baseline): header and body copied into a staging buffer, one {@code pwrite}.</li>
 *   <li>{@code gatheredWritev}: seek, then one {@code writev} of the header and the body where it is.</li>
 * </ul>
 *
 * <p>Files go where {@code CommitLogAppendBenchmark} puts them ({@code -Dsluice.bench.dir=...} overrides).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
@State(Scope.Thread)
public class GatheredWriteBenchmark {

    static final int REGION_BYTES = 64 << 20;
    static final int HEADER_BYTES = 200;

    @Param({"32", "256"})
    int bodyKiB;

    Path file;
    FileChannel channel;
    ByteBuffer header;
    ByteBuffer body;
    ByteBuffer staging;
    final ByteBuffer[] pieces = new ByteBuffer[2];
    long offset;

    @Setup(Level.Trial)
    public void open() throws IOException {
        file = Files.createTempFile(CommitLogAppendBenchmark.baseDir(), "sluice-bench-gather", ".bin");
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        ByteBuffer ones = ByteBuffer.allocateDirect(1 << 20);
        while (ones.hasRemaining()) {
            ones.put((byte) 1);
        }
        for (long at = 0; at < REGION_BYTES; at += ones.capacity()) {
            channel.write(ones.clear(), at);
        }
        Random random = new Random(1);
        header = ByteBuffer.allocateDirect(HEADER_BYTES);
        byte[] bodyBytes = new byte[bodyKiB * 1024];
        random.nextBytes(bodyBytes);
        body = ByteBuffer.allocateDirect(bodyBytes.length).put(bodyBytes).flip();
        staging = ByteBuffer.allocateDirect(HEADER_BYTES + bodyBytes.length);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        BenchFiles.deleteRecursively(file);
    }

    private long nextOffset() {
        long at = offset;
        long recordBytes = HEADER_BYTES + (long) body.capacity();
        offset = at + recordBytes + recordBytes > REGION_BYTES ? 0 : at + recordBytes;
        return at;
    }

    @Benchmark
    public long stagedPwrite() throws IOException {
        long at = nextOffset();
        staging.clear();
        staging.put(header.duplicate()).put(body.duplicate()).flip();
        while (staging.hasRemaining()) {
            at += channel.write(staging, at);
        }
        return at;
    }

    @Benchmark
    public long gatheredWritev() throws IOException {
        long at = nextOffset();
        pieces[0] = header.duplicate();
        pieces[1] = body.duplicate();
        channel.position(at);
        long written = 0;
        while (pieces[1].hasRemaining()) {
            written += channel.write(pieces);
        }
        return at + written;
    }
}
