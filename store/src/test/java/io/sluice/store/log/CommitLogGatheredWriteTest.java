package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.store.DispatchEntry;
import io.sluice.testing.Await;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A large body in direct memory goes to the file by a gathering write (staged header, the body where it is, staged
 * tail): the file must hold exactly what the staged path writes, and a failed gathering write must leave nothing
 * that could pass for a record.
 */
@Timeout(60)
class CommitLogGatheredWriteTest {

    private static final long STORE_TIMESTAMP_MS = 1_700_000_123_456L;
    private static final int BIG_BODY_BYTES = 20_000;

    @TempDir
    Path dir;

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + 16);
        b.position(7); // a body that does not start at the buffer's start
        b.put(bytes);
        return b.flip().position(7);
    }

    /** An inner batch body of {@code entries} entries of about 1.3 KiB each. */
    private static byte[] innerBatchBody(int entries) {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(1_300, i),
                    "UNIQ_KEY\u0001inner" + i + "\u0002"));
        }
        return BatchBodyDescriptor.encode(messages);
    }

    /** The same drafts, bodies on the heap or in direct memory. */
    private static List<MessageDraft> drafts(boolean directBodies, InetSocketAddress bornHost) {
        byte[] big = LogFixture.filled(BIG_BODY_BYTES, 3);
        byte[] small = LogFixture.filled(PreparedAppend.GATHER_MIN_BODY_BYTES - 1, 4);
        byte[] batch = innerBatchBody(14);
        List<MessageDraft> drafts = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            drafts.add(draft("G", round % 2, big, directBodies, AppendKind.SINGLE, "TAGS\u0001t\u0002", bornHost));
            drafts.add(draft("G", 0, small, directBodies, AppendKind.SINGLE, "", bornHost));
            drafts.add(draft("Inner", round % 3, batch, directBodies, AppendKind.INNER_BATCH, "UNIQ_KEY\u0001b\u0002",
                    bornHost));
        }
        return drafts;
    }

    private static MessageDraft draft(String topic, int queueId, byte[] body, boolean direct, AppendKind kind,
                                      String properties, InetSocketAddress bornHost) {
        return MessageDraft.builder(topic, queueId).body(direct ? direct(body) : ByteBuffer.wrap(body))
                .propertiesText(properties).bornHost(bornHost).bornTimestampMs(1_700_000_000_000L)
                .kind(kind).build();
    }

    private static MessageDraft draft(String topic, byte[] body, boolean direct, AppendKind kind) {
        return draft(topic, 0, body, direct, kind, "", LogFixture.BORN_HOST);
    }

    @Test
    void onlyLargeDirectBodiesOfSingleRecordsAreGathered() {
        DraftEncoder encoder = new DraftEncoder(LogFixture.MAX_MESSAGE_BYTES, LogFixture.SEGMENT_BYTES, false);
        byte[] big = LogFixture.filled(PreparedAppend.GATHER_MIN_BODY_BYTES, 1);
        ByteBuffer body = ((PreparedAppend) encoder.prepare(draft("G", big, true, AppendKind.SINGLE))).gatheredBody();
        assertEquals(big.length, body.remaining());
        assertEquals(7, body.position(), "a view of the draft's own body");
        assertTrue(((PreparedAppend) encoder.prepare(draft("Inner", innerBatchBody(14), true,
                AppendKind.INNER_BATCH))).gatheredBody().hasRemaining());

        assertFalse(((PreparedAppend) encoder.prepare(draft("G", big, false, AppendKind.SINGLE)))
                .gatheredBody().hasRemaining(), "a heap body is staged");
        assertFalse(((PreparedAppend) encoder.prepare(draft("G", Arrays.copyOf(big, big.length - 1), true,
                AppendKind.SINGLE))).gatheredBody().hasRemaining(), "a smaller body is staged");
        assertFalse(((PreparedAppend) encoder.prepare(draft("Inner", innerBatchBody(14), true,
                AppendKind.UNPACKED_BATCH))).gatheredBody().hasRemaining(), "an unpacked batch is staged");
    }

    /** IPv4 and IPv6 hosts: the header, and so the body's place in the record, differ in length. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void gatheredRecordsAreByteForByteTheStagedOnesAndRecover(boolean ipv6) throws IOException {
        InetSocketAddress storeHost = ipv6 ? LogFixture.ipv6(10911) : LogFixture.STORE_HOST;
        InetSocketAddress bornHost = ipv6 ? LogFixture.ipv6(46510) : LogFixture.BORN_HOST;
        Path staged = dir.resolve("staged");
        Path gathered = dir.resolve("gathered");
        LogEnvironment fixedClock = LogEnvironment.system().withEpochClock(() -> STORE_TIMESTAMP_MS);
        long end;
        try (CommitLog a = LogFixture.openRecovered(settings(staged, storeHost), fixedClock);
             CommitLog b = LogFixture.openRecovered(settings(gathered, storeHost), fixedClock)) {
            for (MessageDraft d : drafts(false, bornHost)) {
                LogFixture.appendOk(a, d);
            }
            for (MessageDraft d : drafts(true, bornHost)) {
                LogFixture.appendOk(b, d);
            }
            end = b.writtenPosition();
            assertEquals(a.writtenPosition(), end);
        }
        for (long at = 0; at < end; at += LogFixture.SEGMENT_BYTES) {
            int length = (int) Math.min(LogFixture.SEGMENT_BYTES, end - at);
            assertArrayEquals(LogFixture.fileBytes(staged, at, length), LogFixture.fileBytes(gathered, at, length),
                    "segment at " + at);
        }
        try (CommitLog log = CommitLog.open(settings(gathered, storeHost))) {
            List<DispatchEntry> seen = new ArrayList<>();
            assertEquals(end, log.recover(0, true, seen::add), "every record passes recovery's CRC check");
            assertEquals(36, seen.size());
            long gatheredAfterBlank = seen.stream()
                    .filter(e -> e.position() % LogFixture.SEGMENT_BYTES == 0 && e.position() > 0)
                    .filter(e -> e.sizeBytes() > PreparedAppend.GATHER_MIN_BODY_BYTES).count();
            assertTrue(gatheredAfterBlank >= 2, "gathered records open the later segments, behind blank records");
        }
    }

    private static LogSettings settings(Path logDir, InetSocketAddress storeHost) {
        return LogSettings.builder(logDir.resolve("commitlog"), storeHost).segmentBytes(LogFixture.SEGMENT_BYTES)
                .maxMessageBytes(LogFixture.MAX_MESSAGE_BYTES).build();
    }

    /**
     * The gathering write reaches the file (the hook of the TOTALSIZE write that follows sees its bytes there),
     * then the TOTALSIZE write fails: the record's bytes are zeroed and recovery ends before them.
     */
    @Test
    void aFailedGatheredAppendIsZeroedAndTheLogGoesOn() throws IOException {
        byte[] batch = innerBatchBody(14);
        AtomicInteger calls = new AtomicInteger(-1_000_000);
        AtomicReference<byte[]> seenBeforeFailure = new AtomicReference<>();
        AtomicReference<Long> failedAt = new AtomicReference<>();
        LogEnvironment env = LogEnvironment.system()
                .withWriteHook((position, bytes) -> {
                    if (calls.incrementAndGet() == 2) {
                        long recordStart = failedAt.get();
                        seenBeforeFailure.set(LogFixture.fileBytes(dir, recordStart, batch.length + 256));
                        throw new IOException("No space left on device (simulated)");
                    }
                })
                .withDiskSpace(d -> 0);
        AppendResult before;
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env)) {
            before = LogFixture.appendOk(log, LogFixture.draft("B", 0, "before"));
            failedAt.set(before.nextPosition());
            calls.set(0);
            AppendResult failed = Await.result(log.append(draft("Inner", batch, true, AppendKind.INNER_BATCH)));
            assertEquals(AppendStatus.DISK_FULL, failed.status());
            assertTrue(indexOf(seenBeforeFailure.get(), Arrays.copyOf(batch, 64)) > 0,
                    "the gathered body had reached the file when the TOTALSIZE write failed");
            assertArrayEquals(new byte[batch.length + 256],
                    LogFixture.fileBytes(dir, before.nextPosition(), batch.length + 256),
                    "the failed record was zeroed");
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(before.nextPosition(), log.recover(0, true, e -> { }));
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void anInterruptedAppenderStillWritesAGatheredRecord() throws IOException {
        byte[] batch = innerBatchBody(14);
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("Inner", 0, "before")); // the segment exists
            Thread.currentThread().interrupt();
            AppendResult r;
            try {
                r = log.append(draft("Inner", batch, true, AppendKind.INNER_BATCH)).join();
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept (and cleared here)");
            }
            assertEquals(AppendStatus.PUT_OK, r.status());
            LogFixture.appendOk(log, LogFixture.draft("Inner", 0, "after"));
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            assertEquals(List.of("Inner:0:1", "Inner:1:14", "Inner:15:1"),
                    seen.stream().map(e -> e.topic() + ":" + e.queueOffset() + ":" + e.batchCount()).toList());
        }
    }
}
