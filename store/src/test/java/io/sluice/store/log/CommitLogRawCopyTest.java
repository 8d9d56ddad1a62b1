package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Replication's raw path: whole-record chunks read from one log and written at the same positions of another. */
@Timeout(30)
class CommitLogRawCopyTest {

    @TempDir
    Path dir;

    @Test
    void copyIsByteForByteAcrossSegmentsAndRecoversToTheSameEnd() throws IOException {
        long end;
        try (CommitLog source = LogFixture.openRecovered(dir.resolve("source"));
             CommitLog copy = LogFixture.openRecovered(dir.resolve("copy"))) {
            byte[] body = LogFixture.filled(10_000, 7);
            while (source.writtenPosition() < 2 * LogFixture.SEGMENT_BYTES + 5_000) {
                LogFixture.appendOk(source, LogFixture.draft("Copy", 0, body, ""));
            }
            long position = 0;
            while (position < source.writtenPosition()) {
                ReadResult chunk = source.readRaw(position, 25_000);
                assertTrue(chunk.isFound(), "chunk at " + position + ": " + chunk.status());
                int size = chunk.buffer().remaining();
                assertTrue(size <= 25_000, "whole records up to the limit, " + size);
                assertEquals(RawAppendStatus.OK, copy.appendRaw(position, chunk.buffer()));
                position += size;
            }
            assertEquals(source.writtenPosition(), copy.writtenPosition());
            assertSameBytes(source, copy);
            end = copy.writtenPosition();
        }
        try (CommitLog reopened = LogFixture.openRecovered(dir.resolve("copy"))) {
            assertEquals(end, reopened.writtenPosition(), "the copy's records are valid records");
            List<ScanStatus> statuses = new ArrayList<>();
            RecordCursor cursor = reopened.cursor(0);
            ScanResult r;
            while ((r = cursor.next()).status() != ScanStatus.NO_MORE_DATA) {
                statuses.add(r.status());
            }
            assertTrue(statuses.contains(ScanStatus.VALID) && statuses.stream().allMatch(
                    s -> s == ScanStatus.VALID || s == ScanStatus.END_OF_SEGMENT), statuses::toString);
        }
    }

    @Test
    void refusesWhatDoesNotContinueTheLog() throws IOException {
        try (CommitLog source = LogFixture.openRecovered(dir.resolve("source"));
             CommitLog copy = LogFixture.openRecovered(dir.resolve("copy"))) {
            LogFixture.appendOk(source, LogFixture.draft("Copy", 0, "a"));
            LogFixture.appendOk(source, LogFixture.draft("Copy", 0, "b"));
            ByteBuffer all = source.readRaw(0, 1 << 20).buffer();
            int first = all.getInt(0);
            assertEquals(RawAppendStatus.NOT_CONTIGUOUS, copy.appendRaw(first, all.duplicate().position(first)));
            assertEquals(RawAppendStatus.MALFORMED, copy.appendRaw(0, ByteBuffer.allocate(4)));
            assertEquals(RawAppendStatus.MALFORMED, copy.appendRaw(0, ByteBuffer.allocate(64)));
            ByteBuffer tooLong = ByteBuffer.allocate(LogFixture.SEGMENT_BYTES + 1).putInt(0, 100);
            assertEquals(RawAppendStatus.CROSSES_SEGMENT, copy.appendRaw(0, tooLong));
            assertEquals(0, copy.writtenPosition(), "nothing refused is published");
            assertEquals(RawAppendStatus.OK, copy.appendRaw(0, all));
            assertEquals(source.writtenPosition(), copy.writtenPosition());
            assertEquals(ReadStatus.BEYOND_END, source.readRaw(source.writtenPosition(), 100).status());
        }
    }

    private static void assertSameBytes(CommitLog a, CommitLog b) {
        long position = 0;
        while (position < a.writtenPosition()) {
            ByteBuffer left = a.readRaw(position, 1 << 20).buffer();
            ByteBuffer right = b.readRaw(position, 1 << 20).buffer();
            assertEquals(left, right, "bytes at " + position);
            position += left.remaining();
        }
    }
}
