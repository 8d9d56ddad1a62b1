package io.sluice.store.log;

import io.sluice.format.BatchBodyDescriptor;
import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogRecoveryTest {

    @TempDir
    Path dir;

    private List<AppendResult> appendSome(int count, int bodyBytes) throws IOException {
        List<AppendResult> results = new ArrayList<>();
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            for (int i = 0; i < count; i++) {
                results.add(LogFixture.appendOk(log, LogFixture.draft("Rec", i % 2,
                        LogFixture.filled(bodyBytes, i), "TAGS\u0001t" + i + "\u0002")));
            }
        }
        return results;
    }

    private Path segmentFile(long start) {
        return dir.resolve("commitlog").resolve(MappedSegment.fileName(start));
    }

    private void overwrite(long position, byte[] bytes) throws IOException {
        long start = position - position % LogFixture.SEGMENT_BYTES;
        try (FileChannel ch = FileChannel.open(segmentFile(start), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position - start);
        }
    }

    private byte[] readFile(long position, int length) throws IOException {
        long start = position - position % LogFixture.SEGMENT_BYTES;
        ByteBuffer out = ByteBuffer.allocate(length);
        try (FileChannel ch = FileChannel.open(segmentFile(start), StandardOpenOption.READ)) {
            ch.read(out, position - start);
        }
        return out.array();
    }

    @Test
    void shouldRecoverEverythingAfterACleanCloseAndContinueTheQueues() throws IOException {
        List<AppendResult> written = appendSome(30, 9_000); // about two segments
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            long end = log.recover(0, true, seen::add);
            assertEquals(written.get(29).nextPosition(), end);
            assertEquals(30, seen.size());
            for (int i = 0; i < 30; i++) {
                assertEquals(written.get(i).position(), seen.get(i).position());
                assertEquals(written.get(i).queueOffset(), seen.get(i).queueOffset());
            }
            assertEquals(15, log.queueOffsets().nextOffset("Rec", 0));
            assertEquals(15, LogFixture.appendOk(log, LogFixture.draft("Rec", 0, "next")).queueOffset());
            assertTrue(log.writtenPosition() > end);
        }
    }

    @Test
    void shouldCutATornLastRecordAndReuseItsSpace() throws IOException {
        List<AppendResult> written = appendSome(5, 1_000);
        AppendResult torn = written.get(4);
        // A torn write: the record's header made it to disk, the second half did not.
        int keep = torn.wroteBytes() / 2;
        overwrite(torn.position() + keep, new byte[torn.wroteBytes() - keep]);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            assertEquals(torn.position(), log.recover(0, true, seen::add));
            assertEquals(4, seen.size());
            assertArrayEquals(new byte[keep], readFile(torn.position(), keep), "the torn header is zeroed");
            assertEquals(2, log.queueOffsets().nextOffset("Rec", 0), "offsets 0, 2 of queue 0 survive");
            AppendResult again = LogFixture.appendOk(log, LogFixture.draft("Rec", 0, "again"));
            assertEquals(torn.position(), again.position());
            assertEquals(2, again.queueOffset());
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            assertEquals(5, seen.size(), "the replacement record is found, nothing of the torn one");
        }
    }

    /**
     * A SIGKILL while an inner batch is being copied can leave its header and body complete (BODYCRC matches) and
     * the bytes after the body (topic, properties with INNER_NUM and INNER_BASE) still zero. Taken for a plain
     * record, it would restart the queue at its base + 1 instead of base + INNER_NUM, and the next batch would
     * overlap it. Recovery must cut such a record, wherever in its tail the write stopped.
     */
    @Test
    void shouldCutAnInnerBatchWhoseTailWasNeverWritten() throws IOException {
        List<AppendResult> written = new ArrayList<>();
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            for (int i = 0; i < 2; i++) {
                List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
                for (int m = 0; m < 3; m++) {
                    messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(200, i * 3 + m), ""));
                }
                written.add(LogFixture.appendOk(log, LogFixture.draft("Inner", 0,
                        BatchBodyDescriptor.encode(messages), "UNIQ_KEY\u0001batch" + i + "\u0002")
                        .withKind(AppendKind.INNER_BATCH)));
            }
        }
        AppendResult torn = written.get(1);
        assertEquals(3, torn.queueOffset());
        byte[] record = readFile(torn.position(), torn.wroteBytes());
        ByteBuffer header = ByteBuffer.wrap(record);
        int bodyLengthAt = RecordDescriptor.bodyLengthOffset(header.getInt(RecordDescriptor.SYS_FLAG_OFFSET));
        int bodyEnd = bodyLengthAt + Integer.BYTES + header.getInt(bodyLengthAt);
        for (int unwritten = 1; unwritten <= torn.wroteBytes() - bodyEnd; unwritten++) {
            overwrite(torn.position(), record);
            overwrite(torn.position() + torn.wroteBytes() - unwritten, new byte[unwritten]);
            try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
                long end = log.recover(0, true, e -> { });
                int missing = unwritten;
                assertEquals(torn.position(), end, () -> "the batch at position " + torn.position()
                        + " lacks its last " + missing + " bytes but recovery kept it up to " + end);
                assertEquals(3, log.queueOffsets().nextOffset("Inner", 0),
                        () -> "queue continues after the first batch (offsets 0..2) when the second lacks its last "
                                + missing + " bytes");
            }
        }
    }

    /**
     * TOTALSIZE is stored last (see {@link RecordDescriptor}): a crash during the copy leaves every other byte of
     * the record, possibly all of them, and TOTALSIZE still zero. Recovery must end before such a record.
     */
    @Test
    void shouldEndBeforeARecordWhoseTotalSizeWasNotYetStored() throws IOException {
        List<AppendResult> written = appendSome(5, 1_000);
        AppendResult unpublished = written.get(4); // queue 0, offset 2
        overwrite(unpublished.position() + RecordDescriptor.TOTAL_SIZE_OFFSET, new byte[Integer.BYTES]);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            assertEquals(unpublished.position(), log.recover(0, true, seen::add));
            assertEquals(4, seen.size());
            assertArrayEquals(new byte[unpublished.wroteBytes()],
                    readFile(unpublished.position(), unpublished.wroteBytes()), "the unpublished bytes are zeroed");
            assertEquals(2, log.queueOffsets().nextOffset("Rec", 0));
            assertEquals(2, log.queueOffsets().nextOffset("Rec", 1));
            AppendResult again = LogFixture.appendOk(log, LogFixture.draft("Rec", 0, "again"));
            assertEquals(unpublished.position(), again.position());
            assertEquals(2, again.queueOffset());
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            assertEquals(List.of(0L, 0L, 1L, 1L, 2L), seen.stream().map(DispatchEntry::queueOffset).toList());
        }
    }

    /**
     * An unpacked batch is published by its first record's TOTALSIZE alone: when that is still zero, the later
     * records of the batch, even complete ones, are not recovered, and the queue continues at the batch's base.
     */
    @Test
    void shouldEndAtTheStartOfAnUnpackedBatchWhoseFirstTotalSizeWasNotYetStored() throws IOException {
        AppendResult batch;
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("Batch", 0, "before"));
            LogFixture.appendOk(log, LogFixture.draft("Other", 0, "before"));
            List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
            for (int m = 0; m < 4; m++) {
                messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(300, m),
                        "UNIQ_KEY\u0001id" + m + "\u0002TAGS\u0001t" + m + "\u0002"));
            }
            batch = LogFixture.appendOk(log, LogFixture.draft("Batch", 0, BatchBodyDescriptor.encode(messages), "")
                    .withKind(AppendKind.UNPACKED_BATCH));
        }
        assertEquals(1, batch.queueOffset());
        assertEquals(4, batch.recordCount());
        overwrite(batch.position() + RecordDescriptor.TOTAL_SIZE_OFFSET, new byte[Integer.BYTES]);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            assertEquals(batch.position(), log.recover(0, true, seen::add),
                    "records 2..4 of the batch are complete but not published");
            assertEquals(2, seen.size());
            assertArrayEquals(new byte[batch.wroteBytes()], readFile(batch.position(), batch.wroteBytes()),
                    "the whole batch is zeroed");
            assertEquals(1, log.queueOffsets().nextOffset("Batch", 0));
            AppendResult again = LogFixture.appendOk(log, LogFixture.draft("Batch", 0, "again"));
            assertEquals(batch.position(), again.position());
            assertEquals(1, again.queueOffset(), "the queue continues densely after the lost batch");
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            assertEquals(List.of("Batch:0", "Other:0", "Batch:1"),
                    seen.stream().map(e -> e.topic() + ":" + e.queueOffset()).toList());
        }
    }

    @Test
    void shouldStopAtABadBodyCrcOnlyWhenCheckingCrc() throws IOException {
        List<AppendResult> written = appendSome(3, 500);
        AppendResult bad = written.get(1);
        byte[] bodyByte = readFile(bad.position() + 100, 1);
        bodyByte[0] ^= 0x5A;
        overwrite(bad.position() + 100, bodyByte);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(written.get(2).nextPosition(), log.recover(0, false, e -> { }), "no CRC: all valid");
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(bad.position(), log.recover(0, true, e -> { }), "CRC: stops at the flipped record");
            assertEquals(ScanStatus.NO_MORE_DATA, log.scan(bad.position(), true).status());
        }
    }

    @Test
    void shouldDeleteSegmentsAfterATornRecordInAnEarlierSegment() throws IOException {
        List<AppendResult> written = appendSome(40, 9_000); // three segments
        AppendResult torn = written.get(5);
        overwrite(torn.position() + 4, new byte[] {1, 2, 3, 4}); // bad magic
        assertTrue(Files.exists(segmentFile(2L * LogFixture.SEGMENT_BYTES)));
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(torn.position(), log.recover(0, true, e -> { }));
            assertEquals(torn.position(), log.writtenPosition());
            // Segment 1 may already be back as the allocator's prepared (empty) next segment; segment 2 is gone.
            assertFalse(Files.exists(segmentFile(2L * LogFixture.SEGMENT_BYTES)));
            assertEquals(ReadStatus.BEYOND_END, log.readRecord(written.get(20).position(), 10).status());
        }
    }

    @Test
    void shouldZeroStaleBytesBeyondTheEndSoTheyCannotComeBack() throws IOException {
        List<AppendResult> written = appendSome(6, 700);
        // Cut after record 2 by corrupting record 3's magic: records 3..5 become stale bytes past the end.
        AppendResult cut = written.get(3);
        overwrite(cut.position() + 4, new byte[] {0, 0, 0, 1});
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(cut.position(), log.recover(0, true, e -> { }));
        }
        int staleBytes = (int) (written.get(5).nextPosition() - cut.position());
        assertArrayEquals(new byte[staleBytes], readFile(cut.position(), staleBytes));
    }

    @Test
    void shouldRecoverFromACheckpointPositionAndVisitOnlyLaterRecords() throws IOException {
        List<AppendResult> written = appendSome(10, 300);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(written.get(7).position(), true, seen::add);
            assertEquals(3, seen.size());
            assertEquals(written.get(7).position(), seen.get(0).position());
            assertThrows(IllegalStateException.class, () -> log.recover(0, true, e -> { }));
        }
    }

    @Test
    void shouldTruncateToARecordBoundary() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            List<AppendResult> written = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                written.add(LogFixture.appendOk(log, LogFixture.draft("Tr", 0, LogFixture.filled(9_000, i), "")));
            }
            long cut = written.get(3).position();
            log.truncateTo(cut);
            assertEquals(cut, log.writtenPosition());
            assertTrue(log.flushedPosition() <= cut);
            assertEquals(ReadStatus.BEYOND_END, log.readRecord(cut, 10).status());
            assertEquals(ReadStatus.BEYOND_END, log.readRecord(written.get(20).position(), 10).status());
            assertFalse(Files.exists(segmentFile(2L * LogFixture.SEGMENT_BYTES)));
            log.queueOffsets().set("Tr", 0, 3);
            AppendResult next = LogFixture.appendOk(log, LogFixture.draft("Tr", 0, "after"));
            assertEquals(cut, next.position());
            assertEquals(3, next.queueOffset());
            assertThrows(IllegalArgumentException.class, () -> log.truncateTo(log.writtenPosition() + 1));
        }
    }

    @Test
    void shouldIgnoreAndDeleteASegmentWhoseCreationWasInterrupted() throws IOException {
        List<AppendResult> written = appendSome(2, 100);
        Path half = dir.resolve("commitlog").resolve(MappedSegment.fileName(LogFixture.SEGMENT_BYTES) + ".tmp");
        Files.write(half, new byte[1000]);
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertFalse(Files.exists(half));
            assertEquals(written.get(1).nextPosition(), log.recover(0, e -> { }));
        }
    }

    @Test
    void shouldRefuseASegmentOfTheWrongSize() throws IOException {
        appendSome(1, 10);
        try (FileChannel ch = FileChannel.open(segmentFile(0), StandardOpenOption.WRITE)) {
            ch.truncate(1000);
        }
        IOException e = assertThrows(IOException.class, () -> CommitLog.open(LogFixture.settings(dir).build()));
        assertTrue(e.getMessage().contains("00000000000000000000"), e.getMessage());
    }
}
