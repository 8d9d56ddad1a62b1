package io.sluice.store.index;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One consume-queue file: {@code capacitySlots} fixed-size slots, pre-allocated with zeros and memory-mapped
 * read-write for its whole length.
 *
 * <p><b>Why mmap.</b> A slot is 20 or 46 bytes and the dispatcher appends millions per second; a
 * {@code FileChannel.write} per slot would cost a system call each (about 1 µs, so below the 3 M/s goal), and
 * readers would then need their own copy of the unflushed tail. Through the mapping a slot append is three
 * stores, and readers see the same memory.
 *
 * <p><b>Sparse files.</b> A file is created at its full length without writing its zeros: the file system
 * allocates a block when a slot first lands in it. Writing the zeros up front would cost 13.8 MB of disk and
 * about 10 ms of the dispatch writer's time for every BatchCQ queue that receives its first message, which for a
 * 10,000-queue topic is 138 GB and minutes of dispatch lag. The price is the usual one of mmap writes to a sparse
 * file, a fault when the disk is full; the store refuses appends well before that (retention's
 * {@code diskRefuseWriteRatio}), as Apache RocketMQ's store does with the same sparse consume-queue files.
 *
 * <p><b>Pages written ahead of the writer.</b> The writer never touches a page of the mapping the page cache does not
 * hold yet: {@link #prepareWrite} first writes zeros into the next {@link #PREPARE_AHEAD_BYTES} with one
 * {@code pwrite}. A fault on a missing page of a file mapping makes the kernel read around it, up to the device's
 * read-ahead window; on a machine whose window is 8 MiB that costs 9 to 20 ms per new file (it allocates and zeroes
 * the whole window), and a 10,000-queue topic then holds 80 GB of page cache for queues that each hold a few slots.
 * A page that a write put into the page cache is found by the fault, so nothing is read around it. Files mapped by
 * {@link #open} are taken as prepared up to the end recovery keeps ({@link #preparedOnlyTo}); after a clean stop
 * recovery does not read the rest of the newest file.
 *
 * <p><b>Lifetime.</b> Reference counted. The owning {@link SlotLog} holds one reference from creation until
 * {@link #retire}; a reader holds one with {@link #tryHold()} for the few nanoseconds of a read and gives it
 * back with {@link #release()}. The mapping is unmapped when the count drops to zero, so no thread can touch
 * unmapped memory. A retired file is deleted from its directory at once (POSIX keeps the mapping valid), so a
 * later file with the same name never collides with it.
 *
 * <p>Thread safety: the writer thread of the owning log stores slots; any thread may read slots it knows to be
 * published (see {@link SlotLog}) while it holds a reference. Reference counting is lock-free.
 */
final class SlotSegment {

    /** How far ahead of the slot being written the file's pages are put into the page cache by a write. */
    static final int PREPARE_AHEAD_BYTES = 64 * 1024;
    private static final int PAGE_BYTES = 4096;
    /** Zeros for {@link #prepareWrite}; read-only, every use takes its own duplicate. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(PREPARE_AHEAD_BYTES + PAGE_BYTES)
            .asReadOnlyBuffer();

    private static final VarHandle REFS;
    private static final VarHandle RETIRED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            REFS = lookup.findVarHandle(SlotSegment.class, "refs", int.class);
            RETIRED = lookup.findVarHandle(SlotSegment.class, "retired", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Path file;
    private final long startSlot;
    private final int capacitySlots;
    private final int slotBytes;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    /** Bytes from the file's start that the writer may store into through the mapping. Writer thread only. */
    private int preparedBytes;

    /** Reference count; 1 = only the owning log. Accessed through {@link #REFS} only. */
    private volatile int refs = 1;
    /** Set once by {@link #retire}. Accessed through {@link #RETIRED} only. */
    private volatile boolean retired;

    private SlotSegment(Path file, long startSlot, int capacitySlots, int slotBytes, MappedByteBuffer mapped,
                          int preparedBytes) {
        this.file = file;
        this.startSlot = startSlot;
        this.capacitySlots = capacitySlots;
        this.slotBytes = slotBytes;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.preparedBytes = preparedBytes;
    }

    /**
     * Creates a new file (it must not exist yet) of the full length, sparse (it reads as zeros), and maps it.
     *
     * @throws IOException if the file exists already or cannot be written or mapped
     */
    static SlotSegment create(Path file, long startSlot, int capacitySlots, int slotBytes) throws IOException {
        long bytes = (long) capacitySlots * slotBytes;
        try (FileChannel channel = FileChannel.open(file,
                StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            extendSparse(channel, bytes);
            int prepared = preparedEnd(0, (int) bytes);
            writeZeros(channel, 0, prepared);
            return new SlotSegment(file, startSlot, capacitySlots, slotBytes,
                    channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes), prepared);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Maps an existing file. A file shorter than a full segment is accepted only when {@code mayExtend} (the
     * newest file of a queue, whose pre-allocation may have been cut short by a crash before any slot was
     * written): it is extended with zeros.
     *
     * @throws IOException naming the file if its length is wrong or it cannot be mapped
     */
    static SlotSegment open(Path file, long startSlot, int capacitySlots, int slotBytes, boolean mayExtend)
            throws IOException {
        long bytes = (long) capacitySlots * slotBytes;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long length = channel.size();
            if (length != bytes) {
                if (!mayExtend || length > bytes) {
                    throw new IOException("consume queue file " + file + " has " + length
                            + " bytes, expected " + bytes + " (" + capacitySlots + " slots of " + slotBytes + ")");
                }
                extendSparse(channel, bytes);
            }
            return new SlotSegment(file, startSlot, capacitySlots, slotBytes,
                    channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes), (int) bytes);
        }
    }

    /**
     * Makes bytes {@code [0, byteEnd)} safe to store into through the mapping without a read-around fault: when
     * {@code byteEnd} passes the prepared end, writes zeros from there to {@link #PREPARE_AHEAD_BYTES} beyond
     * {@code byteEnd} (page-aligned, capped at the file's end). Only bytes the writer has never stored into are
     * written. Writer thread only.
     *
     * @throws IOException if the file cannot be written (e.g. it was deleted with its topic)
     */
    void prepareWrite(int byteEnd) throws IOException {
        if (byteEnd <= preparedBytes) {
            return;
        }
        int to = preparedEnd(byteEnd, capacitySlots * slotBytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            writeZeros(channel, preparedBytes, to);
        }
        preparedBytes = to;
    }

    /** The prepared end for a write reaching {@code byteEnd}: a page boundary ahead of it, at most the file end. */
    private static int preparedEnd(int byteEnd, int fileBytes) {
        long aligned = ((long) byteEnd + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
        return (int) Math.min(fileBytes, aligned + PREPARE_AHEAD_BYTES);
    }

    private static void writeZeros(FileChannel channel, int fromByte, int toByte) throws IOException {
        long at = fromByte;
        while (at < toByte) {
            ByteBuffer zeros = ZEROS.duplicate();
            zeros.limit((int) Math.min(zeros.capacity(), toByte - at));
            while (zeros.hasRemaining()) {
                at += channel.write(zeros, at);
            }
        }
    }

    /**
     * Lowers the prepared end to {@code byteEnd}, the end of the slots recovery kept in this opened file: the rest
     * may be a hole that recovery did not read, so {@link #prepareWrite} writes its zeros before the writer stores
     * there. Those bytes are zero already, so writing zeros over them changes nothing. At open, before the writer
     * starts.
     */
    void preparedOnlyTo(int byteEnd) {
        if (byteEnd < 0 || byteEnd > capacitySlots * slotBytes) {
            throw new IllegalArgumentException("prepared end must be in [0, " + capacitySlots * slotBytes
                    + "] for " + this + ", was " + byteEnd);
        }
        preparedBytes = Math.min(preparedBytes, byteEnd);
    }

    /** The prepared end (see {@link #prepareWrite}). For tests. */
    int preparedBytes() {
        return preparedBytes;
    }

    /** Sets the length to {@code bytes} by writing the last byte (a zero): the gap before it stays a hole. */
    private static void extendSparse(FileChannel channel, long bytes) throws IOException {
        ByteBuffer last = ByteBuffer.allocate(1);
        while (last.hasRemaining()) {
            channel.write(last, bytes - 1 + last.position());
        }
    }

    /** Global slot index of this file's first slot. */
    long startSlot() {
        return startSlot;
    }

    /** Global slot index just past this file's last slot. */
    long endSlot() {
        return startSlot + capacitySlots;
    }

    int capacitySlots() {
        return capacitySlots;
    }

    /** The mapped bytes. Valid only while the caller holds a reference (or is the owner before retiring). */
    UnsafeBuffer buffer() {
        return buffer;
    }

    /** Byte index inside this file of global slot {@code slot}. */
    int byteIndex(long slot) {
        return (int) (slot - startSlot) * slotBytes;
    }

    /**
     * Takes a reader reference; false once the file is retired. (A reader that wins the race with
     * {@link #retire} holds a retired file: still safe, its reference keeps the mapping.)
     */
    boolean tryHold() {
        while (true) {
            int current = (int) REFS.getVolatile(this);
            if (current <= 0 || (boolean) RETIRED.getVolatile(this)) {
                return false;
            }
            if (REFS.compareAndSet(this, current, current + 1)) {
                return true;
            }
        }
    }

    /** Gives back a reference; the last one unmaps the file. */
    void release() {
        if ((int) REFS.getAndAdd(this, -1) == 1) {
            IoUtil.unmap(mapped);
        }
    }

    /** Current reference count (owner + readers); 0 once unmapped. For tests and diagnostics. */
    int references() {
        return (int) REFS.getVolatile(this);
    }

    /**
     * Drops the owner's reference; the mapping goes when the last reader releases. Idempotent.
     *
     * @param deleteFile delete the file now (its mapping stays valid for current readers)
     * @throws IOException if the file cannot be deleted (the owner's reference is dropped anyway)
     */
    void retire(boolean deleteFile) throws IOException {
        if (!RETIRED.compareAndSet(this, false, true)) {
            return;
        }
        try {
            if (deleteFile) {
                Files.deleteIfExists(file);
            }
        } finally {
            release();
        }
    }

    /** Forces bytes {@code [fromByte, toByte)} of this file to the storage device. Caller holds a reference. */
    void force(int fromByte, int toByte) {
        if (toByte > fromByte) {
            mapped.force(fromByte, toByte - fromByte);
        }
    }

    /**
     * Zeroes every non-zero byte in {@code [fromByte, toByte)}, reading first so that pages which are already
     * zero are not dirtied. Owner only.
     *
     * @return true if anything was written
     */
    boolean zeroNonZero(int fromByte, int toByte) {
        boolean wrote = false;
        int i = fromByte;
        for (; i + Long.BYTES <= toByte; i += Long.BYTES) {
            if (buffer.getLong(i) != 0L) {
                buffer.putLong(i, 0L);
                wrote = true;
            }
        }
        for (; i < toByte; i++) {
            if (buffer.getByte(i) != 0) {
                buffer.putByte(i, (byte) 0);
                wrote = true;
            }
        }
        return wrote;
    }

    @Override
    public String toString() {
        return "SlotSegment{" + file + ", startSlot=" + startSlot + ", capacitySlots=" + capacitySlots + '}';
    }
}
