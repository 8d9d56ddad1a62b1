package io.sluice.store.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps up to {@code capacity} segments that retention removed from the log, renamed, so that the allocator can
 * reuse their files as new segments instead of creating fresh ones (docs/storage.md#commitlog-segments). A reused
 * file keeps its disk blocks and, when recently written, its page-cache pages: writing it costs a copy into
 * resident pages rather than a page allocation and a block reservation per page.
 *
 * <p>A removed segment becomes reusable only once the garbage collector has found its mapping unreachable: until
 * then a reader may still hold a view of its bytes (a pull response being written), which a reuse would overwrite.
 * A reused file holds old records past the new log's written position until zero-fill or the appender overwrites
 * them; recovery rejects them (each record carries its own position), and readers never read past that position.
 *
 * <p>Files waiting here are named {@code recycled-<old start position>} in the log's directory; {@link
 * SegmentChain#load} deletes any left from before a restart. Thread-safety: {@link #offer} by retention,
 * {@link #take} by the allocator thread, collection callbacks by the cleaner thread; all state is concurrent.
 */
final class SegmentRecycler {

    /** Prefix of a file kept for reuse; never a segment file name. */
    static final String FILE_PREFIX = "recycled-";

    private static final Logger LOG = LoggerFactory.getLogger(SegmentRecycler.class);

    private final int capacity;
    /** Files kept here, reusable or not yet. */
    private final AtomicInteger kept = new AtomicInteger();
    /** Files whose mappings were collected, oldest first. */
    private final ConcurrentLinkedQueue<Path> reusable = new ConcurrentLinkedQueue<>();
    private volatile long reused;

    SegmentRecycler(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, was " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Keeps {@code segment}, already out of the log, for reuse if there is room: closes its channel and renames its
     * file. Retention only.
     *
     * @return false when there is no room (the caller deletes the segment as before)
     * @throws IOException when the rename fails; the segment is then neither kept nor deleted
     */
    boolean offer(MappedSegment segment) throws IOException {
        if (kept.incrementAndGet() > capacity) {
            kept.decrementAndGet();
            return false;
        }
        try {
            segment.closeChannel();
            Path renamed = segment.file().resolveSibling(FILE_PREFIX + segment.file().getFileName());
            Files.move(segment.file(), renamed, StandardCopyOption.ATOMIC_MOVE);
            SegmentReleases.whenCollected(segment.mapping(), new Collected(reusable, renamed));
            return true;
        } catch (IOException | RuntimeException e) {
            kept.decrementAndGet();
            throw e;
        }
    }

    /** A kept file whose mapping is gone, to be renamed into a new segment by the caller; allocator thread. */
    Optional<Path> take() {
        Path file = reusable.poll();
        if (file == null) {
            return Optional.empty();
        }
        kept.decrementAndGet();
        reused++;
        return Optional.of(file);
    }

    /** Deletes the reusable files; those whose mappings are still held stay until the next log open. */
    void close() {
        for (Path file; (file = reusable.poll()) != null; ) {
            kept.decrementAndGet();
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("could not delete {}", file, e);
            }
        }
    }

    /** Segments reused so far. */
    long reusedCount() {
        return reused;
    }

    /** Files kept now, reusable or waiting for their mappings to be collected. */
    int keptCount() {
        return kept.get();
    }

    /** Files kept whose mappings have not been collected yet. */
    int awaitingCollection() {
        return Math.max(0, kept.get() - reusable.size());
    }

    /** True if {@code name} is a file kept for reuse. */
    static boolean isRecycledFileName(String name) {
        return name.startsWith(FILE_PREFIX) && MappedSegment.isSegmentFileName(name.substring(FILE_PREFIX.length()));
    }

    /** Runs on the cleaner thread; holds no reference to the mapping or the segment. */
    private record Collected(ConcurrentLinkedQueue<Path> reusable, Path file) implements Runnable {
        @Override
        public void run() {
            reusable.add(file);
        }
    }
}
