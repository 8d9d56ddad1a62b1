package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SegmentRecyclerTest {

    private static final int SEG = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void keptFileBecomesReusableOnlyAfterItsMappingIsCollected() throws IOException {
        SegmentRecycler recycler = new SegmentRecycler(1);
        MappedSegment segment = MappedSegment.create(dir, 0, SEG, false);
        Path original = segment.file();

        assertTrue(recycler.offer(segment));
        assertFalse(Files.exists(original));
        Path kept = dir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(0));
        assertTrue(Files.exists(kept));
        assertEquals(1, recycler.keptCount());
        // The segment (and so its mapping) is still referenced here: no reuse may happen yet.
        assertEquals(Optional.empty(), recycler.take());
        assertEquals(0, segment.startPosition());

        segment = null;
        AtomicReference<Path> taken = new AtomicReference<>();
        Await.until("the mapping to be collected", Duration.ofSeconds(30), () -> {
            System.gc();
            recycler.take().ifPresent(taken::set);
            return taken.get() != null;
        });
        assertEquals(kept, taken.get());
        assertEquals(0, recycler.keptCount());
        assertEquals(1, recycler.reusedCount());
    }

    @Test
    void refusesBeyondItsCapacityAndWhenDisabled() throws IOException {
        SegmentRecycler recycler = new SegmentRecycler(1);
        assertTrue(recycler.offer(MappedSegment.create(dir, 0, SEG, false)));
        MappedSegment second = MappedSegment.create(dir, SEG, SEG, false);
        assertFalse(recycler.offer(second), "full");
        assertTrue(Files.exists(second.file()), "a refused segment is left to the caller");
        assertFalse(new SegmentRecycler(0).offer(second));
        assertEquals(1, recycler.keptCount());
    }

    @Test
    void reusedFileBecomesTheNewSegmentWithItsOldBytesAndItsSize() throws IOException {
        MappedSegment old = MappedSegment.create(dir, 0, SEG, false);
        old.write(java.nio.ByteBuffer.wrap(new byte[] {7, 7, 7}), 100);
        Path kept = dir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(0));
        Files.move(old.file(), kept);

        MappedSegment reused = MappedSegment.create(dir, 5L * SEG, SEG, false, Optional.of(kept));
        assertFalse(Files.exists(kept));
        assertEquals(dir.resolve(MappedSegment.fileName(5L * SEG)), reused.file());
        assertEquals(SEG, Files.size(reused.file()));
        assertEquals(7, reused.buffer().getByte(100), "old bytes stay until overwritten");

        MappedSegment zeroed = MappedSegment.create(dir, 6L * SEG, SEG, true, Optional.of(move(reused, 6)));
        assertEquals(0, zeroed.buffer().getByte(100), "preallocation zeros a reused file");
    }

    @Test
    void fileOfAnotherSizeIsNotReused() throws IOException {
        Path kept = dir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(0));
        Files.write(kept, new byte[SEG / 2]);
        MappedSegment fresh = MappedSegment.create(dir, SEG, SEG, false, Optional.of(kept));
        assertFalse(Files.exists(kept));
        assertEquals(SEG, Files.size(fresh.file()));
        assertEquals(0, fresh.buffer().getByte(0));
    }

    @Test
    void loadDeletesKeptFilesLeftBeforeARestart() throws IOException {
        MappedSegment.create(dir, 0, SEG, false);
        Path kept = dir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(SEG * 7L));
        Files.write(kept, new byte[SEG]);
        SegmentChain chain = SegmentChain.load(dir, SEG);
        assertEquals(1, chain.size());
        assertFalse(Files.exists(kept));
    }

    private Path move(MappedSegment segment, int tag) throws IOException {
        segment.closeChannel();
        Path kept = dir.resolve(SegmentRecycler.FILE_PREFIX + MappedSegment.fileName(tag));
        Files.move(segment.file(), kept);
        return kept;
    }
}
