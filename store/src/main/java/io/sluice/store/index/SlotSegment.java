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
 * One consume-queue file: {@code capacitySlots} fixed-size slots, memory-mapped read-write for its whole length, so a
 * slot append is a few stores and readers see the same memory (a write call per slot would cost a system call each).
 *
 * <p>Files are created sparse at full length: writing their zeros would cost disk and dispatch time for every queue
 * that receives its first message. Before the writer touches a page, {@link #prepareWrite} writes zeros into the next
 * {@link #PREPARE_AHEAD_BYTES} with one {@code pwrite}, so the page fault finds the page cached and the kernel does
 * not read around it; files mapped by {@link #open} count as prepared up to the end recovery keeps
 * (docs/storage.md#consume-queue-files-and-threads).
 *
 * <p>Lifetime: reference counted. The owning {@link SlotLog} holds one reference until {@link #retire}; a reader
 * holds one ({@link #tryHold()}, {@link #release()}) for the few nanoseconds of a read; the mapping is unmapped when
 * the count drops to zero. A retired file is unlinked at once, so a later file of the same name never collides.
 *
 * <p>Thread safety: the owning log's writer thread stores slots; any thread may read slots it knows to be published
 * while it holds a reference. Reference counting is lock-free.
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
