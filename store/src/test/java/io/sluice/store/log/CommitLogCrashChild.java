package io.sluice.store.log;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * Child process of {@link CommitLogCrashIT}: opens and recovers the log in {@code args[0]}, then appends
 * {@code Crash} messages forever with flush mode {@code args[1]}, printing {@code ACK seq position size crc}
 * for every append acknowledged PUT_OK, until it is killed.
 */
public final class CommitLogCrashChild {

    static final String TOPIC = "Crash";
    static final int SEGMENT_BYTES = 256 * 1024;
    static final int MAX_MESSAGE_BYTES = 64 * 1024;

    private CommitLogCrashChild() {
    }

    static LogSettings settings(Path dir, FlushMode mode) {
        return LogSettings.builder(dir, LogFixture.STORE_HOST).segmentBytes(SEGMENT_BYTES)
                .maxMessageBytes(MAX_MESSAGE_BYTES).flushMode(mode).flushIntervalMs(20).build();
    }

    /** The deterministic payload of message {@code seq}: 100 to 6 099 bytes. */
    static byte[] payload(long seq) {
        byte[] out = new byte[100 + (int) ((seq * 7919) % 6000)];
        long x = seq * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < out.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            out[i] = (byte) x;
        }
        return out;
    }

    static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        FlushMode mode = FlushMode.valueOf(args[1]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.US_ASCII);
        CommitLog log = CommitLog.open(settings(dir, mode));
        AtomicLong recovered = new AtomicLong();
        log.recover(0, true, e -> recovered.incrementAndGet());
        out.println("READY " + recovered.get());
        Semaphore inFlight = new Semaphore(32);
        for (long seq = recovered.get(); ; seq++) {
            inFlight.acquire();
            byte[] body = payload(seq);
            long s = seq;
            long crc = crc(body);
            log.append(LogFixture.draft(TOPIC, (int) (seq % 4), body, "SEQ\u0001" + seq + "\u0002"))
                    .whenComplete((r, failure) -> {
                        if (r != null && r.status() == AppendStatus.PUT_OK) {
                            out.println("ACK " + s + " " + r.position() + " " + r.wroteBytes() + " " + crc);
                        }
                        inFlight.release();
                    });
        }
    }
}
