package io.sluice.store.keyindex;

import static io.sluice.store.keyindex.KeyIndexDescriptor.BEGIN_POSITION_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.BEGIN_TIME_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.END_POSITION_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.END_TIME_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRIES_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_BYTES;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_COUNT_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_HASH_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_POSITION_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_PREV_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.ENTRY_TIME_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.HASH_SLOTS_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.HEADER_BYTES;
import static io.sluice.store.keyindex.KeyIndexDescriptor.HEADER_CRC_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.MAGIC;
import static io.sluice.store.keyindex.KeyIndexDescriptor.MAGIC_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.STATE_OFFSET;
import static io.sluice.store.keyindex.KeyIndexDescriptor.STATE_OPEN;
import static io.sluice.store.keyindex.KeyIndexDescriptor.SLOT_BYTES;
import static io.sluice.store.keyindex.KeyIndexDescriptor.STATE_SEALED;
import static io.sluice.store.keyindex.KeyIndexDescriptor.VERSION;
import static io.sluice.store.keyindex.KeyIndexDescriptor.VERSION_OFFSET;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.IoUtil;

/**
 * One key-index file ({@link KeyIndexDescriptor}), memory-mapped for its whole length (created sparse).
 *
 * <p>Entries and slots are written through the file channel (the entries added since the last {@link #flush} in one
 * write, since they are consecutive) and read through the mapping: a store into a shared
 * mapping faults on every page the last checkpoint cleaned (keys land on random slot pages, so nearly every key), and
 * cleaning mapped dirty pages interrupts the other cores to flush their TLBs; a written page is only ever mapped read
 * only. The header (one page, at a checkpoint) and recovery's repair still go through the mapping.
 *
 * <p>Threads: one writer (the index thread) adds entries, checkpoints and seals; any thread may {@link #lookup}
 * concurrently: a slot is written after its entry (a release fence between the two writes), and read with acquire,
 * so a reader sees whole entries. The owner ({@link KeyIndexFiles}) unmaps a file only while no reader is inside it.
 */
final class KeyIndexFile {

    /**
     * Entries added before they are written, at most: one write for them all, where each used to take one (the
     * slots still take one write each, being spread over the file).
     */
    static final int PENDING_ENTRIES = 256;

    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class,
            KeyIndexDescriptor.BYTE_ORDER);

    private final Path path;
    private final MappedByteBuffer mapped;
    private final int hashSlots;
    private final int entries;
    private final long beginPosition;
    /** Writer only: the next entry's index. */
    private int count;
    /** Writer only: every key of every record below it has an entry. */
    private long endPosition;
    private boolean sealed;
    private volatile long beginTimeMs;
    private volatile long endTimeMs;
    /** Writer only: the channel entries and slots are written through, opened by the first {@link #flush}. */
    private FileChannel writeChannel;
    /** Writer only: entries added and not yet written, {@code pendingFirst} the first's index, and their slots. */
    private ByteBuffer entryBytes;
    private ByteBuffer slotBytes;
    private int[] pendingSlotBytes;
    private int pendingFirst;
    private int pendingCount;

    private KeyIndexFile(Path path, MappedByteBuffer mapped, int hashSlots, int entries, long beginPosition) {
        this.path = path;
        this.mapped = mapped;
        this.hashSlots = hashSlots;
        this.entries = entries;
        this.beginPosition = beginPosition;
    }

    /** Creates an empty, open file covering the log from {@code beginPosition}. */
    static KeyIndexFile create(Path dir, long beginPosition, int hashSlots, int entries) throws IOException {
        Path path = dir.resolve(KeyIndexDescriptor.fileName(beginPosition));
        long bytes = KeyIndexDescriptor.fileBytes(hashSlots, entries);
        MappedByteBuffer mapped;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        }
        mapped.order(KeyIndexDescriptor.BYTE_ORDER);
        KeyIndexFile file = new KeyIndexFile(path, mapped, hashSlots, entries, beginPosition);
        file.count = 1;
        file.endPosition = beginPosition;
        mapped.putInt(MAGIC_OFFSET, MAGIC).putInt(VERSION_OFFSET, VERSION).putInt(HASH_SLOTS_OFFSET, hashSlots)
                .putInt(ENTRIES_OFFSET, entries).putLong(BEGIN_POSITION_OFFSET, beginPosition);
        file.writeHeader();
        return file;
    }

    /**
     * Maps an existing file and checks its header. An open file (the newest one, left by a crash or a stop) has
     * its slots brought back to its checkpoint: entries written after it are dropped.
     *
     * @throws KeyIndexDamagedException when the header or a chain past the checkpoint is not valid
     */
    static KeyIndexFile open(Path path) throws IOException {
        long fileBytes = Files.size(path);
        if (fileBytes < HEADER_BYTES) {
            throw new KeyIndexDamagedException(path + ": " + fileBytes + " bytes, shorter than a header");
        }
        MappedByteBuffer mapped;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes);
        }
        mapped.order(KeyIndexDescriptor.BYTE_ORDER);
        try {
            return fromHeader(path, mapped, fileBytes);
        } catch (KeyIndexDamagedException e) {
            IoUtil.unmap(mapped);
            throw e;
        }
    }

    private static KeyIndexFile fromHeader(Path path, MappedByteBuffer mapped, long fileBytes)
            throws KeyIndexDamagedException {
        if (mapped.getInt(MAGIC_OFFSET) != MAGIC || mapped.getInt(VERSION_OFFSET) != VERSION) {
            throw new KeyIndexDamagedException(path + ": not a key-index file of version " + VERSION);
        }
        if (mapped.getInt(HEADER_CRC_OFFSET) != KeyIndexDescriptor.headerCrc(mapped)) {
            throw new KeyIndexDamagedException(path + ": header checksum mismatch");
        }
        int slots = mapped.getInt(HASH_SLOTS_OFFSET);
        int entries = mapped.getInt(ENTRIES_OFFSET);
        int count = mapped.getInt(ENTRY_COUNT_OFFSET);
        long begin = mapped.getLong(BEGIN_POSITION_OFFSET);
        long end = mapped.getLong(END_POSITION_OFFSET);
        if (slots < 1 || entries < 2 || KeyIndexDescriptor.fileBytes(slots, entries) != fileBytes
                || count < 1 || count > entries || end < begin
                || begin != KeyIndexDescriptor.parseFileName(path.getFileName().toString())) {
            throw new KeyIndexDamagedException(path + ": header inconsistent with the file (slots " + slots
                    + ", entries " + entries + ", count " + count + ", positions " + begin + ".." + end + ", "
                    + fileBytes + " bytes)");
        }
        KeyIndexFile file = new KeyIndexFile(path, mapped, slots, entries, begin);
        file.count = count;
        file.endPosition = end;
        file.sealed = mapped.getInt(STATE_OFFSET) == STATE_SEALED;
        file.beginTimeMs = mapped.getLong(BEGIN_TIME_OFFSET);
        file.endTimeMs = mapped.getLong(END_TIME_OFFSET);
        if (!file.sealed) {
            file.dropPastCheckpoint();
        }
        return file;
    }

    /** Points every slot whose chain starts past the checkpoint at its first checkpointed entry. */
    private void dropPastCheckpoint() throws KeyIndexDamagedException {
        for (int slot = 0; slot < hashSlots; slot++) {
            int head = mapped.getInt(KeyIndexDescriptor.slotByte(slot));
            if (head < count) {
                continue;
            }
            int j = head;
            while (j >= count) {
                if (j >= entries) {
                    throw new KeyIndexDamagedException(path + ": slot " + slot + " points at entry " + j
                            + " beyond the file's " + entries);
                }
                int at = KeyIndexDescriptor.entryByte(hashSlots, j);
                int prev = mapped.getInt(at + ENTRY_PREV_OFFSET);
                if (mapped.getLong(at + ENTRY_TIME_OFFSET) == 0 || prev < 0 || prev >= j) {
                    throw new KeyIndexDamagedException(path + ": entry " + j + " of slot " + slot
                            + " written after the checkpoint is not whole");
                }
                j = prev;
            }
            mapped.putInt(KeyIndexDescriptor.slotByte(slot), j);
        }
    }

    /** Entries that can still be added. Writer only. */
    int freeEntries() {
        return entries - count;
    }

    /**
     * Adds one key of the record at {@code position}. Writer only; {@link #freeEntries()} must be positive. The
     * entry reaches the file at the next {@link #flush()} (or when {@link #PENDING_ENTRIES} wait): lookups do not
     * see it before.
     */
    void add(long hash, long position, long storeTimeMs) {
        if (entryBytes == null) {
            entryBytes = ByteBuffer.allocateDirect(PENDING_ENTRIES * ENTRY_BYTES).order(KeyIndexDescriptor.BYTE_ORDER);
            slotBytes = ByteBuffer.allocateDirect(SLOT_BYTES).order(KeyIndexDescriptor.BYTE_ORDER);
            pendingSlotBytes = new int[PENDING_ENTRIES];
        } else if (pendingCount == PENDING_ENTRIES) {
            flush();
        }
        int slotByte = KeyIndexDescriptor.slotByte(KeyHash.slotOf(hash, hashSlots));
        int j = count;
        if (pendingCount == 0) {
            pendingFirst = j;
            entryBytes.clear();
        }
        int at = pendingCount * ENTRY_BYTES;
        entryBytes.putInt(at + ENTRY_HASH_OFFSET, KeyHash.storedHashOf(hash))
                .putLong(at + ENTRY_POSITION_OFFSET, position)
                .putLong(at + ENTRY_TIME_OFFSET, storeTimeMs)
                .putInt(at + ENTRY_PREV_OFFSET, headOf(slotByte));
        pendingSlotBytes[pendingCount] = slotByte;
        pendingCount++;
        count = j + 1;
        if (j == 1) {
            beginTimeMs = storeTimeMs;
        }
        if (storeTimeMs > endTimeMs) {
            endTimeMs = storeTimeMs;
        }
    }

    /** The newest entry of the slot at {@code slotByte}: a pending one, else what the file holds. Writer only. */
    private int headOf(int slotByte) {
        for (int i = pendingCount - 1; i >= 0; i--) {
            if (pendingSlotBytes[i] == slotByte) {
                return pendingFirst + i;
            }
        }
        return (int) INTS.getAcquire(mapped, slotByte);
    }

    /**
     * Writes the pending entries, in one write (they are consecutive), then each one's slot. Writer only. On
     * failure they stay pending and the next call writes them again.
     */
    void flush() {
        if (pendingCount == 0) {
            return;
        }
        try {
            FileChannel channel = writeChannel();
            entryBytes.position(0).limit(pendingCount * ENTRY_BYTES);
            writeFully(channel, entryBytes, KeyIndexDescriptor.entryByte(hashSlots, pendingFirst));
            // Readers follow a slot to its entry: the entries' bytes first.
            VarHandle.releaseFence();
            for (int i = 0; i < pendingCount; i++) {
                slotBytes.clear();
                slotBytes.putInt(0, pendingFirst + i);
                writeFully(channel, slotBytes, pendingSlotBytes[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write key entries " + pendingFirst + ".."
                    + (pendingFirst + pendingCount - 1) + " to " + path, e);
        }
        pendingCount = 0;
    }

    private FileChannel writeChannel() throws IOException {
        if (writeChannel == null) {
            writeChannel = FileChannel.open(path, StandardOpenOption.WRITE);
        }
        return writeChannel;
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long at) throws IOException {
        long to = at;
        while (bytes.hasRemaining()) {
            to += channel.write(bytes, to);
        }
    }

    /** Records that every key of the records below {@code position} is in. Writer only. */
    void coverTo(long position) {
        endPosition = position;
    }

    /**
     * Collects positions of entries with {@code hash} stored in {@code [beginMs, endMs]}, newest first, until
     * {@code out} is full. Any thread.
     */
    void lookup(long hash, long beginMs, long endMs, KeyMatches out) {
        if (!overlaps(beginMs, endMs)) {
            return;
        }
        int stored = KeyHash.storedHashOf(hash);
        int j = (int) INTS.getAcquire(mapped, KeyIndexDescriptor.slotByte(KeyHash.slotOf(hash, hashSlots)));
        while (j > 0 && j < entries && !out.isFull()) {
            int at = KeyIndexDescriptor.entryByte(hashSlots, j);
            long time = mapped.getLong(at + ENTRY_TIME_OFFSET);
            if (mapped.getInt(at + ENTRY_HASH_OFFSET) == stored && time >= beginMs && time <= endMs) {
                out.offer(mapped.getLong(at + ENTRY_POSITION_OFFSET));
            }
            int prev = mapped.getInt(at + ENTRY_PREV_OFFSET);
            if (prev >= j) {
                out.onDamagedChain();
                return;
            }
            j = prev;
        }
    }

    private boolean overlaps(long beginMs, long endMs) {
        long first = beginTimeMs;
        return first != 0 && first <= endMs && endTimeMs >= beginMs;
    }

    /**
     * Forces the entries and slots, then writes and forces the header. Writer only. Forcing the mapping forces the
     * file's range, whichever way its pages were written.
     */
    void checkpoint() {
        flush();
        mapped.force();
        writeHeader();
        mapped.force(0, HEADER_BYTES);
    }

    /**
     * Checkpoints and marks the file full: it is never written again. Writer only. The pending entries are written
     * first, so that a failure to write them leaves the file open, to be sealed again, rather than sealed without
     * them.
     */
    void seal() {
        flush();
        sealed = true;
        checkpoint();
    }

    private void writeHeader() {
        mapped.putLong(END_POSITION_OFFSET, endPosition).putLong(BEGIN_TIME_OFFSET, beginTimeMs)
                .putLong(END_TIME_OFFSET, endTimeMs).putInt(ENTRY_COUNT_OFFSET, count)
                .putInt(STATE_OFFSET, sealed ? STATE_SEALED : STATE_OPEN);
        mapped.putInt(HEADER_CRC_OFFSET, KeyIndexDescriptor.headerCrc(mapped));
    }

    boolean isSealed() {
        return sealed;
    }

    long beginPosition() {
        return beginPosition;
    }

    /** Writer only (or before the writer starts). */
    long endPosition() {
        return endPosition;
    }

    /** Entries in use, the unused entry 0 not counted. Writer only. */
    int entryCount() {
        return count - 1;
    }

    Path path() {
        return path;
    }

    /** Unmaps the file and closes its write channel; no thread may use it afterwards. */
    void unmap() {
        IoUtil.unmap(mapped);
        if (writeChannel != null) {
            try {
                writeChannel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + path, e);
            }
            writeChannel = null;
        }
    }
}
