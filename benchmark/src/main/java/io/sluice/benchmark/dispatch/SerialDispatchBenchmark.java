package io.sluice.benchmark.dispatch;

import io.sluice.benchmark.BenchFiles;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.store.log.RecordCursor;
import io.sluice.store.log.ScanStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemEpochClock;
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
 * Serial dispatch throughput: a CommitLog pre-filled with {@value #MESSAGES} messages of 100-byte bodies (with a
 * TAGS and a UNIQ_KEY property, as clients send them), spread over {@code queues} SimpleCQ queues of one topic,
 * dispatched into a fresh consume-queue table per invocation. The score is messages per second.
 *
 * <ul>
 *   <li>{@code redispatchOnCallerThread}: {@link SerialDispatcher#redispatch} on the benchmark thread (the
 *       recovery path; the same pass code as the dispatch thread, without any hand-off).</li>
 *   <li>{@code dispatchThread}: {@link SerialDispatcher#start} and {@link SerialDispatcher#drain}: the dispatch
 *       thread catching up while the benchmark thread waits.</li>
 *   <li>{@code scanOnlyBaseline}: the floor, walking the same records with the log's parser and indexing
 *       nothing (the fresh index of each invocation is left unused).</li>
 * </ul>
 *
 * <p>Consume-queue files are created during the measurement, one per queue sized to hold its share of the
 * messages, so zero-filling them costs per slot what production's 300,000-slot files cost. Files go to
 * {@code /dev/shm} when it exists (the code's cost, not the disk's), else to the temp directory;
 * {@code -Dsluice.bench.dir=...} overrides.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class SerialDispatchBenchmark {

    static final int MESSAGES = 1_000_000;
    static final int BODY_BYTES = 100;
    static final String TOPIC = "bench";
    static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final String PROPERTIES = "TAGS\u0001TagA\u0002UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A60000\u0002";

    @Param({"4", "64"})
    int queues;

    private Path dir;
    private CommitLog log;
    private Path indexDir;
    private ConsumeQueueTable table;
    private SerialDispatcher dispatcher;

    static Path baseDir() {
        String override = System.getProperty("sluice.bench.dir");
        if (override != null) {
            return Path.of(override);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    @Setup(Level.Trial)
    public void fillLog() throws IOException {
        dir = Files.createTempDirectory(baseDir(), "sluice-dispatch-bench");
        LogSettings settings = LogSettings.builder(dir.resolve("commitlog"), HOST).segmentBytes(128 << 20).build();
        log = CommitLog.open(settings);
        log.recover(0, false, e -> { });
        byte[] body = new byte[BODY_BYTES];
        for (int i = 0; i < MESSAGES; i++) {
            MessageDraft draft = MessageDraft.builder(TOPIC, i % queues).body(body).propertiesText(PROPERTIES)
                    .bornHost(HOST).build();
            AppendResult r = log.append(draft).join();
            if (r.status() != AppendStatus.PUT_OK) {
                throw new IllegalStateException("pre-fill append refused: " + r);
            }
        }
    }

    @Setup(Level.Invocation)
    public void freshIndex() throws IOException {
        indexDir = Files.createTempDirectory(dir, "index");
        // One file per queue sized to its share, so that file creation costs what it costs in production per
        // slot (a 300,000-slot file per 300,000 messages of a queue), whatever the number of queues.
        IndexSettings index = IndexSettings.defaults(indexDir).withSimpleCqSlotsPerFile(MESSAGES / queues + 1);
        table = ConsumeQueueTable.open(index, t -> ConsumeQueueType.SIMPLE, StoreTimeLookup.NONE);
        dispatcher = new SerialDispatcher(log, table, DispatchSettings.defaults(), List.of(),
                SystemEpochClock.INSTANCE);
    }

    @TearDown(Level.Invocation)
    public void dropIndex() throws IOException {
        dispatcher.close();
        table.close();
        BenchFiles.deleteRecursively(indexDir);
    }

    @TearDown(Level.Trial)
    public void dropLog() throws IOException {
        log.close();
        BenchFiles.deleteRecursively(dir);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long redispatchOnCallerThread() throws IOException {
        return dispatcher.redispatch(0);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long dispatchThread() {
        dispatcher.start(0);
        if (!dispatcher.drain(60_000)) {
            throw new IllegalStateException("dispatch did not catch up within 60 s");
        }
        return dispatcher.dispatchedPosition();
    }

    /** Floor: the same walk over the log with the log's record parser, writing nothing. */
    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long scanOnlyBaseline() {
        RecordCursor cursor = log.cursor(0);
        long valid = 0;
        while (true) {
            ScanStatus status = cursor.next().status();
            if (status == ScanStatus.VALID) {
                valid++;
            } else if (status != ScanStatus.END_OF_SEGMENT) {
                return valid;
            }
        }
    }
}
