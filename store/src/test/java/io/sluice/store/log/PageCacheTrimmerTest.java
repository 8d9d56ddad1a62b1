package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageCacheTrimmer}: it releases every byte below {@code min(flushed, written - cacheMaxBytes)} exactly once,
 * page-aligned and segment by segment, in steps of {@link PageCacheTrimmer#STEP_BYTES} or up to a segment's end;
 * never a flushed-but-recent or unflushed byte; after a truncation it starts again where the log now ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PageCacheTrimmerTest {

    private static final int SEGMENT_BYTES = 16 << 20;
    private static final int SEGMENTS = 4;
    private static final long MIB = 1 << 20;
    private static final long WINDOW_BYTES = 4 * MIB;

    /** A release the trimmer asked for, by log position. */
    private record Release(long position, long bytes) {
        long end() {
            return position + bytes;
        }
    }

    /** Records each release and answers with {@link #next}. */
    private static final class RecordingAdvice implements PageCacheAdvice {
        final List<Release> releases = new ArrayList<>();
        Outcome next = Outcome.RELEASED;

        @Override
        public boolean supported() {
            return true;
        }

        @Override
        public Outcome release(MappedSegment segment, int offset, int bytes) {
            assertEquals(0, offset % 4096, "offset " + offset + " is not page-aligned");
            assertTrue(offset + (long) bytes <= segment.sizeBytes(), "beyond " + segment);
            releases.add(new Release(segment.startPosition() + offset, bytes));
            return next;
        }
    }

    @TempDir
    Path dir;

    private SegmentChain chain;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong flushed = new AtomicLong();
    private final RecordingAdvice advice = new RecordingAdvice();

    @BeforeEach
    void segments() throws IOException {
        chain = new SegmentChain(SEGMENT_BYTES);
        for (int i = 0; i < SEGMENTS; i++) {
            chain.append(MappedSegment.create(dir, (long) i * SEGMENT_BYTES, SEGMENT_BYTES, false));
        }
    }

    @AfterEach
    void closeFiles() throws IOException {
        for (MappedSegment s : chain.snapshot()) {
            s.closeChannel();
        }
    }

    private PageCacheTrimmer trimmer(long windowBytes) {
        return new PageCacheTrimmer(chain, flushed::get, written::get, windowBytes, advice);
    }

    private void at(long writtenPosition, long flushedPosition) {
        written.set(writtenPosition);
        flushed.set(flushedPosition);
    }

    @Test
    void onlyFlushedBytesOutsideTheNewestWindowAreReleasedSegmentBySegment() {
        PageCacheTrimmer trimmer = trimmer(WINDOW_BYTES);
        at(20 * MIB, 10 * MIB); // unflushed bytes bound it
        assertEquals(1, trimmer.trimCycle());
        assertEquals(List.of(new Release(0, 10 * MIB)), advice.releases);

        at(20 * MIB, 20 * MIB); // now the window does: up to 16 MiB, a segment's end, though less than a step
        assertEquals(1, trimmer.trimCycle());
        assertEquals(new Release(10 * MIB, 6 * MIB), advice.releases.get(1));

        at(40 * MIB, 40 * MIB); // across a segment boundary: one release per segment
        assertEquals(1, trimmer.trimCycle());
        assertEquals(List.of(new Release(16 * MIB, 16 * MIB), new Release(32 * MIB, 4 * MIB)),
                advice.releases.subList(2, 4));
        assertEquals(0, trimmer.trimCycle(), "nothing new to release");
        assertEquals(4, advice.releases.size());
        assertEquals(new PageCacheTrimmer.Stats(36 * MIB, 0), trimmer.stats());
    }

    @Test
    void withinASegmentItWaitsForAWholeStep() {
        PageCacheTrimmer trimmer = trimmer(WINDOW_BYTES);
        at(WINDOW_BYTES + PageCacheTrimmer.STEP_BYTES - 4096, Long.MAX_VALUE);
        assertEquals(0, trimmer.trimCycle());
        assertTrue(advice.releases.isEmpty(), advice.releases.toString());
        at(WINDOW_BYTES + PageCacheTrimmer.STEP_BYTES, Long.MAX_VALUE);
        assertEquals(1, trimmer.trimCycle());
        assertEquals(List.of(new Release(0, PageCacheTrimmer.STEP_BYTES)), advice.releases);
    }

    @Test
    void anUnalignedBoundReleasesWholePagesAndTheRestNextTime() {
        PageCacheTrimmer trimmer = trimmer(WINDOW_BYTES);
        at(WINDOW_BYTES + 9 * MIB + 100, Long.MAX_VALUE);
        trimmer.trimCycle();
        at(WINDOW_BYTES + 18 * MIB + 100, Long.MAX_VALUE);
        trimmer.trimCycle();
        assertEquals(List.of(new Release(0, 9 * MIB), new Release(9 * MIB, 7 * MIB),
                new Release(16 * MIB, 2 * MIB)), advice.releases);
    }

    @Test
    void afterATruncationItStartsAgainWhereTheLogNowEnds() {
        PageCacheTrimmer trimmer = trimmer(WINDOW_BYTES);
        at(20 * MIB, 20 * MIB);
        trimmer.trimCycle();
        at(5 * MIB, 5 * MIB); // a replica cut its log back
        assertEquals(0, trimmer.trimCycle());
        at(30 * MIB, 30 * MIB); // and wrote it again
        trimmer.trimCycle();
        assertEquals(List.of(new Release(0, 16 * MIB), new Release(5 * MIB, 11 * MIB),
                new Release(16 * MIB, 10 * MIB)), advice.releases);
    }

    @Test
    void failuresAreCountedAndAGoneFileIsNeitherReleasedNorFailed() {
        PageCacheTrimmer trimmer = trimmer(WINDOW_BYTES);
        advice.next = PageCacheAdvice.Outcome.FAILED;
        at(20 * MIB, 20 * MIB);
        trimmer.trimCycle();
        assertEquals(new PageCacheTrimmer.Stats(0, 1), trimmer.stats());
        advice.next = PageCacheAdvice.Outcome.FILE_GONE;
        at(30 * MIB, 30 * MIB);
        trimmer.trimCycle();
        assertEquals(new PageCacheTrimmer.Stats(0, 1), trimmer.stats());
        assertEquals(2, advice.releases.size(), "a failed range is not asked for again: " + advice.releases);
    }

    @Test
    void itRunsOnlyWithAWindowAndWhereTheKernelCanBeAsked() {
        assertTrue(trimmer(WINDOW_BYTES).enabled());
        assertFalse(trimmer(0).enabled());
        assertFalse(new PageCacheTrimmer(chain, flushed::get, written::get, WINDOW_BYTES, PageCacheAdvice.NONE)
                .enabled());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> trimmer(-1));
        assertTrue(bad.getMessage().contains("-1"), bad.getMessage());
    }

    @Test
    void overAnyHistoryEveryByteBelowTheBoundIsReleasedOnceAndNoneAboveIt() {
        for (long seed = 1; seed <= 50; seed++) {
            Random random = new Random(seed);
            advice.releases.clear();
            long window = random.nextInt(3) * MIB + random.nextInt(4096);
            PageCacheTrimmer trimmer = trimmer(window);
            long w = 0;
            long f = 0;
            long lastBound = 0;
            long releasedEnd = 0;
            while (w < (long) SEGMENTS * SEGMENT_BYTES - 4 * MIB) {
                w = Math.min((long) SEGMENTS * SEGMENT_BYTES, w + random.nextInt(6 << 20));
                f = f + (long) (random.nextDouble() * (w - f));
                at(w, f);
                int before = advice.releases.size();
                trimmer.trimCycle();
                long bound = Math.min(f, w - window);
                for (Release r : advice.releases.subList(before, advice.releases.size())) {
                    assertEquals(releasedEnd, r.position(), "seed " + seed + ": contiguous, no overlap");
                    assertTrue(r.end() <= bound, "seed " + seed + ": " + r + " above the bound " + bound);
                    releasedEnd = r.end();
                }
                lastBound = Math.max(lastBound, bound);
            }
            assertTrue(lastBound - releasedEnd < PageCacheTrimmer.STEP_BYTES + 4096,
                    "seed " + seed + ": released up to " + releasedEnd + " of " + lastBound);
        }
    }
}
