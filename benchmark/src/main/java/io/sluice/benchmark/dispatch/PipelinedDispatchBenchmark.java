package io.sluice.benchmark.dispatch;

import io.sluice.benchmark.BenchFiles;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.Dispatcher;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.dispatch.pipeline.PipelineSettings;
import io.sluice.store.dispatch.pipeline.PipelinedDispatcher;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Dispatch throughput, serial dispatcher against pipelined dispatcher, in messages per second.
 *
 * <p>The trial fills a CommitLog with {@value #MESSAGES} messages of {@code bodyBytes} bodies (TAGS and UNIQ_KEY
 * properties, as clients send them) spread round-robin over {@code queues} queues of one topic:
 * <ul>
 *   <li>{@code SIMPLE}: one record and one SimpleCQ slot per message;</li>
 *   <li>{@code BATCH}: BatchCQ inner batches of {@value #BATCH_SIZE} messages, one record and one BatchCQ slot each
 *       (the score still counts messages).</li>
 * </ul>
 * Each invocation empties the consume queues (their files stay, sized so that every queue needs exactly one), then
 * starts a dispatcher of the given {@code mode} at position 0 and waits until it has dispatched the whole log: a
 * catch-up, dispatcher thread(s) working while the benchmark thread waits. The pipeline runs with its defaults
 * (4 MiB chunks, 16 ring slots, one parse worker per processor).
 *
 * <p>Files go to {@code /dev/shm} when it exists (the code's cost, not the disk's), else to the temp directory;
 * {@code -Dsluice.bench.dir=...} overrides. Run: {@code java -jar benchmark/target/benchmarks.jar PipelinedDispatch}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class PipelinedDispatchBenchmark {

    /**
     * Messages per invocation: enough that the fixed costs of an invocation (starting the pipeline's threads,
     * filling and draining it) do not hold its result down.
     */
    static final int MESSAGES = 4 * 1_048_576;
    static final int BATCH_SIZE = 32;
    static final String TOPIC = "bench";
    static final InetSocketAddress HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final String PROPERTIES = "TAGS\u0001TagA\u0002UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A60000\u0002";
    private static final long DRAIN_TIMEOUT_MS = 120_000;

    /** Which dispatcher. */
    public enum DispatchMode { SERIAL, PIPELINED }

    @Param({"SERIAL", "PIPELINED"})
    DispatchMode mode;

    @Param({"100", "1024"})
    int bodyBytes;

    @Param({"SIMPLE", "BATCH"})
    ConsumeQueueType queueType;

    @Param({"16", "10000"})
    int queues;

    /** Parse workers of the pipelined dispatcher; 0 = the default (one per available processor). */
    @Param({"0"})
    int parseThreads;

    /** Chunks in flight in the pipelined dispatcher's ring; 0 = the default. */
    @Param({"0"})
    int ringSlots;

    /** Bytes per chunk of the pipelined dispatcher; 0 = the default (4 MiB). */
    @Param({"0"})
    int chunkBytes;

    private Path dir;
    private CommitLog log;
    private ConsumeQueueTable table;
    private Dispatcher dispatcher;

    static Path baseDir() {
        String override = System.getProperty("sluice.bench.dir");
        if (override != null) {
            return Path.of(override);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    @Setup(Level.Trial)
    public void fill() throws IOException {
        dir = Files.createTempDirectory(baseDir(), "sluice-pipelined-dispatch-bench");
        LogSettings settings = LogSettings.builder(dir.resolve("commitlog"), HOST).preallocateSegments(false).build();
        log = CommitLog.open(settings);
        log.recover(0, false, e -> { });
        List<MessageDraft> drafts = new ArrayList<>(queues);
        for (int q = 0; q < queues; q++) {
            drafts.add(draft(q));
        }
        int records = queueType == ConsumeQueueType.BATCH ? MESSAGES / BATCH_SIZE : MESSAGES;
        for (int i = 0; i < records; i++) {
            AppendResult r = log.append(drafts.get(i % queues)).join();
            if (r.status() != AppendStatus.PUT_OK) {
                throw new IllegalStateException("pre-fill append refused: " + r);
            }
        }
        int recordsPerQueue = (records + queues - 1) / queues;
        int slotsPerFile = Math.max(64, Integer.highestOneBit(recordsPerQueue) * 2);
        IndexSettings index = IndexSettings.defaults(dir.resolve("index")).withMaxQueuesPerTopic(16_384)
                .withSimpleCqSlotsPerFile(slotsPerFile).withBatchCqSlotsPerFile(slotsPerFile);
        table = ConsumeQueueTable.open(index, t -> queueType, StoreTimeLookup.NONE);
    }

    private MessageDraft draft(int queueId) {
        MessageDraft.Builder b = MessageDraft.builder(TOPIC, queueId).propertiesText(PROPERTIES).bornHost(HOST);
        if (queueType == ConsumeQueueType.SIMPLE) {
            return b.body(new byte[bodyBytes]).build();
        }
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < BATCH_SIZE; i++) {
            messages.add(new BatchBodyDescriptor.Message(0, new byte[bodyBytes],
                    "TAGS\u0001TagA\u0002UNIQ_KEY\u00017F0000010BB818B4AAC2648B37A6" + String.format("%04X", i)
                            + "\u0002"));
        }
        return b.body(BatchBodyDescriptor.encode(messages)).kind(AppendKind.INNER_BATCH).build();
    }

    @Setup(Level.Invocation)
    public void emptyQueues() {
        table.truncateFromPosition(0);
        dispatcher = switch (mode) {
            case SERIAL -> new SerialDispatcher(log, table, DispatchSettings.defaults(), List.of(),
                    SystemEpochClock.INSTANCE);
            case PIPELINED -> new PipelinedDispatcher(log, table, pipelineSettings(), List.of(),
                    SystemEpochClock.INSTANCE);
        };
    }

    private PipelineSettings pipelineSettings() {
        PipelineSettings settings = PipelineSettings.defaults();
        if (parseThreads > 0) {
            settings = settings.withParseThreads(parseThreads);
        }
        if (ringSlots > 0) {
            settings = settings.withRingSlots(ringSlots);
        }
        if (chunkBytes > 0) {
            settings = settings.withChunkBytes(chunkBytes);
        }
        return settings;
    }

    @TearDown(Level.Invocation)
    public void stopDispatcher() {
        dispatcher.close();
    }

    @TearDown(Level.Trial)
    public void drop() throws IOException {
        table.close();
        log.close();
        BenchFiles.deleteRecursively(dir);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long dispatchAll() {
        dispatcher.start(0);
        if (!dispatcher.drain(DRAIN_TIMEOUT_MS)) {
            throw new IllegalStateException(mode + " dispatch did not catch up within " + DRAIN_TIMEOUT_MS + " ms");
        }
        return dispatcher.dispatchedPosition();
    }
}
