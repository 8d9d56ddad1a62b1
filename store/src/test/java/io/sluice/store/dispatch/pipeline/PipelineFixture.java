package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.store.ArrivalListener;
import io.sluice.format.ConsumeQueueType;
import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.index.StoreTimeLookup;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.LogSettings;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.RecordDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agrona.concurrent.SystemEpochClock;

/** Small-segment logs, consume-queue tables, workloads and comparisons for the pipeline's tests. */
final class PipelineFixture {

    static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final InetSocketAddress BORN_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 46510);
    /** Small enough for several segment rolls per test. */
    static final int SEGMENT_BYTES = 96 * 1024;
    static final int MAX_MESSAGE_BYTES = 16 * 1024;
    /** Topics named "B..." are BatchCQ, all others SimpleCQ. */
    static final Function<String, ConsumeQueueType> TYPE_OF = t -> t.startsWith("B") ? ConsumeQueueType.BATCH : ConsumeQueueType.SIMPLE;

    private PipelineFixture() {
    }

    /** A boundary granule larger than any test log: the appender's hints never help, the reader walks every chunk. */
    static final int NO_HINTS = LogSettings.MAX_BOUNDARY_GRANULE_BYTES;
    /** A small boundary granule: most full chunks are cut at hints, without a walk. */
    static final int SMALL_GRANULE = 256;

    /** A log whose reader walks every chunk ({@link #NO_HINTS}). */
    static CommitLog openLog(Path root) throws IOException {
        return openLog(root, NO_HINTS);
    }

    static CommitLog openLog(Path root, int boundaryGranuleBytes) throws IOException {
        return openLog(root, boundaryGranuleBytes, SEGMENT_BYTES);
    }

    static CommitLog openLog(Path root, int boundaryGranuleBytes, int segmentBytes) throws IOException {
        LogSettings settings = LogSettings.builder(root.resolve("commitlog"), STORE_HOST)
                .segmentBytes(segmentBytes)
                .boundaryGranuleBytes(boundaryGranuleBytes)
                .maxMessageBytes(MAX_MESSAGE_BYTES)
                .preallocateSegments(false)
                // A loaded shared machine can stall file creation for seconds; a refused append fails the test.
                .segmentAllocationTimeoutMs(60_000)
                .build();
        CommitLog log = CommitLog.open(settings, LogEnvironment.system());
        log.recover(0, true, e -> { });
        return log;
    }

    /** A table with tiny files, so that queues roll files too. */
    static ConsumeQueueTable openQueues(Path root) throws IOException {
        return openQueues(root, 0, 0, 0);
    }

    /**
     * Like {@link #openQueues(Path)}, with BatchCQ slots shared up to {@code unitMaxBytes} and, with
     * {@code spanMaxBytes} set, spanning other queues' records in a log of {@code logSegmentBytes} segments.
     */
    static ConsumeQueueTable openQueues(Path root, int unitMaxBytes, int spanMaxBytes, int logSegmentBytes)
            throws IOException {
        IndexSettings settings = IndexSettings.defaults(root).withSimpleCqSlotsPerFile(64).withBatchCqSlotsPerFile(32)
                .withBatchCqUnitMaxBytes(unitMaxBytes).withBatchCqSpan(spanMaxBytes, logSegmentBytes);
        return ConsumeQueueTable.open(settings, TYPE_OF, StoreTimeLookup.NONE);
    }

    static PipelineSettings smallChunks() {
        return new PipelineSettings(4096, 16, 2, 4, false);
    }

    static PipelinedDispatcher dispatcher(CommitLog log, ConsumeQueueTable queues, PipelineSettings settings,
                                          List<ArrivalListener> listeners, ChunkDecoder decoder) {
        return new PipelinedDispatcher(log, queues, settings, listeners, SystemEpochClock.INSTANCE, decoder);
    }

    /** The reference: the serial dispatcher's recovery re-dispatch, on this thread, from {@code from}. */
    static void serialDispatch(CommitLog log, ConsumeQueueTable queues, long from) {
        try (SerialDispatcher serial = new SerialDispatcher(log, queues, DispatchSettings.defaults(), List.of(),
                SystemEpochClock.INSTANCE)) {
            serial.redispatch(from);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the pipeline from {@code from} until it has dispatched everything confirmed, then stops it. */
    static PipelineStats dispatchAll(CommitLog log, ConsumeQueueTable queues, PipelineSettings settings,
                                     ChunkDecoder decoder, long from) {
        PipelinedDispatcher d = dispatcher(log, queues, settings, List.of(), decoder);
        try (d) {
            d.start(from);
            Await.until("pipelined dispatch to reach " + log.confirmedPosition(), () -> d.drain(100));
        }
        return d.stats(); // after close: every counter is final
    }

    // ---- workloads

    /** One producer request. */
    sealed interface Op permits Single, Unpacked, Inner, Prepared {
    }

    record Single(String topic, int queueId, int bodyBytes, String tag) implements Op {
    }

    /** A SEND_BATCH_MESSAGE stored as one record per message (SimpleCQ topics). */
    record Unpacked(String topic, int queueId, int count, int bodyBytes) implements Op {
    }

    /** A SEND_BATCH_MESSAGE stored as one BatchCQ inner-batch record. */
    record Inner(String topic, int queueId, int count, int bodyBytes, String tag) implements Op {
    }

    /** A transaction half message: stored, never indexed. */
    record Prepared(String topic, int queueId, int bodyBytes) implements Op {
    }

    static MessageDraft draft(Op op, int seed) {
        if (op instanceof Single s) {
            return base(s.topic(), s.queueId(), body(s.bodyBytes(), seed), tagProperty(s.tag()) + uniq(seed)).build();
        }
        if (op instanceof Unpacked u) {
            return base(u.topic(), u.queueId(), batchBody(u.count(), u.bodyBytes(), seed), uniq(seed))
                    .kind(AppendKind.UNPACKED_BATCH).build();
        }
        if (op instanceof Inner i) {
            return base(i.topic(), i.queueId(), batchBody(i.count(), i.bodyBytes(), seed),
                    tagProperty(i.tag()) + uniq(seed)).kind(AppendKind.INNER_BATCH).build();
        }
        Prepared p = (Prepared) op;
        return base(p.topic(), p.queueId(), body(p.bodyBytes(), seed), uniq(seed))
                .sysFlag(RecordDescriptor.TRANSACTION_PREPARED_TYPE).build();
    }

    private static MessageDraft.Builder base(String topic, int queueId, byte[] body, String properties) {
        return MessageDraft.builder(topic, queueId).body(body).propertiesText(properties).bornHost(BORN_HOST)
                .bornTimestampMs(1_700_000_000_000L);
    }

    private static String tagProperty(String tag) {
        return tag == null ? "" : "TAGS\u0001" + tag + "\u0002";
    }

    private static String uniq(int seed) {
        return "UNIQ_KEY\u0001id" + seed + "\u0002";
    }

    static byte[] body(int length, int seed) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (seed * 31 + i * 7);
        }
        return out;
    }

    static byte[] batchBody(int count, int bodyBytes, int seed) {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            messages.add(new BatchBodyDescriptor.Message(i, body(bodyBytes, seed + i),
                    "UNIQ_KEY\u0001m" + seed + "-" + i + "\u0002TAGS\u0001t" + (i % 3) + "\u0002"));
        }
        return BatchBodyDescriptor.encode(messages);
    }

    static AppendResult append(CommitLog log, Op op, int seed) {
        AppendResult r = Await.result(log.append(draft(op, seed)));
        assertEquals(AppendStatus.PUT_OK, r.status(), () -> "append of " + op + " refused: " + r);
        return r;
    }

    static List<AppendResult> appendAll(CommitLog log, List<? extends Op> ops) {
        List<AppendResult> results = new ArrayList<>();
        int seed = 0;
        for (Op op : ops) {
            results.add(append(log, op, seed++));
        }
        return results;
    }

    /** Appends simple messages round-robin over {@code queues} queues of topic {@code topic}. */
    static void appendSimple(CommitLog log, String topic, int queues, int count, int bodyBytes) {
        for (int i = 0; i < count; i++) {
            append(log, new Single(topic, i % queues, bodyBytes, "t" + (i % 5)), i);
        }
    }

    // ---- damage

    /** Overwrites bytes of the log at {@code position} through the file (the mapping sees the change). */
    static void overwrite(Path root, long position, byte[] bytes) {
        long segmentStart = position - position % SEGMENT_BYTES;
        Path file = root.resolve("commitlog").resolve(String.format("%020d", segmentStart));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long at = position - segmentStart;
            while (b.hasRemaining()) {
                at += ch.write(b, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    // ---- comparison

    /** Every consume-queue file under {@code root}, by relative path. */
    static TreeMap<String, byte[]> queueFiles(Path root) {
        TreeMap<String, byte[]> files = new TreeMap<>();
        for (String dir : List.of("consumequeue", "batchconsumequeue")) {
            Path base = root.resolve(dir);
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(base)) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    files.put(root.relativize(p).toString(), Files.readAllBytes(p));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** Asserts that two tables built the same files, byte for byte (read through the page cache). */
    static void assertSameQueueFiles(Path expectedRoot, Path actualRoot) {
        TreeMap<String, byte[]> expected = queueFiles(expectedRoot);
        TreeMap<String, byte[]> actual = queueFiles(actualRoot);
        assertEquals(expected.keySet(), actual.keySet(), "consume-queue files");
        for (String name : expected.keySet()) {
            assertArrayEquals(expected.get(name), actual.get(name), () -> "content of " + name);
        }
    }
}
