package io.sluice.store.log;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segment creation, writing through the file, and the allocator's queue of prepared segments. */
class SegmentPreparationTest {

    private static final int SEG = 64 * 1024;

    @TempDir
    Path dir;

    private List<String> fileNames() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void createdSegmentHasItsFinalNameFullLengthAndZeros() throws IOException {
        for (boolean preallocate : new boolean[] {true, false}) {
            long start = preallocate ? 0 : SEG;
            MappedSegment s = MappedSegment.create(dir, start, SEG, preallocate);
            assertEquals(SEG, Files.size(dir.resolve(MappedSegment.fileName(start))));
            for (int at = 0; at < SEG; at += 1024) {
                assertEquals(0, s.buffer().getByte(at));
            }
        }
        assertEquals(List.of(MappedSegment.fileName(0), MappedSegment.fileName(SEG)), fileNames());
    }

    @Test
    void allocatorPreparesAheadInOrderAndTopsUp() throws Exception {
        try (SegmentAllocator allocator = new SegmentAllocator(dir, SEG, true, 3, new SegmentRecycler(0))) {
            assertEquals(0, allocator.readyCount());
            allocator.prepare(0);
            Await.until("3 segments ready", () -> allocator.readyCount() == 3);
            assertEquals(List.of(MappedSegment.fileName(0), MappedSegment.fileName(SEG),
                    MappedSegment.fileName(2L * SEG)), fileNames());

            MappedSegment first = allocator.take(0, 5_000);
            assertEquals(0, first.startPosition());
            assertEquals(2, allocator.readyCount());
            allocator.prepare(first.endPosition());
            Await.until("topped up to 3", () -> allocator.readyCount() == 3);
            assertTrue(Files.exists(dir.resolve(MappedSegment.fileName(3L * SEG))));

            assertEquals(SEG, allocator.take(SEG, 5_000).startPosition());
        }
    }

    @Test
    void allocatorDiscardsPreparationsForAnotherPosition() throws Exception {
        try (SegmentAllocator allocator = new SegmentAllocator(dir, SEG, false, 2, new SegmentRecycler(0))) {
            allocator.prepare(4L * SEG);
            Await.until("2 segments ready", () -> allocator.readyCount() == 2);
            MappedSegment taken = allocator.take(SEG, 5_000); // the log was truncated back
            assertEquals(SEG, taken.startPosition());
            allocator.prepare(taken.endPosition());
            Await.until("2 segments ready again", () -> allocator.readyCount() == 2);
            Await.until("stale preparations deleted", () -> fileNames().equals(List.of(MappedSegment.fileName(SEG),
                    MappedSegment.fileName(2L * SEG), MappedSegment.fileName(3L * SEG))));
        }
    }

    @Test
    void segmentsAreSparseByDefault(@TempDir Path root) {
        assertFalse(LogSettings.builder(root, new java.net.InetSocketAddress("127.0.0.1", 10911)).build()
                .preallocateSegments());
    }

    @Test
    void closeDeletesSegmentsNobodyTook() throws Exception {
        SegmentAllocator allocator = new SegmentAllocator(dir, SEG, true, 2, new SegmentRecycler(0));
        allocator.prepare(0);
        Await.until("2 segments ready", () -> allocator.readyCount() == 2);
        allocator.close();
        assertEquals(0, allocator.readyCount());
        assertFalse(Files.exists(dir.resolve(MappedSegment.fileName(0))));
        assertFalse(Files.exists(dir.resolve(MappedSegment.fileName(SEG))));
    }

    @Test
    void logKeepsTheConfiguredSegmentsReadyAhead(@TempDir Path root) throws IOException {
        LogSettings settings = LogFixture.settings(root).segmentsPreparedAhead(3).build();
        try (CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system())) {
            Await.until("3 segments ready", () -> log.segmentsReadyAhead() == 3);
            byte[] body = new byte[30 * 1024];
            for (int i = 0; i < 12; i++) {
                LogFixture.appendOk(log, LogFixture.draft("T", 0, body, ""));
            }
            assertTrue(log.writtenPosition() > 2L * LogFixture.SEGMENT_BYTES);
            Await.until("topped up after rolls", () -> log.segmentsReadyAhead() == 3);
        }
    }

    @Test
    void segmentsPreparedAheadIsValidated(@TempDir Path root) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogFixture.settings(root).segmentsPreparedAhead(0).build());
        assertTrue(e.getMessage().contains("segmentsPreparedAhead") && e.getMessage().contains("was 0"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LogFixture.settings(root)
                .segmentsPreparedAhead(LogSettings.MAX_SEGMENTS_PREPARED_AHEAD + 1).build());
        assertEquals(LogSettings.DEFAULT_SEGMENTS_PREPARED_AHEAD, LogFixture.settings(root).build()
                .segmentsPreparedAhead());
    }
}
