package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.store.log.FlushMode;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import io.sluice.store.log.MessageDraft;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM that appends through {@link MessageStore} ({@link MessageStoreCrashChild}) with SIGKILL, several
 * rounds on the same directory (each child recovers the previous crash), then recovers in this JVM and checks:
 * every acknowledged append reads back byte-exact through {@code getMessages} at its offset, and every queue is a
 * dense, clean prefix of the append sequence (every record present is exactly the one the child wrote there).
 */
class MessageStoreCrashIT {

    @TempDir
    Path root;

    private record Ack(String topic, int queueId, long offset, int count, long crc) {
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void syncAcknowledgedAppendsSurviveRepeatedSigkills() throws Exception {
        crashRounds(FlushMode.SYNC, 5, new Random(11));
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void asyncLeavesCleanDensePrefixesAfterRepeatedSigkills() throws Exception {
        crashRounds(FlushMode.ASYNC, 3, new Random(5));
    }

    private void crashRounds(FlushMode mode, int rounds, Random random) throws Exception {
        List<Ack> acks = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            int killAfter = 200 + random.nextInt(600);
            List<Ack> roundAcks = runAndKill(mode, killAfter);
            assertTrue(roundAcks.size() >= killAfter, "round " + round + ": " + roundAcks.size() + " acks");
            acks.addAll(roundAcks);
        }
        try (MessageStore store = MessageStore.open(MessageStoreCrashChild.settings(root, mode),
                MessageStoreCrashChild.TYPES)) {
            assertTrue(store.recoveryReport().crashed());
            for (Ack ack : acks) {
                verifyAck(store, ack);
            }
            Map<String, Long> highest = new HashMap<>();
            for (Ack ack : acks) {
                highest.merge(ack.topic() + "-" + ack.queueId(), ack.offset() + ack.count(), Math::max);
            }
            for (int q = 0; q < MessageStoreCrashChild.SIMPLE_QUEUES; q++) {
                verifyPrefix(store, MessageStoreCrashChild.SIMPLE_TOPIC, q,
                        highest.getOrDefault(MessageStoreCrashChild.SIMPLE_TOPIC + "-" + q, 0L));
            }
            verifyPrefix(store, MessageStoreCrashChild.BATCH_TOPIC, 0,
                    highest.getOrDefault(MessageStoreCrashChild.BATCH_TOPIC + "-0", 0L));
            // Offsets continue densely after recovery.
            long next = store.maxOffset(MessageStoreCrashChild.SIMPLE_TOPIC, 0);
            AppendResult r = Await.result(store.append(MessageDraft.builder(MessageStoreCrashChild.SIMPLE_TOPIC, 0)
                    .body(MessageStoreCrashChild.body(MessageStoreCrashChild.SIMPLE_TOPIC, 0, next))
                    .bornHost(StoreFixture.BORN_HOST).build()));
            assertEquals(next, r.queueOffset());
        }
    }

    private List<Ack> runAndKill(FlushMode mode, int killAfter) throws Exception {
        Path stderr = Files.createTempFile(root.getParent(), "crash-child", ".err");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), MessageStoreCrashChild.class.getName(),
                root.toString(), mode.name())
                .redirectError(stderr.toFile())
                .start();
        List<Ack> acks = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.US_ASCII))) {
            while (acks.size() < killAfter) {
                String line = in.readLine();
                if (line == null) {
                    fail("child exited early with " + child.waitFor() + ": " + Files.readString(stderr));
                }
                parse(line, acks);
            }
            // SIGKILL through the handle: Process.destroyForcibly() would also close our end of the pipe.
            assertTrue(child.toHandle().destroyForcibly(), "kill not sent");
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
            assertEquals(137, child.exitValue(), "killed by SIGKILL");
            // Lines printed before the kill are acknowledgements too.
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                parse(line, acks);
            }
        } finally {
            child.destroyForcibly();
            Files.deleteIfExists(stderr);
        }
        return acks;
    }

    private static void parse(String line, List<Ack> acks) {
        if (line.startsWith("ERR ")) {
            fail("child reported: " + line);
        }
        if (line.startsWith("ACK ")) {
            String[] f = line.split(" ");
            acks.add(new Ack(f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), Integer.parseInt(f[4]),
                    Long.parseLong(f[5])));
        }
    }

    private static void verifyAck(MessageStore store, Ack ack) {
        GetResult r = store.getMessages(ack.topic(), ack.queueId(), ack.offset(), 1, 1 << 20, null);
        assertEquals(GetStatus.FOUND, r.status(), () -> ack + " -> " + r);
        MessageExt m = MessageDecoder.decode(r.records().get(0).duplicate(), true, false);
        assertEquals(ack.offset(), m.getQueueOffset(), ack::toString);
        assertEquals(ack.crc(), MessageStoreCrashChild.crc(m.getBody()), () -> "body of " + ack);
        assertEquals(ack.count(), r.messageCount(), ack::toString);
    }

    /** Every offset in [0, max) holds exactly what the child wrote there, and max covers every ack. */
    private static void verifyPrefix(MessageStore store, String topic, int queueId, long highestAcked)
            throws Exception {
        long max = store.maxOffset(topic, queueId);
        assertTrue(max >= highestAcked, topic + "-" + queueId + " max " + max + " < acknowledged " + highestAcked);
        assertEquals(0, store.minOffset(topic, queueId));
        String queue = topic + "-" + queueId;
        long offset = 0;
        String previous = "none";
        while (offset < max) {
            long from = offset;
            GetResult r = store.getMessages(topic, queueId, from, 64, 4 << 20, null);
            assertEquals(GetStatus.FOUND, r.status(), () -> queue + " at offset " + from + ": " + r);
            for (ByteBuffer record : r.records()) {
                MessageExt m = MessageDecoder.decode(record.duplicate(), true, false);
                long expected = offset;
                String after = previous;
                assertEquals(expected, m.getQueueOffset(), () -> queue + " is not dense: expected offset " + expected
                        + " after the record " + after + " but read the record at offset " + m.getQueueOffset()
                        + " (position " + m.getCommitLogOffset() + ", read from offset " + from + ")");
                if (MessageStoreCrashChild.BATCH_TOPIC.equals(topic)) {
                    List<Message> inner = MessageDecoder.decodeMessages(ByteBuffer.wrap(m.getBody()));
                    assertEquals(MessageStoreCrashChild.batchCount(offset), inner.size(),
                            () -> queue + " batch at offset " + expected + " (position " + m.getCommitLogOffset()
                                    + ")");
                    for (int i = 0; i < inner.size(); i++) {
                        assertArrayEquals(MessageStoreCrashChild.body(topic, queueId, offset + i),
                                inner.get(i).getBody(), queue + " offset " + (offset + i) + " inside the batch at "
                                        + offset);
                    }
                    previous = offset + ".." + (offset + inner.size() - 1) + " at position " + m.getCommitLogOffset();
                    offset += inner.size();
                } else {
                    assertArrayEquals(MessageStoreCrashChild.body(topic, queueId, offset), m.getBody(),
                            queue + " offset " + offset);
                    previous = offset + " at position " + m.getCommitLogOffset();
                    offset++;
                }
            }
            long reached = offset;
            assertEquals(reached, r.nextOffset(), () -> queue + " read from offset " + from + " ends at " + reached
                    + " but nextOffset is " + r.nextOffset());
        }
    }
}
