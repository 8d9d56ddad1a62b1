package io.sluice.store;

import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.store.log.FlushMode;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.LogEnvironment;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.store.retention.DiskUsage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.agrona.concurrent.CachedEpochClock;

/** Small-segment stores, drafts and file surgery for the store tests. */
final class StoreFixture {

    static final InetSocketAddress STORE_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 10911);
    static final InetSocketAddress BORN_HOST = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40001);
    static final int SEGMENT_BYTES = 128 * 1024;
    static final int MAX_MESSAGE_BYTES = 16 * 1024;
    static final String SIMPLE_TOPIC = "orders";
    static final String BATCH_TOPIC = "metrics";
    /** SIMPLE_TOPIC and friends are SimpleCQ, BATCH_TOPIC BatchCQ; every other topic is unknown. */
    static final Function<String, ConsumeQueueType> TYPES = topic -> switch (topic) {
        case SIMPLE_TOPIC, "other", "ghost" -> ConsumeQueueType.SIMPLE;
        case BATCH_TOPIC -> ConsumeQueueType.BATCH;
        default -> null;
    };

    private StoreFixture() {
    }

    static StoreSettings.Builder settings(Path root) {
        StoreSettings.Builder b = StoreSettings.builder(root, STORE_HOST);
        b.log().segmentBytes(SEGMENT_BYTES).maxMessageBytes(MAX_MESSAGE_BYTES);
        return b;
    }

    /** A controllable environment: manual clock, fixed zone UTC, disk usage read from {@code disk}. */
    static StoreEnvironment environment(CachedEpochClock clock, double[] disk) {
        DiskUsage usage = path -> disk[0];
        return StoreEnvironment.system().withLog(LogEnvironment.system().withEpochClock(clock))
                .withDiskUsage(usage).withZone(ZoneOffset.UTC);
    }

    static MessageStore open(Path root) throws IOException {
        return MessageStore.open(settings(root).build(), TYPES);
    }

    /** SYNC flush: the log is durable up to every acknowledged append, so checkpoints reach the dispatch point. */
    static MessageStore openSync(Path root) throws IOException {
        StoreSettings.Builder b = settings(root);
        b.log().flushMode(FlushMode.SYNC);
        return MessageStore.open(b.build(), TYPES);
    }

    static MessageDraft draft(String topic, int queueId, byte[] body, String properties) {
        return MessageDraft.builder(topic, queueId).body(body).propertiesText(properties).bornHost(BORN_HOST)
                .bornTimestampMs(1_700_000_000_000L).build();
    }

    static MessageDraft draft(String topic, int queueId, String body) {
        return draft(topic, queueId, body.getBytes(StandardCharsets.UTF_8), "");
    }

    static MessageDraft tagged(String topic, int queueId, String body, String tags) {
        return draft(topic, queueId, body.getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(Map.of(MessageProperties.TAGS, tags)));
    }

    /** A SEND_BATCH_MESSAGE body of {@code bodies}, stored as {@code kind}. */
    static MessageDraft batch(String topic, int queueId, AppendKind kind, String... bodies) {
        List<BatchBodyDescriptor.Message> messages = java.util.Arrays.stream(bodies)
                .map(b -> new BatchBodyDescriptor.Message(0, b.getBytes(StandardCharsets.UTF_8), ""))
                .toList();
        String properties = kind == AppendKind.INNER_BATCH
                ? MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY, "batch-" + bodies.length)) : "";
        return MessageDraft.builder(topic, queueId).body(BatchBodyDescriptor.encode(messages))
                .propertiesText(properties).bornHost(BORN_HOST).kind(kind).build();
    }

    static AppendResult appendOk(MessageStore store, MessageDraft draft) {
        AppendResult r = Await.result(store.append(draft));
        assertEquals(AppendStatus.PUT_OK, r.status(), () -> "append to " + draft.topic() + " refused: " + r);
        return r;
    }

    static void awaitMaxOffset(MessageStore store, String topic, int queueId, long maxOffset) {
        Await.until(topic + "-" + queueId + " max offset " + maxOffset,
                () -> store.maxOffset(topic, queueId) == maxOffset);
    }

    static void awaitDispatched(MessageStore store) {
        Await.until("dispatch caught up", () -> store.stats().dispatchedPosition() >= store.stats().writtenPosition());
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** Writes {@code bytes} into {@code file} at {@code at} through the file (visible to live mappings too). */
    static void overwrite(Path file, long at, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long pos = at;
            while (b.hasRemaining()) {
                pos += ch.write(b, pos);
            }
        }
    }

    /** The CommitLog segment file holding {@code position}. */
    static Path segmentFile(Path root, long position) {
        long start = position - position % SEGMENT_BYTES;
        return root.resolve("commitlog").resolve(String.format("%020d", start));
    }

    /** Zeros {@code [position, segment end)} of the log, as if those bytes never reached the disk. */
    static void zeroLogFrom(Path root, long position) throws IOException {
        long offset = position % SEGMENT_BYTES;
        overwrite(segmentFile(root, position), offset, new byte[(int) (SEGMENT_BYTES - offset)]);
    }
}
