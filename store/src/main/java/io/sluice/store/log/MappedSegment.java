package io.sluice.store.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One fixed-size CommitLog segment file, memory-mapped read-write for its whole length, named by its start position
 * in the log as 20 zero-padded digits (docs/storage.md#commitlog-segments).
 *
 * <p>Bytes are written through the file channel ({@link #write}, {@link #zeroNonZero}), never
 * stored into the mapping: a block that cannot be allocated then fails the write where it can be answered, instead
 * of faulting after the append looked successful. Readers use the mapping, or the file itself ({@link #read},
 * {@link #readChannel}) where touching each page of the mapping once costs more than a copy. A segment is never
 * unmapped explicitly, since readers may hold views of it: {@link #delete} only unlinks the file and the GC releases
 * the mapping ({@link SegmentReleases}); truncation writes zeros rather than shortening the file.
 *
 * <p>Thread-safety: written only by the CommitLog append lock holder or the single recovery caller, and only while
 * it is the active segment; any thread may read below the log's published written position. {@link #delete} is
 * also called by retention, for a segment no longer in the log whose channel the writer closed.
 */
final class MappedSegment {

    /** Digits of a segment file name. */
    static final int FILE_NAME_DIGITS = 20;
    /** Suffix of a segment file still being created. */
    static final String TEMP_SUFFIX = ".tmp";
    /** The page size every range this package hands to the kernel is aligned to. */
    static final int PAGE_BYTES = 4096;
    /** Writes tried in a row when interrupts from other threads keep closing the channel. */
    private static final int MAX_WRITE_ATTEMPTS = 3;
    /** Small enough to stay in the L2 cache, so that zero-filling reads no memory. */
    private static final int ZERO_CHUNK_BYTES = 256 * 1024;
    /** Bytes read at a time by {@link #zeroNonZero}: a few pages per read call. */
    private static final int ZERO_CHECK_CHUNK_BYTES = 64 * 1024;

    private final Path file;
    private final long startPosition;
    private final int sizeBytes;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    /** The file was a removed segment's ({@link SegmentRecycler}): its blocks exist and old bytes remain. */
    private final boolean reusedFile;
    /** For {@link #write}; opened on demand, replaced when an interrupt closed it. Writers only (see above). */
    private FileChannel channel;
    /**
     * Where {@link #channel}'s own position is known to stand, or -1: a gathering write seeks only when it starts
     * elsewhere, since appends follow each other and a seek is one more system call per append. Writers only.
     */
    private long channelPosition = -1;
    /**
     * Read-only descriptor of the file, for {@link #read} and for sending straight from the file
     * ({@link #readChannel}): opened on first use, reopened if an interrupt closed it. Any thread; opening is
     * serialized on this object. {@link #delete} drops it without closing it, because a send in flight may still use
     * it (the JDK closes a channel nobody holds); {@link #closeReadChannel} closes it when the log closes.
     */
    private volatile FileChannel readChannel;
    /** Store timestamp of the last record appended or recovered here; 0 when unknown. */
    private final AtomicLong lastStoreTimestampMs = new AtomicLong();

    private MappedSegment(Path file, long startPosition, int sizeBytes, MappedByteBuffer mapped, boolean reusedFile) {
        this.file = file;
        this.startPosition = startPosition;
        this.sizeBytes = sizeBytes;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.reusedFile = reusedFile;
    }

    /** The file name of the segment starting at {@code startPosition}. */
    static String fileName(long startPosition) {
        String digits = Long.toString(startPosition);
        return "0".repeat(FILE_NAME_DIGITS - digits.length()) + digits;
    }

    /** True if {@code name} looks like a segment file name. */
    static boolean isSegmentFileName(String name) {
        if (name.length() != FILE_NAME_DIGITS) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Creates (replacing any stale file of that name) and maps a new segment, under a temporary name that is
     * replaced by the final one when the segment is complete.
     *
     * @param preallocate write zeros through the whole file in large blocks, so that its disk blocks exist from
     *                    the start; otherwise the file is sparse and blocks are allocated as records are written
     * @param recycled    a file of {@code sizeBytes} kept by {@link SegmentRecycler} to reuse instead of a new one;
     *                    its old bytes stay until overwritten (zeroed first with {@code preallocate}). A recycled
     *                    file of another size is deleted and a new file created
     * @throws IOException when the file cannot be created, filled or mapped
     */
    static MappedSegment create(Path dir, long startPosition, int sizeBytes, boolean preallocate,
                                Optional<Path> recycled) throws IOException {
        Path file = dir.resolve(fileName(startPosition));
        // Built under a temporary name and renamed when complete: a crash mid-way leaves only a *.tmp file,
        // which load ignores, never a short segment that would stop the log from opening.
        Path temp = dir.resolve(fileName(startPosition) + TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        boolean reuse = false;
        if (recycled.isPresent()) {
            Files.move(recycled.get(), temp, StandardCopyOption.ATOMIC_MOVE);
            reuse = Files.size(temp) == sizeBytes;
            if (!reuse) {
                Files.delete(temp);
            }
        }
        MappedByteBuffer mapped;
        try (FileChannel channel = reuse
                ? FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
            if (preallocate) {
                writeZeros(channel, ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK_BYTES, sizeBytes)), 0, sizeBytes);
            } else if (!reuse) {
                channel.write(ByteBuffer.allocate(1), sizeBytes - 1L); // full length, sparse
            }
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, sizeBytes);
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        // The mapping follows the file through the rename.
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return new MappedSegment(file, startPosition, sizeBytes, mapped, reuse);
    }

    /** {@link #create(Path, long, int, boolean, Optional)} of a new file. */
    static MappedSegment create(Path dir, long startPosition, int sizeBytes, boolean preallocate)
            throws IOException {
        return create(dir, startPosition, sizeBytes, preallocate, Optional.empty());
    }

    /**
     * Writes zeros through {@code [from, to)} of {@code channel}, a {@code zeros} buffer (direct, all zeros) at a
     * time. For pre-allocation here and for {@link ZeroFillAhead}, each with its own channel.
     */
    static void writeZeros(FileChannel channel, ByteBuffer zeros, long from, long to) throws IOException {
        long at = from;
        while (at < to) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
            at += channel.write(zeros, at);
        }
    }

    /**
     * Maps an existing segment file.
     *
     * @throws IOException naming the file when its size is not {@code sizeBytes}
     */
    static MappedSegment open(Path file, int sizeBytes) throws IOException {
        long startPosition = Long.parseLong(file.getFileName().toString());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size != sizeBytes) {
                throw new IOException("segment " + file + " has " + size + " bytes, the log's segmentBytes is "
                        + sizeBytes + " (the segment size of an existing log cannot change)");
            }
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, sizeBytes);
            MappedSegment segment = new MappedSegment(file, startPosition, sizeBytes, mapped, false);
            segment.lastStoreTimestampMs.set(Files.getLastModifiedTime(file).toMillis());
            return segment;
        }
    }

    Path file() {
        return file;
    }

    long startPosition() {
        return startPosition;
    }

    /** Position just after this segment: the next segment's start. */
    long endPosition() {
        return startPosition + sizeBytes;
    }

    int sizeBytes() {
        return sizeBytes;
    }

    boolean contains(long position) {
        return position >= startPosition && position < startPosition + sizeBytes;
    }

    /** True when this segment was made from a removed segment's file, whose disk blocks already exist. */
    boolean reusedFile() {
        return reusedFile;
    }

    /**
     * True when every page of {@code [offset, offset + bytes)} is in the page cache now (mincore; a later eviction
     * is possible). Any thread.
     */
    boolean isResident(int offset, int bytes) {
        return mapped.slice(offset, bytes).isLoaded();
    }

    /** The whole mapping, for reading: every write goes through the file ({@link #write}). */
    UnsafeBuffer buffer() {
        return buffer;
    }

    /**
     * Writes all of {@code src} (position to limit) through the file at {@code offset}. Append lock holder (or
     * the single recovery/truncation caller) only. The calling thread's interrupt status is set aside for the
     * write and restored afterwards, and a channel that an interrupt from elsewhere closed mid-write is reopened
     * and the write retried, so that an interrupt never turns into a storage failure.
     *
     * @throws IOException when the file cannot be written (a full disk). What part of {@code src} reached the
     *                     file is unknown: the caller must not count any of it
     */
    void write(ByteBuffer src, int offset) throws IOException {
        write(new ByteBuffer[] {src}, offset);
    }

    /**
     * Writes all of {@code srcs} (each from position to limit, in order) through the file at {@code offset}: a
     * write at the channel's position when the last such write ended at {@code offset}, else one positional write
     * for a single buffer, else a gathering write after a seek. So the pieces of a record that already sit in direct
     * memory go to the file without first being copied together, and appends that continue one another never seek
     * (nothing else uses the channel's position). Same callers, interrupt handling and failure contract as
     * {@link #write(ByteBuffer, int)}.
     */
    void write(ByteBuffer[] srcs, int offset) throws IOException {
        long total = 0;
        int[] startPositions = new int[srcs.length];
        for (int i = 0; i < srcs.length; i++) {
            startPositions[i] = srcs[i].position();
            total += srcs[i].remaining();
        }
        if (offset < 0 || offset + total > sizeBytes) {
            throw new IllegalArgumentException("writing " + total + " bytes at offset " + offset + " overruns "
                    + this + " of " + sizeBytes + " bytes");
        }
        boolean interrupted = Thread.interrupted();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    FileChannel c = channel();
                    boolean continues = channelPosition == offset;
                    if (srcs.length == 1 && !continues) {
                        for (long at = offset; srcs[0].hasRemaining(); ) {
                            at += c.write(srcs[0], at);
                        }
                    } else {
                        channelPosition = -1; // unknown until the whole write returns
                        if (!continues) {
                            c.position(offset);
                        }
                        for (long left = total; left > 0; ) {
                            left -= c.write(srcs);
                        }
                        channelPosition = offset + total;
                    }
                    return;
                } catch (ClosedChannelException e) {
                    interrupted |= Thread.interrupted();
                    channel = null;
                    channelPosition = -1;
                    if (attempt == MAX_WRITE_ATTEMPTS) {
                        throw new IOException(this + " was closed under " + MAX_WRITE_ATTEMPTS + " writes in a row",
                                e);
                    }
                    for (int i = 0; i < srcs.length; i++) {
                        srcs[i].position(startPositions[i]);
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private FileChannel channel() throws IOException {
        FileChannel c = channel;
        if (c == null || !c.isOpen()) {
            c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            channel = c;
            channelPosition = -1;
        }
        return c;
    }

    /** A read-only view of {@code length} bytes from {@code offset}; no copy. */
    ByteBuffer view(int offset, int length) {
        return mapped.slice(offset, length).asReadOnlyBuffer();
    }

    /** Records that a record with this store timestamp was appended or recovered here. */
    void noteStoreTimestamp(long storeTimestampMs) {
        lastStoreTimestampMs.lazySet(storeTimestampMs);
    }

    /** When this segment was last written: the last record's store time, else the file's modification time. */
    long lastWriteTimeMs() {
        return lastStoreTimestampMs.get();
    }

    /** Forces the bytes in {@code [fromOffset, toOffset)} to disk. */
    void force(int fromOffset, int toOffset) throws IOException {
        if (toOffset <= fromOffset) {
            return;
        }
        try {
            mapped.force(fromOffset, toOffset - fromOffset);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Zeros, through the file, the bytes of {@code [fromOffset, toOffset)} in every page that holds a non-zero one
     * there, reading the others through the file without writing them (holes stay holes). Writers only.
     *
     * <p>Read through the file, not the mapping: on some file systems (tmpfs) a read fault on a hole of a shared
     * writable mapping allocates a page, which on a full one is a SIGBUS; this runs after a write failed for a
     * full disk, over bytes that may be holes.
     *
     * @return the offset after the last byte changed, or {@code fromOffset} when nothing was
     * @throws IOException when the bytes cannot be read or the zeros cannot be written
     */
    int zeroNonZero(int fromOffset, int toOffset) throws IOException {
        int dirtyEnd = fromOffset;
        ByteBuffer chunk = ByteBuffer.allocateDirect(ZERO_CHECK_CHUNK_BYTES);
        ByteBuffer zeros = null;
        int chunkStart = fromOffset;
        while (chunkStart < toOffset) {
            // Whole pages after the first: a chunk ends on a page boundary (or at toOffset).
            int chunkEnd = Math.min(toOffset, (chunkStart + ZERO_CHECK_CHUNK_BYTES) / PAGE_BYTES * PAGE_BYTES);
            readFully(chunk.clear().limit(chunkEnd - chunkStart), chunkStart);
            int pageStart = chunkStart;
            while (pageStart < chunkEnd) {
                int pageEnd = Math.min(chunkEnd, (pageStart / PAGE_BYTES + 1) * PAGE_BYTES);
                if (!isZero(chunk, pageStart - chunkStart, pageEnd - chunkStart)) {
                    if (zeros == null) {
                        zeros = ByteBuffer.allocateDirect(PAGE_BYTES);
                    }
                    write(zeros.clear().limit(pageEnd - pageStart), pageStart);
                    dirtyEnd = pageEnd;
                }
                pageStart = pageEnd;
            }
            chunkStart = chunkEnd;
        }
        return dirtyEnd;
    }

    /**
     * Reads {@code dst}'s remaining bytes from the file at {@code offset} (a positional read into memory the caller
     * owns): for readers that would otherwise touch each page of the mapping once, which costs more than the copy.
     * Any thread; the caller's interrupt status is set aside for the read and restored, and a channel that an
     * interrupt elsewhere closed is reopened and the read retried.
     *
     * @throws IOException when the file cannot be read; {@code dst}'s position then tells how much was read
     */
    void read(ByteBuffer dst, int offset) throws IOException {
        if (offset < 0 || (long) offset + dst.remaining() > sizeBytes) {
            throw new IllegalArgumentException("reading " + dst.remaining() + " bytes at offset " + offset
                    + " overruns " + this + " of " + sizeBytes + " bytes");
        }
        boolean interrupted = Thread.interrupted();
        try {
            long at = offset;
            for (int attempt = 1; dst.hasRemaining(); ) {
                try {
                    int n = readChannel().read(dst, at);
                    if (n < 0) {
                        throw new IOException(this + " ends before offset " + at);
                    }
                    at += n;
                } catch (ClosedChannelException e) {
                    interrupted |= Thread.interrupted();
                    if (++attempt > MAX_WRITE_ATTEMPTS) {
                        throw new IOException(this + " was closed under " + MAX_WRITE_ATTEMPTS + " reads in a row", e);
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The file's read-only channel, open: for positional reads and for sending byte ranges of the file to a socket
     * without mapping them. Whoever sends from it must keep this segment reachable until the send ends, so that
     * the file is not reused meanwhile ({@link SegmentRecycler} waits for the mapping to be collected). Any thread.
     *
     * @throws IOException when the file cannot be opened (it was deleted before anyone opened it for reading)
     */
    FileChannel readChannel() throws IOException {
        FileChannel c = readChannel;
        if (c != null && c.isOpen()) {
            return c;
        }
        synchronized (this) {
            c = readChannel;
            if (c == null || !c.isOpen()) {
                c = FileChannel.open(file, StandardOpenOption.READ);
                readChannel = c;
            }
            return c;
        }
    }

    /** Closes the read-only channel, if open. When the log closes: nothing sends from it any more. */
    void closeReadChannel() throws IOException {
        FileChannel c;
        synchronized (this) {
            c = readChannel;
            readChannel = null;
        }
        if (c != null) {
            c.close();
        }
    }

    /** Reads {@code dst}'s remaining bytes from the file at {@code offset}; past the end reads as zeros. */
    private void readFully(ByteBuffer dst, int offset) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            long at = offset;
            while (dst.hasRemaining()) {
                int n = channel().read(dst, at);
                if (n < 0) {
                    while (dst.hasRemaining()) {
                        dst.put((byte) 0);
                    }
                    break;
                }
                at += n;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean isZero(ByteBuffer b, int from, int to) {
        int at = from;
        for (; at + Long.BYTES <= to; at += Long.BYTES) {
            if (b.getLong(at) != 0) {
                return false;
            }
        }
        for (; at < to; at++) {
            if (b.get(at) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Closes the channel that {@link #write} uses, if open (a later write opens it again); the mapping stays
     * readable. Writers only: when the writer moves to the next segment, and when the log closes.
     */
    void closeChannel() throws IOException {
        FileChannel c = channel;
        channel = null;
        channelPosition = -1;
        if (c != null) {
            c.close();
        }
    }

    /** The mapping itself, for tracking when it is collected ({@link SegmentReleases}); never read or written. */
    Object mapping() {
        return mapped;
    }

    /**
     * Closes the file's write channel, drops its read channel (see {@link #readChannel}) and unlinks the file. The
     * mapping stays valid for readers until it is collected.
     */
    void delete() throws IOException {
        closeChannel();
        readChannel = null;
        Files.deleteIfExists(file);
    }

    @Override
    public String toString() {
        return "segment " + file.getFileName();
    }
}
