package io.sluice.store.log;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PageCacheAdvice} through Linux's C library, bound with JNA: {@code madvise(MADV_DONTNEED)} on the mapping,
 * then {@code posix_fadvise(POSIX_FADV_DONTNEED)} on the file. Both are needed: the kernel never drops a page from
 * the cache while a process maps it, and the CommitLog's readers map every page they read.
 *
 * <p>Thread-safety: stateless; any thread.
 */
final class LinuxPageCacheAdvice implements PageCacheAdvice {

    /** The C library functions used, bound by name; {@code size_t} and {@code off_t} are 64-bit here. */
    interface LibC extends Library {
        int madvise(Pointer address, long length, int advice) throws LastErrorException;

        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        /** Returns the error number itself (0 on success), not -1. */
        int posix_fadvise(int fd, long offset, long length, int advice);
    }

    private static final Logger LOG = LoggerFactory.getLogger(LinuxPageCacheAdvice.class);

    /** Linux's values, the same on every architecture Sluice runs on (x86-64, arm64). */
    static final int MADV_DONTNEED = 4;
    static final int POSIX_FADV_DONTNEED = 4;
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int ENOENT = 2;

    private final LibC libc;

    private LinuxPageCacheAdvice(LibC libc) {
        this.libc = libc;
    }

    /** This binding on 64-bit Linux when the C library loads; else {@link PageCacheAdvice#NONE}, logged once. */
    static PageCacheAdvice load() {
        if (!Platform.isLinux() || !Platform.is64Bit()) {
            return NONE;
        }
        try {
            return new LinuxPageCacheAdvice(Native.load("c", LibC.class));
        } catch (LinkageError e) {
            LOG.warn("cannot bind the C library ({}): the CommitLog's page cache is left to the kernel", e.toString());
            return NONE;
        }
    }

    @Override
    public boolean supported() {
        return true;
    }

    @Override
    public Outcome release(MappedSegment segment, int offset, int bytes) {
        if (offset < 0 || bytes < 0 || offset % MappedSegment.PAGE_BYTES != 0
                || (long) offset + bytes > segment.sizeBytes()) {
            throw new IllegalArgumentException("release of " + bytes + " bytes at offset " + offset + " of " + segment
                    + " (" + segment.sizeBytes() + " bytes): the offset must be page-aligned, the range within"
                    + " the segment");
        }
        if (bytes == 0) {
            return Outcome.RELEASED;
        }
        // The caller holds the segment, so its mapping (kept alive by the segment) cannot be collected meanwhile.
        long address = segment.buffer().addressOffset() + offset;
        int fd;
        try {
            libc.madvise(new Pointer(address), bytes, MADV_DONTNEED);
            fd = libc.open(segment.file().toString(), O_RDONLY | O_CLOEXEC);
        } catch (LastErrorException e) {
            return e.getErrorCode() == ENOENT ? Outcome.FILE_GONE : Outcome.FAILED;
        }
        try {
            return libc.posix_fadvise(fd, offset, bytes, POSIX_FADV_DONTNEED) == 0 ? Outcome.RELEASED : Outcome.FAILED;
        } finally {
            try {
                libc.close(fd);
            } catch (LastErrorException e) {
                LOG.warn("close({}) of {} failed: errno {}", fd, segment, e.getErrorCode());
            }
        }
    }
}
