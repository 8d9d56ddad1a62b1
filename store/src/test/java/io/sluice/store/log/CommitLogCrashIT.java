package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM that is appending (SIGKILL via {@link Process#destroyForcibly()}) and checks what survives.
 *
 * <p>SYNC: every append acknowledged before the kill reads back byte-exact after recovery. ASYNC: the recovered
 * log is a clean prefix of the append sequence, every byte after it is zero, and (a process crash keeps the
 * page cache) every acknowledged append is inside the prefix. Each round continues the same log.
 */
class CommitLogCrashIT {

    @TempDir
    Path dir;

    private record Ack(long seq, long position, int size, long crc) {
    }

    @Test
    void syncAcknowledgedAppendsSurviveSigkill() throws Exception {
        crashRounds(FlushMode.SYNC, 4, new Random(42));
    }

    @Test
    void asyncLeavesACleanPrefixAfterSigkill() throws Exception {
        crashRounds(FlushMode.ASYNC, 3, new Random(7));
    }

    private void crashRounds(FlushMode mode, int rounds, Random random) throws Exception {
        long expectedTotal = 0;
        for (int round = 0; round < rounds; round++) {
            int killAfterAcks = 300 + random.nextInt(1_500);
            List<Ack> acks = runAndKill(mode, killAfterAcks);
            assertTrue(acks.size() >= killAfterAcks, "round " + round + " got " + acks.size() + " acks");
            expectedTotal = verify(acks, expectedTotal);
        }
    }

    private List<Ack> runAndKill(FlushMode mode, int killAfterAcks) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CommitLogCrashChild.class.getName(), dir.toString(), mode.name());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = pb.start();
        List<Ack> acks = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.US_ASCII))) {
            String line;
            while (acks.size() < killAfterAcks && (line = in.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    String[] f = line.split(" ");
                    acks.add(new Ack(Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]),
                            Long.parseLong(f[4])));
                }
            }
            // SIGKILL; the JDK closes our end of the pipe, so acks still buffered in it are not read.
            child.destroyForcibly();
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not exit");
        }
        return acks;
    }

    /** Recovers the log and checks it; returns the number of records it holds. */
    private long verify(List<Ack> acks, long previousTotal) throws IOException {
        LogSettings settings = CommitLogCrashChild.settings(dir, FlushMode.ASYNC);
        try (CommitLog log = CommitLog.open(settings)) {
            List<DispatchEntry> entries = new ArrayList<>();
            long end = log.recover(0, true, entries::add);
            assertTrue(entries.size() >= previousTotal, "records acknowledged in earlier rounds are still there");
            for (int i = 0; i < entries.size(); i++) {
                DispatchEntry e = entries.get(i);
                MessageExt m = MessageDecoder.decode(log.readRecord(e.position(), e.sizeBytes()).buffer(), true, true);
                assertEquals(String.valueOf(i), m.getProperty("SEQ"), "the log is the append sequence, in order");
                assertArrayEquals(CommitLogCrashChild.payload(i), m.getBody(), "payload of seq " + i);
            }
            for (Ack ack : acks) {
                assertTrue(ack.seq() < entries.size(), "acknowledged seq " + ack.seq() + " was lost; log holds "
                        + entries.size());
                ReadResult read = log.readRecord(ack.position(), ack.size());
                assertEquals(ReadStatus.FOUND, read.status());
                MessageExt m = MessageDecoder.decode(read.buffer(), true, true);
                assertEquals(String.valueOf(ack.seq()), m.getProperty("SEQ"));
                assertEquals(ack.crc(), CommitLogCrashChild.crc(m.getBody()), "payload hash of seq " + ack.seq());
            }
            assertZeroAfter(end);
            return entries.size();
        }
    }

    private void assertZeroAfter(long end) throws IOException {
        long segmentStart = end - end % CommitLogCrashChild.SEGMENT_BYTES;
        Path file = dir.resolve(MappedSegment.fileName(segmentStart));
        if (!file.toFile().exists()) {
            return;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer rest = ByteBuffer.allocate((int) (CommitLogCrashChild.SEGMENT_BYTES - (end - segmentStart)));
            ch.read(rest, end - segmentStart);
            rest.flip();
            while (rest.hasRemaining()) {
                assertEquals(0, rest.get(), "garbage after the end of the recovered log at " + (end + rest.position()));
            }
        }
    }
}
