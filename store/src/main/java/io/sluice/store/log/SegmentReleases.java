package io.sluice.store.log;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of deleted segments whose disk blocks are still held. A deleted segment's file is unlinked at once, but
 * its mapping, and with it the file's blocks, lives until the garbage collector finds the mapping unreachable (no
 * reader holds a view of it any more; see {@link MappedSegment}). Until then the file system still counts those
 * blocks as used, so a disk check sees no effect of the deletion.
 *
 * <p>Each deleted segment is counted here when it is deleted and uncounted when its mapping becomes phantom
 * reachable, by a {@link Cleaner} thread ({@code sluice-segment-release}, one for the process). Thread-safe.
 */
final class SegmentReleases {
    private static final Cleaner CLEANER = Cleaner.create(runnable -> {
        Thread thread = new Thread(runnable, "sluice-segment-release");
        thread.setDaemon(true);
        return thread;
    });

    private final AtomicLong pendingBytes = new AtomicLong();

    /** Counts {@code segment}, just deleted, until its mapping is collected. */
    void track(MappedSegment segment) {
        pendingBytes.addAndGet(segment.sizeBytes());
        CLEANER.register(segment.mapping(), new Released(pendingBytes, segment.sizeBytes()));
    }

    /**
     * Runs {@code action} on the cleaner thread once {@code mapping} is phantom reachable. The action must not
     * reference the mapping or its segment, or it never becomes so.
     */
    static void whenCollected(Object mapping, Runnable action) {
        CLEANER.register(mapping, action);
    }

    /** Bytes of deleted segments whose mappings have not been collected yet. */
    long pendingBytes() {
        return pendingBytes.get();
    }

    /** Runs once the mapping is phantom reachable; holds no reference to the mapping or the segment. */
    private record Released(AtomicLong pendingBytes, long sizeBytes) implements Runnable {
        @Override
        public void run() {
            pendingBytes.addAndGet(-sizeBytes);
        }
    }
}
