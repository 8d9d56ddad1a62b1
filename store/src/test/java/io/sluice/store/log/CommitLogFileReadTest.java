package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers that go to the file instead of the mapping ({@link CommitLog#read}, {@link CommitLog#fileSpan}) see the
 * bytes the mapping holds, are refused what the mapping would refuse, and a span taken before its segment is deleted
 * still reads the old bytes.
 */
@Timeout(60)
class CommitLogFileReadTest {

    private static final int SEG = LogFixture.SEGMENT_BYTES;

    @TempDir
    Path dir;

    private static byte[] fromSpan(FileSpan span) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(span.length());
        FileChannel channel = span.channel();
        while (bytes.hasRemaining()) {
            channel.read(bytes, span.filePosition() + bytes.position());
        }
        return bytes.array();
    }

    @Test
    void aFileReadAndASpanHoldTheBytesOfTheMapping() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            List<AppendResult> appended = new ArrayList<>();
            for (int i = 0; log.writtenPosition() < 2L * SEG + 1; i++) {
                appended.add(LogFixture.appendOk(log,
                        LogFixture.draft("File", i % 4, LogFixture.filled(700 + i * 37 % 5000, i), "")));
            }
            for (AppendResult r : appended) {
                byte[] mapped = LogFixture.bytes(log.readRecord(r.position(), r.wroteBytes()).buffer());
                ByteBuffer copy = ByteBuffer.allocateDirect(r.wroteBytes() + 10).position(10);
                assertEquals(ReadStatus.FOUND, log.read(r.position(), copy));
                assertFalse(copy.hasRemaining(), "filled to its limit");
                assertArrayEquals(mapped, LogFixture.bytes(copy.flip().position(10)), "read at " + r.position());

                FileSpan span = log.fileSpan(r.position(), r.wroteBytes()).orElseThrow();
                assertEquals(r.position() % SEG, span.filePosition());
                assertArrayEquals(mapped, fromSpan(span), "span at " + r.position());
            }
            AppendResult a = appended.get(0);
            AppendResult b = appended.get(1);
            FileSpan first = log.fileSpan(a.position(), a.wroteBytes()).orElseThrow();
            FileSpan second = log.fileSpan(b.position(), b.wroteBytes()).orElseThrow();
            assertSame(first.channel(), second.channel(), "one read channel per segment");
            assertEquals(first.filePosition() + a.wroteBytes(), second.filePosition(), "back to back in the file");
            assertEquals(0, log.fileReadFallbacks());
        }
    }

    @Test
    void whatTheMappingRefusesTheFileRefusesToo() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            AppendResult r = LogFixture.appendOk(log, LogFixture.draft("File", 0, "only"));
            ByteBuffer dst = ByteBuffer.allocate(r.wroteBytes() + 1);
            assertEquals(ReadStatus.BEYOND_END, log.read(r.position(), dst), "past what is written");
            assertEquals(0, dst.position(), "untouched");
            assertEquals(ReadStatus.INVALID_RANGE, log.read(-1, ByteBuffer.allocate(8)));
            assertEquals(ReadStatus.INVALID_RANGE, log.read(0, ByteBuffer.allocate(0)));
            assertTrue(log.fileSpan(r.position(), r.wroteBytes() + 1).isEmpty());
            assertTrue(log.fileSpan(-1, 8).isEmpty());
        }
    }

    @Test
    void aSpanTakenBeforeItsSegmentIsDeletedStillReadsItsBytes() throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(),
                LogEnvironment.system().withEpochClock(clock))) {
            clock.update(1000);
            AppendResult kept = LogFixture.appendOk(log, LogFixture.draft("File", 0, LogFixture.filled(3000, 9), ""));
            byte[] expected = LogFixture.bytes(log.readRecord(kept.position(), kept.wroteBytes()).buffer());
            FileSpan span = log.fileSpan(kept.position(), kept.wroteBytes()).orElseThrow();
            clock.update(5000);
            while (log.writtenPosition() < SEG + 1) {
                Await.result(log.append(LogFixture.draft("File", 1, LogFixture.filled(9000, 1), "")));
            }
            assertEquals(SEG, log.deleteExpiredSegments(10_000, 1_000, false, 10), "segment 0 deleted");
            ByteBuffer dst = ByteBuffer.allocate(kept.wroteBytes());
            assertEquals(ReadStatus.POSITION_DELETED, log.read(kept.position(), dst));
            assertTrue(log.fileSpan(kept.position(), kept.wroteBytes()).isEmpty());
            assertArrayEquals(expected, fromSpan(span), "the span holds the deleted file open");
        }
    }
}
