package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.RecordDescriptor;
import io.sluice.testing.Await;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class CommitLogRetentionTest {

    private static final int SEG = LogFixture.SEGMENT_BYTES;

    @TempDir
    Path dir;

    /** Fills segment k with records stored at time (k + 1) * 1000, until the log is in segment {@code last}. */
    private static void fill(CommitLog log, CachedEpochClock clock, int last) {
        byte[] body = LogFixture.filled(9_000, 3);
        while (log.writtenPosition() < (long) last * SEG + 1) {
            clock.update((log.writtenPosition() / SEG + 1) * 1000);
            LogFixture.appendOk(log, LogFixture.draft("Ret", 0, body, ""));
        }
    }

    @Test
    void shouldDeleteExpiredSegmentsOldestFirstButNeverTheActiveOne() throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(),
                LogEnvironment.system().withEpochClock(clock))) {
            fill(log, clock, 3);
            Path commitLogDir = log.settings().commitLogDir();
            AppendResult inFirst = Await.result(log.append(LogFixture.draft("Ret", 1, "keep me")));
            // Records land in the active segment (3); read one from segment 0 before it goes.
            ByteBuffer heldView = log.readRecord(0, 100).buffer();
            byte[] heldBytes = LogFixture.bytes(heldView);

            assertEquals(SEG, log.deleteExpiredSegments(2_600, 1_000, false, 10), "segment 0 (t=1000) expired");
            assertEquals(ReadStatus.POSITION_DELETED, log.readRecord(0, 100).status());
            assertEquals(ScanStatus.POSITION_DELETED, log.scan(0, false).status());
            assertFalse(Files.exists(commitLogDir.resolve(MappedSegment.fileName(0))));
            assertArrayEquals(heldBytes, LogFixture.bytes(heldView), "a held view still reads the same bytes");

            assertEquals(SEG, log.deleteExpiredSegments(2_600, 1_000, false, 10), "segment 1 (t=2000) is too young");
            assertEquals(2L * SEG, log.deleteExpiredSegments(2_600, 1_000, true, 1), "forced, at most one");
            assertEquals(3L * SEG, log.deleteExpiredSegments(2_600, 1_000, true, 10), "forced: all but the active");
            assertEquals(3L * SEG, log.deleteExpiredSegments(Long.MAX_VALUE, 0, true, 10), "the active one stays");
            assertEquals(ReadStatus.FOUND, log.readRecord(inFirst.position(), inFirst.wroteBytes()).status());
            assertTrue(Files.exists(commitLogDir.resolve(MappedSegment.fileName(3L * SEG))));
            assertEquals(3L * SEG, log.minPosition());
            LogFixture.appendOk(log, LogFixture.draft("Ret", 0, "still writable"));
        }
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(3L * SEG, log.minPosition());
            log.recover(0, true, e -> { });
            assertTrue(log.writtenPosition() > 3L * SEG);
        }
    }

    @Test
    @Timeout(120)
    void shouldReuseRemovedSegmentsAndReadBackWhatIsWrittenOverThem() throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        LogSettings settings = LogFixture.settings(dir).zeroFillAheadBytes(0).recycledSegments(2).build();
        List<AppendResult> after = new ArrayList<>();
        long end;
        try (CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system().withEpochClock(clock))) {
            fill(log, clock, 3);
            assertEquals(2L * SEG, log.deleteSegments(10_000, Long.MAX_VALUE, 2L * SEG, Long.MAX_VALUE, false, 10,
                    true));
            Path commitLogDir = settings.commitLogDir();
            assertTrue(Files.exists(commitLogDir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(0))));
            byte[] body = LogFixture.filled(9_000, 5);
            Await.until("a removed segment to be reused and written over", Duration.ofSeconds(60), () -> {
                System.gc();
                for (int i = 0; i < 4; i++) {
                    after.add(LogFixture.appendOk(log, LogFixture.draft("Ret", 2, body, "")));
                }
                return log.segmentsReused() >= 1 && log.writtenPosition() > 7L * SEG;
            });
            for (AppendResult r : after) {
                ByteBuffer record = log.readRecord(r.position(), r.wroteBytes()).buffer();
                assertEquals(r.position(), record.getLong(record.position() + RecordDescriptor.PHYSICAL_OFFSET_OFFSET));
            }
            end = log.writtenPosition();
        }
        try (CommitLog log = CommitLog.open(settings)) {
            List<Long> recovered = new ArrayList<>();
            log.recover(2L * SEG, true, e -> recovered.add(e.position()));
            assertEquals(end, log.writtenPosition());
            assertTrue(recovered.containsAll(after.stream().map(AppendResult::position).toList()));
        }
    }

    @Test
    void recoveryEndsBeforeOldRecordsLeftInAReusedFile() throws IOException {
        LogSettings settings = LogFixture.settings(dir).zeroFillAheadBytes(0).build();
        long end;
        try (CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system())) {
            byte[] body = LogFixture.filled(9_000, 3);
            while (log.writtenPosition() < SEG + SEG / 3) {
                LogFixture.appendOk(log, LogFixture.draft("Ret", 0, body, ""));
            }
            end = log.writtenPosition();
        }
        // What a reused file holds past the end: records at the same offsets, written for another position.
        Path first = settings.commitLogDir().resolve(MappedSegment.fileName(0));
        Path last = settings.commitLogDir().resolve(MappedSegment.fileName(SEG));
        byte[] old = Files.readAllBytes(first);
        byte[] current = Files.readAllBytes(last);
        int offset = (int) (end - SEG);
        System.arraycopy(old, offset, current, offset, SEG - offset);
        Files.write(last, current);

        try (CommitLog log = CommitLog.open(settings)) {
            log.recover(0, false, e -> { });
            assertEquals(end, log.writtenPosition(), "an old record fails the PHYSICALOFFSET check");
        }
        byte[] cut = Files.readAllBytes(last);
        for (int i = offset; i < SEG; i++) {
            assertEquals(0, cut[i], "recovery zeroed the old bytes after the end, at offset " + i);
        }
    }

    @Test
    void shouldReportTheDiskUsage() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            double ratio = log.diskUsedRatio();
            assertTrue(ratio > 0 && ratio <= 1, "ratio " + ratio);
        }
    }
}
