package io.sluice.store;

import io.sluice.format.ConsumeQueueType;
import io.sluice.store.log.FlushMode;
import io.sluice.store.log.AppendKind;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.store.retention.RetentionSettings;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.zip.CRC32;

/**
 * Child process of {@link MessageStoreCrashIT}: opens a store (recovering the previous round's crash), then
 * appends forever from one thread per queue and prints {@code ACK <topic> <queueId> <offset> <count> <crc>} for
 * every acknowledged append, until it is killed. Bodies are a function of (topic, queue, offset), so the parent
 * can check every stored record, acknowledged or not.
 */
public final class MessageStoreCrashChild {

    static final String SIMPLE_TOPIC = "crash";
    static final String BATCH_TOPIC = "crashb";
    static final int SIMPLE_QUEUES = 3;
    static final Function<String, ConsumeQueueType> TYPES = topic -> BATCH_TOPIC.equals(topic) ? ConsumeQueueType.BATCH
            : ConsumeQueueType.SIMPLE;

    private MessageStoreCrashChild() {
    }

    static StoreSettings settings(Path root, FlushMode mode) {
        StoreSettings.Builder b = StoreSettings.builder(root, StoreFixture.STORE_HOST).checkpointIntervalMs(50);
        // Long flush and allocation timeouts: a slow disk on the build machine must not fail an append (the
        // child reports any refused append as an error).
        b.log().segmentBytes(256 * 1024).maxMessageBytes(16 * 1024).flushMode(mode).syncFlushTimeoutMs(60_000)
                .segmentAllocationTimeoutMs(60_000);
        // Whatever the build machine's disk holds, retention must not delete what the test verifies.
        b.retention(RetentionSettings.defaults().withRatios(1.0, 1.0, 1.0).withCleanFileForcibly(false)
                .withDeleteWhenHours(List.of()));
        return b.build();
    }

    /** The body of the message at {@code offset}: 20 to 3000 pseudo-random bytes. */
    static byte[] body(String topic, int queueId, long offset) {
        Random random = new Random(topic.hashCode() * 31L + queueId * 1_000_003L + offset);
        byte[] body = new byte[20 + random.nextInt(2_980)];
        random.nextBytes(body);
        return body;
    }

    /** Inner messages of the BatchCQ record starting at {@code base}. */
    static int batchCount(long base) {
        return 1 + (int) (base % 5);
    }

    static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        FlushMode mode = FlushMode.valueOf(args[1]);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.US_ASCII);
        MessageStore store = MessageStore.open(settings(root, mode), TYPES);
        out.println("OPEN " + store.recoveryReport());
        List<Thread> threads = new ArrayList<>();
        for (int q = 0; q < SIMPLE_QUEUES; q++) {
            int queueId = q;
            threads.add(new Thread(() -> writeSimple(store, queueId, out), "writer-" + q));
        }
        threads.add(new Thread(() -> writeBatches(store, out), "writer-batch"));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void writeSimple(MessageStore store, int queueId, PrintStream out) {
        long offset = store.maxOffset(SIMPLE_TOPIC, queueId);
        while (true) {
            byte[] body = body(SIMPLE_TOPIC, queueId, offset);
            MessageDraft draft = MessageDraft.builder(SIMPLE_TOPIC, queueId).body(body)
                    .bornHost(StoreFixture.BORN_HOST).build();
            ack(store.append(draft).join(), SIMPLE_TOPIC, queueId, offset, 1, crc(body), out);
            offset++;
        }
    }

    private static void writeBatches(MessageStore store, PrintStream out) {
        long base = store.maxOffset(BATCH_TOPIC, 0);
        while (true) {
            int count = batchCount(base);
            List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                messages.add(new BatchBodyDescriptor.Message(0, body(BATCH_TOPIC, 0, base + i), ""));
            }
            byte[] body = BatchBodyDescriptor.encode(messages);
            MessageDraft draft = MessageDraft.builder(BATCH_TOPIC, 0).body(body).kind(AppendKind.INNER_BATCH)
                    .propertiesText(MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY, "b" + base)))
                    .bornHost(StoreFixture.BORN_HOST).build();
            ack(store.append(draft).join(), BATCH_TOPIC, 0, base, count, crc(body), out);
            base += count;
        }
    }

    private static void ack(AppendResult r, String topic, int queueId, long offset, int count, long crc,
                            PrintStream out) {
        if (r.status() != AppendStatus.PUT_OK || r.queueOffset() != offset) {
            out.println("ERR " + topic + " " + queueId + " expected offset " + offset + " got " + r);
            System.exit(3);
        }
        out.println("ACK " + topic + " " + queueId + " " + offset + " " + count + " " + crc);
    }
}
