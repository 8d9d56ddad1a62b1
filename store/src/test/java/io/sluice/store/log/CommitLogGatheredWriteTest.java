package io.sluice.store.log;

import io.sluice.testing.Await;
import io.sluice.format.BatchBodyDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large body in direct memory goes to the file by a gathering write (staged header, the body where it is, staged
 * tail): the file must hold exactly what the staged path writes, and a failed gathering write must leave nothing
 * that could pass for a record.
 */
@Timeout(60)
class CommitLogGatheredWriteTest {

    private static final long STORE_TIMESTAMP_MS = 1_700_000_123_456L;

    @TempDir
    Path dir;

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + 16);
        b.position(7); // a body that does not start at the buffer's start
        b.put(bytes);
        return b.flip().position(7);
    }

    private static byte[] innerBatchBody(int entries, int entryBodyBytes) {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(entryBodyBytes, i),
                    "UNIQ_KEY\u0001inner" + i + "\u0002"));
        }
        return BatchBodyDescriptor.encode(messages);
    }

    /** The same drafts, bodies on the heap or in direct memory. */
    private static List<MessageDraft> drafts(boolean directBodies) {
        byte[] big = LogFixture.filled(9_000, 3);
        byte[] small = LogFixture.filled(PreparedAppend.GATHER_MIN_BODY_BYTES - 1, 4);
        byte[] batch = innerBatchBody(6, 1_500);
        List<MessageDraft> drafts = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            drafts.add(draft("G", round % 2, big, directBodies, AppendKind.SINGLE, "TAGS\u0001t\u0002"));
            drafts.add(draft("G", 0, small, directBodies, AppendKind.SINGLE, ""));
            drafts.add(draft("Inner", round % 3, batch, directBodies, AppendKind.INNER_BATCH, "UNIQ_KEY\u0001b\u0002"));
        }
        return drafts;
    }

    private static MessageDraft draft(String topic, int queueId, byte[] body, boolean direct, AppendKind kind,
                                      String properties) {
        return MessageDraft.builder(topic, queueId).body(direct ? direct(body) : ByteBuffer.wrap(body))
                .propertiesText(properties).bornHost(LogFixture.BORN_HOST).bornTimestampMs(1_700_000_000_000L)
                .kind(kind).build();
    }

    private static LogEnvironment fixedClock() {
        return LogEnvironment.system().withEpochClock(() -> STORE_TIMESTAMP_MS);
    }

    @Test
    void onlyLargeDirectBodiesOfSingleRecordsAreGathered() {
        DraftEncoder encoder = new DraftEncoder(LogFixture.MAX_MESSAGE_BYTES, LogFixture.SEGMENT_BYTES, false);
        byte[] big = LogFixture.filled(PreparedAppend.GATHER_MIN_BODY_BYTES, 1);
        PreparedAppend directSingle = (PreparedAppend) encoder.prepare(
                draft("G", 0, big, true, AppendKind.SINGLE, ""));
        ByteBuffer body = directSingle.gatheredBody();
        assertEquals(big.length, body.remaining());
        assertEquals(7, body.position(), "a view of the draft's own body");
        PreparedAppend directBatch = (PreparedAppend) encoder.prepare(
                draft("Inner", 0, innerBatchBody(4, 1_200), true, AppendKind.INNER_BATCH, ""));
        assertTrue(directBatch.gatheredBody().hasRemaining());

        assertFalse(((PreparedAppend) encoder.prepare(draft("G", 0, big, false, AppendKind.SINGLE, "")))
                .gatheredBody().hasRemaining(), "a heap body is staged");
        assertFalse(((PreparedAppend) encoder.prepare(draft("G", 0, LogFixture.filled(big.length - 1, 1), true,
                AppendKind.SINGLE, ""))).gatheredBody().hasRemaining(), "a small body is staged");
        assertFalse(((PreparedAppend) encoder.prepare(draft("Inner", 0, innerBatchBody(4, 1_200), true,
                AppendKind.UNPACKED_BATCH, ""))).gatheredBody().hasRemaining(), "an unpacked batch is staged");
    }

    @Test
    void gatheredRecordsAreByteForByteTheStagedOnesAndRecover() throws IOException {
        Path staged = dir.resolve("staged");
        Path gathered = dir.resolve("gathered");
        long end;
        try (CommitLog a = LogFixture.openRecovered(LogFixture.settings(staged).build(), fixedClock());
             CommitLog b = LogFixture.openRecovered(LogFixture.settings(gathered).build(), fixedClock())) {
            for (MessageDraft d : drafts(false)) {
                LogFixture.appendOk(a, d);
            }
            for (MessageDraft d : drafts(true)) {
                LogFixture.appendOk(b, d);
            }
            end = b.writtenPosition();
            assertEquals(a.writtenPosition(), end);
            assertTrue(end > 2L * LogFixture.SEGMENT_BYTES, "the drafts roll over segments: " + end);
        }
        for (long at = 0; at < end; at += LogFixture.SEGMENT_BYTES) {
            int length = (int) Math.min(LogFixture.SEGMENT_BYTES, end - at);
            assertArrayEquals(LogFixture.fileBytes(staged, at, length), LogFixture.fileBytes(gathered, at, length),
                    "segment at " + at);
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(gathered).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            assertEquals(end, log.recover(0, true, seen::add), "every record passes recovery's CRC check");
            assertEquals(36, seen.size());
        }
    }

    /** A gathering write that reached the file but whose TOTALSIZE did not: the bytes are zeroed. */
    @Test
    void aFailedGatheredAppendIsZeroedAndTheLogGoesOn() throws IOException {
        AtomicInteger calls = new AtomicInteger(-1_000_000);
        LogEnvironment env = LogEnvironment.system()
                .withWriteHook((position, bytes) -> {
                    if (calls.incrementAndGet() == 2) {
                        throw new IOException("No space left on device (simulated)");
                    }
                })
                .withDiskSpace(d -> 0);
        byte[] batch = innerBatchBody(6, 1_500);
        AppendResult before;
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env)) {
            before = LogFixture.appendOk(log, LogFixture.draft("B", 0, "before"));
            calls.set(0);
            AppendResult failed = Await.result(log.append(draft("Inner", 0, batch, true, AppendKind.INNER_BATCH,
                    "")));
            assertEquals(AppendStatus.DISK_FULL, failed.status());
            assertArrayEquals(new byte[batch.length + 256], LogFixture.fileBytes(dir, before.nextPosition(), batch.length + 256),
                    "the failed record was zeroed");
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(before.nextPosition(), log.recover(0, true, e -> { }));
        }
    }

    @Test
    void anInterruptedAppenderStillWritesAGatheredRecord() throws IOException {
        byte[] batch = innerBatchBody(6, 1_500);
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("Inner", 0, "before")); // the segment exists
            Thread.currentThread().interrupt();
            AppendResult r;
            try {
                r = log.append(draft("Inner", 0, batch, true, AppendKind.INNER_BATCH, "")).join();
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept (and cleared here)");
            }
            assertEquals(AppendStatus.PUT_OK, r.status());
            LogFixture.appendOk(log, LogFixture.draft("Inner", 0, "after"));
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            assertEquals(List.of("Inner:0:1", "Inner:1:6", "Inner:7:1"),
                    seen.stream().map(e -> e.topic() + ":" + e.queueOffset() + ":" + e.batchCount()).toList());
        }
    }
}
