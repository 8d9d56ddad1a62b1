package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LinuxPageCacheAdvice} against the real kernel: a released range leaves the page cache (mincore says so)
 * while the rest stays, its bytes read back the same through the mapping, dirty bytes survive a release, and a
 * deleted file or a bad range is answered, not acted on. Skipped off 64-bit Linux and on tmpfs, whose pages cannot
 * be dropped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LinuxPageCacheAdviceTest {

    private static final int SEGMENT_BYTES = 8 << 20;
    private static final int HALF = SEGMENT_BYTES / 2;

    @TempDir
    Path dir;

    private final PageCacheAdvice advice = PageCacheAdvice.system();

    @BeforeEach
    void onLinuxWithAPageCache() throws IOException {
        assumeTrue(advice.supported(), "no C library binding here");
        assumeFalse("tmpfs".equals(Files.getFileStore(dir).type()), "tmpfs pages cannot be dropped");
    }

    private static byte patternAt(int offset, int seed) {
        return (byte) (offset * 31 + offset / 4096 + seed);
    }

    private static void fill(MappedSegment segment, int from, int to, int seed) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocateDirect(to - from);
        for (int i = from; i < to; i++) {
            bytes.put(patternAt(i, seed));
        }
        segment.write(bytes.flip(), from);
    }

    private static void assertPattern(MappedSegment segment, int from, int to, int seed) {
        byte[] expected = new byte[to - from];
        byte[] actual = new byte[to - from];
        for (int i = from; i < to; i++) {
            expected[i - from] = patternAt(i, seed);
        }
        segment.buffer().getBytes(from, actual);
        assertArrayEquals(expected, actual, "bytes [" + from + ", " + to + ") of " + segment);
    }

    @Test
    void aReleasedRangeLeavesTheCacheAndReadsBackTheSame() throws IOException {
        MappedSegment segment = MappedSegment.create(dir, 0, SEGMENT_BYTES, false);
        try {
            fill(segment, 0, SEGMENT_BYTES, 1);
            segment.force(0, SEGMENT_BYTES);
            assertPattern(segment, 0, SEGMENT_BYTES, 1); // maps every page, as the log's readers do
            assertTrue(segment.isResident(0, SEGMENT_BYTES));

            assertEquals(PageCacheAdvice.Outcome.RELEASED, advice.release(segment, 0, HALF));
            assertFalse(segment.isResident(0, HALF), "the released half is still cached");
            assertTrue(segment.isResident(HALF, HALF), "the other half went too");

            assertPattern(segment, 0, SEGMENT_BYTES, 1); // read again, from the disk
        } finally {
            segment.closeChannel();
        }
    }

    @Test
    void unflushedBytesSurviveARelease() throws IOException {
        MappedSegment segment = MappedSegment.create(dir, 0, SEGMENT_BYTES, false);
        try {
            fill(segment, 0, SEGMENT_BYTES, 2);
            assertPattern(segment, 0, SEGMENT_BYTES, 2);
            assertEquals(PageCacheAdvice.Outcome.RELEASED, advice.release(segment, 0, SEGMENT_BYTES));
            assertPattern(segment, 0, SEGMENT_BYTES, 2);
        } finally {
            segment.closeChannel();
        }
        MappedSegment reopened = MappedSegment.open(dir.resolve(MappedSegment.fileName(0)), SEGMENT_BYTES);
        assertPattern(reopened, 0, SEGMENT_BYTES, 2);
    }

    @Test
    void aDeletedFileOrABadRangeIsAnsweredNotActedOn() throws IOException {
        MappedSegment segment = MappedSegment.create(dir, 0, SEGMENT_BYTES, false);
        fill(segment, 0, SEGMENT_BYTES, 3);
        IllegalArgumentException unaligned = assertThrows(IllegalArgumentException.class,
                () -> advice.release(segment, 100, 4096));
        assertTrue(unaligned.getMessage().contains("offset 100"), unaligned.getMessage());
        IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
                () -> advice.release(segment, HALF, SEGMENT_BYTES));
        assertTrue(beyond.getMessage().contains(Integer.toString(SEGMENT_BYTES)), beyond.getMessage());
        segment.delete();
        assertEquals(PageCacheAdvice.Outcome.FILE_GONE, advice.release(segment, 0, HALF));
        assertPattern(segment, 0, SEGMENT_BYTES, 3); // the mapping still reads what was written
    }
}
