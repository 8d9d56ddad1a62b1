package io.sluice.store.log;

/**
 * Hands pages of CommitLog segments back to the kernel, for {@link PageCacheTrimmer}
 * (docs/storage.md#commitlog-page-cache).
 *
 * <p>Thread-safety: stateless; any thread.
 */
interface PageCacheAdvice {

    /** What {@link #release} did. */
    enum Outcome {
        /** The range was unmapped from this process and its clean pages dropped from the page cache. */
        RELEASED,
        /** The segment's file is gone (retention deleted it meanwhile): nothing to drop. */
        FILE_GONE,
        /** A system call failed; the pages stay where they were. */
        FAILED
    }

    /** Does nothing: where the system calls are not reachable. */
    PageCacheAdvice NONE = new PageCacheAdvice() {
        @Override
        public boolean supported() {
            return false;
        }

        @Override
        public Outcome release(MappedSegment segment, int offset, int bytes) {
            return Outcome.FAILED;
        }
    };

    /** The kernel's, through the C library, where it can be reached (64-bit Linux); else {@link #NONE}. */
    static PageCacheAdvice system() {
        return LinuxPageCacheAdvice.load();
    }

    /** Whether {@link #release} can do anything here. */
    boolean supported();

    /**
     * Removes {@code [offset, offset + bytes)} of {@code segment}'s mapping from this process's page tables, then
     * asks the kernel to drop the clean pages of that range of the file from its page cache. Never changes a byte of
     * the file: a reader's next access faults the page back in, from the cache or the disk, and dirty pages are
     * left in the cache (the kernel starts writing them).
     *
     * @param offset page-aligned offset in the segment
     * @param bytes  length, {@code offset + bytes} within the segment; a last partial page is released whole
     */
    Outcome release(MappedSegment segment, int offset, int bytes);
}
