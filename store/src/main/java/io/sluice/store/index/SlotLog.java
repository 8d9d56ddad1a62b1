package io.sluice.store.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue's array of fixed-size slots, split over {@link SlotSegment} files of {@code slotsPerSegment} slots in
 * one directory; slot {@code k} lives in the file named by the 20-digit byte position
 * {@code (k - k % slotsPerSegment) * slotBytes}. What a slot means is {@link SimpleConsumeQueue}'s and
 * {@link BatchConsumeQueue}'s business (docs/storage.md#consume-queue-files-and-threads).
 *
 * <p>Invariant: every byte at or beyond the published count is zero (new files, truncation and recovery make it so),
 * so the first zero slot is the end of data and a stale slot can never be picked up.
 *
 * <p>Threads and memory ordering: one writer (the dispatcher: {@link #startAt}, {@link #segmentForAppend},
 * {@link #publish}, {@link #truncateTo}) stores slot bytes, then publishes the count with a release store; readers
 * (any thread, lock-free: {@link #count()}, {@link #table()}, {@link #lowerBound}, {@link #beginRead()}/
 * {@link #endRead}) load it with acquire. Truncation rewrites published slots under a sequence lock: it bumps
 * {@code generation} before lowering the count, and a reader whose generation changed discards its read. Control
 * calls ({@link #trimHead}, {@link #flush}, {@link #close}, {@link #destroy}) come from any thread.
 *
 * <p>Locks: {@code structureLock} is held by the writer while it adds a file or publishes a file's first slot, and
 * by trim, truncate and close; {@code flushLock} by flush for its {@code msync} calls and by truncate, before
 * {@code structureLock}. Readers take neither.
 */
final class SlotLog {

    private static final Logger LOG = LoggerFactory.getLogger(SlotLog.class);

    /** Byte order of every slot field. */
    static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private static final int FILE_NAME_DIGITS = 20;

    /** Interpolation guesses per in-file search before it falls back to bisection (see {@link #lowerBound}). */
    static final int MAX_INTERPOLATION_STEPS = 8;

    private static final VarHandle COUNT;
    private static final VarHandle GENERATION;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(SlotLog.class, "count", long.class);
            GENERATION = lookup.findVarHandle(SlotLog.class, "generation", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Path directory;
    private final int slotBytes;
    private final int slotsPerSegment;
    private final int[] cachedFieldOffsets;
    /** See the class comment for who holds it. */
    private final ReentrantLock structureLock = new ReentrantLock();
    /** See the class comment for who holds it. Always taken before {@code structureLock}. */
    private final ReentrantLock flushLock = new ReentrantLock();

    private volatile SegmentTable table;
    private volatile boolean closed;
    /** Slots written and published: the next slot to write. Writer stores with release; readers load with acquire. */
    private long count;
    /** Sequence-lock generation, bumped by every truncation. Accessed through {@link #GENERATION}. */
    private long generation;
    /** Slots known to be on the storage device. Guarded by {@code flushLock}. */
    private long flushedCount;
    /** The file the writer appends to; the writer holds a reference of its own on it. Writer thread only. */
    private SlotSegment active;

    private SlotLog(Path directory, int slotBytes, int slotsPerSegment, int[] cachedFieldOffsets) {
        this.directory = directory;
        this.slotBytes = slotBytes;
        this.slotsPerSegment = slotsPerSegment;
        this.cachedFieldOffsets = cachedFieldOffsets.clone();
        this.table = SegmentTable.empty(slotsPerSegment, this.cachedFieldOffsets);
    }

    /**
     * Maps the files found in {@code directory} (which need not exist). All files are taken as full; the caller
     * validates the tail and calls {@link #truncateTo} with the real end.
     *
     * @param cachedFieldOffsets byte offsets, inside a slot, of the big-endian long fields that
     *                           {@link #lowerBound} may search on; their values in each file's first slot are
     *                           cached in the {@link SegmentTable}
     * @throws IOException naming the file when a file is unreadable, misnamed, of the wrong length, or when a file
     *                     between the first and the last is missing
     */
    static SlotLog open(Path directory, int slotBytes, int slotsPerSegment, int[] cachedFieldOffsets)
            throws IOException {
        SlotLog log = new SlotLog(directory, slotBytes, slotsPerSegment, cachedFieldOffsets);
        log.load();
        return log;
    }

    private void load() throws IOException {
        List<Long> starts = listFileStarts();
        List<SlotSegment> mapped = new ArrayList<>(starts.size());
        long segmentBytes = (long) slotsPerSegment * slotBytes;
        try {
            for (int i = 0; i < starts.size(); i++) {
                long startByte = starts.get(i);
                Path file = directory.resolve(fileName(startByte));
                if (startByte % segmentBytes != 0) {
                    throw new IOException("consume queue file " + file + " does not start on a file boundary of "
                            + segmentBytes + " bytes (was the file size setting changed?)");
                }
                if (i > 0 && startByte != starts.get(i - 1) + segmentBytes) {
                    throw new IOException("consume queue " + directory + " is missing file "
                            + fileName(starts.get(i - 1) + segmentBytes) + " between " + fileName(starts.get(i - 1))
                            + " and " + fileName(startByte));
                }
                boolean newest = i == starts.size() - 1;
                mapped.add(SlotSegment.open(file, startByte / slotBytes, slotsPerSegment, slotBytes, newest));
            }
        } catch (IOException | RuntimeException e) {
            for (SlotSegment segment : mapped) {
                segment.retire(false);
            }
            throw e;
        }
        if (!mapped.isEmpty()) {
            table = SegmentTable.of(mapped.toArray(new SlotSegment[0]), slotsPerSegment, cachedFieldOffsets);
            active = table.last();
            active.tryHold();
            long end = table.endSlot();
            COUNT.setRelease(this, end);
            flushedCount = end;
        }
    }

    private List<Long> listFileStarts() throws IOException {
        List<Long> starts = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return starts;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path path : stream) {
                String name = path.getFileName().toString();
                if (isFileName(name)) {
                    starts.add(Long.parseLong(name));
                } else {
                    LOG.warn("ignoring {} in consume queue directory {}: not a 20-digit file name", name, directory);
                }
            }
        }
        starts.sort(null);
        return starts;
    }

    static String fileName(long startByte) {
        if (startByte < 0) {
            throw new IllegalArgumentException("consume queue file start must be >= 0, was " + startByte);
        }
        // Not String.format: its locale machinery is a large part of a file creation on the dispatch writer.
        String digits = Long.toString(startByte);
        return "0".repeat(FILE_NAME_DIGITS - digits.length()) + digits;
    }

    static boolean isFileName(String name) {
        if (name.length() != FILE_NAME_DIGITS) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return name.compareTo("09223372036854775807") <= 0;
    }

    Path directory() {
        return directory;
    }

    int slotsPerSegment() {
        return slotsPerSegment;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Readers

    /** Published slot count (acquire): every slot below it is fully written. */
    long count() {
        return (long) COUNT.getAcquire(this);
    }

    /** The current file snapshot. Read it after {@link #count()}: it then holds every file below that count. */
    SegmentTable table() {
        return table;
    }

    /** First slot still on disk (start of the first file), 0 when there is none. */
    long firstSlot() {
        return table.firstStartSlot();
    }

    boolean hasFiles() {
        return !table.isEmpty();
    }

    boolean isClosed() {
        return closed;
    }

    /** Starts a read that must be validated with {@link #endRead}; returns the generation to pass there. */
    long beginRead() {
        return (long) GENERATION.getAcquire(this);
    }

    /** True if no truncation ran since {@link #beginRead} returned {@code generation}: the slots read are valid. */
    boolean endRead(long generation) {
        VarHandle.acquireFence(); // the slot loads above complete before the generation is re-read
        return (long) GENERATION.getOpaque(this) == generation;
    }

    /**
     * Holds and returns the file of {@code table} holding {@code slot}; the caller must {@link SlotSegment#release}
     * it. Returns {@code null} when that file is gone (trimmed or closed since the snapshot was taken) or the
     * snapshot does not cover the slot.
     */
    static SlotSegment hold(SegmentTable table, long slot) {
        int index = table.indexOf(slot);
        if (index < 0) {
            return null;
        }
        SlotSegment segment = table.segment(index);
        return segment.tryHold() ? segment : null;
    }

    /**
     * The first slot in {@code [lo, hi)} whose long field at {@code fieldOffset} is {@code >= key} ({@code > key}
     * when {@code strict}), {@code hi} if there is none, or -1 if a file it needed is gone. The field must be
     * non-decreasing in slot order and cached in the file table.
     *
     * <p>Two phases. The file: binary search over the cached first-slot values (heap only, no page touched).
     * The slot: an interpolation search inside that one file, anchored on the cached first values of the file
     * and of the next one. Base offsets, store times and positions grow almost linearly with the slot index, so
     * guesses converge in a few probes (each a likely cache and TLB miss), far fewer than a binary search. After
     * {@link #MAX_INTERPOLATION_STEPS} guesses the search bisects, so the worst case (skewed values) stays at
     * {@code MAX_INTERPOLATION_STEPS + log2(n)} probes.
     */
    long lowerBound(long lo, long hi, int fieldOffset, long key, boolean strict) {
        if (lo >= hi) {
            return hi;
        }
        if (strict) {
            if (key == Long.MAX_VALUE) {
                return hi;
            }
            key++; // value > key  <=>  value >= key + 1
        }
        SegmentTable snapshot = table;
        int firstFile = snapshot.indexOf(lo);
        int lastFile = snapshot.indexOf(hi - 1);
        int field = snapshot.cachedFieldIndex(fieldOffset);
        if (firstFile < 0 || lastFile < 0) {
            return -1;
        }
        if (field < 0) {
            throw new IllegalArgumentException("field at slot byte " + fieldOffset + " is not cached");
        }
        if (snapshot.firstSlotValue(firstFile, field) >= key) {
            return lo; // the first slot of lo's file satisfies, so every later one does
        }
        // The last file whose first slot is below the key holds the answer, or the answer is the next file's start.
        int low = firstFile;
        int high = lastFile;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (snapshot.firstSlotValue(mid, field) >= key) {
                high = mid - 1;
            } else {
                low = mid;
            }
        }
        SlotSegment segment = snapshot.segment(low);
        if (!segment.tryHold()) {
            return -1;
        }
        try {
            long to = Math.min(hi, segment.endSlot());
            long aboveSlot;
            long aboveValue;
            if (low < lastFile) {
                aboveSlot = segment.endSlot();
                aboveValue = snapshot.firstSlotValue(low + 1, field);
            } else {
                aboveSlot = to - 1;
                aboveValue = valueAt(segment, aboveSlot, fieldOffset);
                if (aboveValue < key) {
                    return to;
                }
            }
            return interpolate(segment, fieldOffset, key, Math.max(lo, segment.startSlot()), to,
                    segment.startSlot(), snapshot.firstSlotValue(low, field), aboveSlot, aboveValue);
        } finally {
            segment.release();
        }
    }

    /**
     * First slot in {@code [from, to]} with value {@code >= key}, given a known point below the key
     * ({@code belowSlot < from} or {@code == from}) and one at or above it ({@code aboveSlot >= to - 1}, or
     * {@code == to} as a point just past the range).
     */
    private static long interpolate(SlotSegment segment, int fieldOffset, long key, long from, long to,
                                    long belowSlot, long belowValue, long aboveSlot, long aboveValue) {
        long lowSlot = Math.max(from, belowSlot + 1);
        long highSlot = Math.min(to, aboveSlot);
        int guesses = 0;
        while (lowSlot < highSlot) {
            long probe;
            if (guesses == MAX_INTERPOLATION_STEPS || highSlot - lowSlot <= 2) {
                probe = (lowSlot + highSlot) >>> 1;
            } else {
                guesses++;
                // Doubles: the value differences may exceed a long's range in corrupt data; precision is moot.
                double fraction = ((double) key - (double) belowValue) / ((double) aboveValue - (double) belowValue);
                probe = belowSlot + (long) (fraction * (aboveSlot - belowSlot));
                probe = Math.max(lowSlot, Math.min(highSlot - 1, probe));
            }
            long value = valueAt(segment, probe, fieldOffset);
            if (value >= key) {
                highSlot = probe;
                aboveSlot = probe;
                aboveValue = value;
            } else {
                lowSlot = probe + 1;
                belowSlot = probe;
                belowValue = value;
            }
        }
        return lowSlot;
    }

    private static long valueAt(SlotSegment segment, long slot, int fieldOffset) {
        return segment.buffer().getLong(segment.byteIndex(slot) + fieldOffset, ORDER);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writer

    /**
     * Creates the first file of an empty log so that it can take slot {@code slot}: the file starts at the
     * file boundary at or below it and the count is set to that boundary. The caller then writes slots from
     * there up to {@code slot} and publishes. Writer thread.
     *
     * @return false if the log is closed
     * @throws IOException if the file cannot be created
     */
    boolean startAt(long slot) throws IOException {
        structureLock.lock();
        try {
            if (closed) {
                return false;
            }
            if (!table.isEmpty()) {
                throw new IllegalStateException("consume queue " + directory + " already has files");
            }
            long start = slot - slot % slotsPerSegment;
            SlotSegment segment = createSegment(start);
            table = table.withLast(segment);
            active = segment;
            active.tryHold();
            COUNT.setRelease(this, start);
            return true;
        } finally {
            structureLock.unlock();
        }
    }

    /**
     * The file to write slot {@code slot} (= the current count) into, creating the next file when the active
     * one is full. Writer thread.
     *
     * @return the file, or {@code null} if the log was closed
     * @throws IOException if a new file cannot be created
     */
    SlotSegment segmentForAppend(long slot) throws IOException {
        SlotSegment segment = active;
        if (segment == null || slot >= segment.endSlot()) {
            segment = roll(slot);
            if (segment == null) {
                return null;
            }
        }
        // Every store the writer makes goes to a slot at or below this one: no read-around fault (SlotSegment).
        segment.prepareWrite(segment.byteIndex(slot) + slotBytes);
        return segment;
    }

    private SlotSegment roll(long slot) throws IOException {
        structureLock.lock();
        try {
            if (closed) {
                return null;
            }
            if (active == null || slot != active.endSlot()) {
                throw new IllegalStateException("consume queue " + directory + " cannot append slot " + slot
                        + " after file " + active);
            }
            SlotSegment segment = createSegment(slot);
            table = table.withLast(segment);
            segment.tryHold();
            active.release();
            active = segment;
            return segment;
        } finally {
            structureLock.unlock();
        }
    }

    private SlotSegment createSegment(long startSlot) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(fileName(startSlot * slotBytes));
        SlotSegment segment = SlotSegment.create(file, startSlot, slotsPerSegment, slotBytes);
        LOG.debug("created consume queue file {}", file);
        return segment;
    }

    /**
     * Publishes slots up to {@code newCount} (exclusive), all already written into the active file. Writer thread.
     */
    void publish(long newCount) {
        long start = active.startSlot();
        if ((long) COUNT.get(this) <= start && start < newCount) {
            // The active file's first slot is being published: refresh the first-slot cache first.
            structureLock.lock();
            try {
                table = table.withLastReread();
            } finally {
                structureLock.unlock();
            }
        }
        COUNT.setRelease(this, newCount); // release: the slot bytes above are visible to acquiring readers
    }

    /** The writer's own view of the count (plain load). Writer thread only. */
    long writerCount() {
        return (long) COUNT.get(this);
    }

    /**
     * Drops every slot at or after {@code newCount}: lowers the count, zeroes every non-zero byte from
     * {@code newCount} to the old count inside the file that keeps {@code newCount} (right after {@link #open} the
     * old count is the end of the newest file, so this also clears stray slots a crash left behind a hole, which
     * could otherwise chain onto re-written slots at the next recovery), deletes the files after it (never the
     * first file) and forces the zeroes to disk. Writer thread, or any thread while no append runs.
     *
     * @return true if non-zero bytes or files were dropped
     * @throws UncheckedIOException if a dropped file cannot be deleted (the log is consistent anyway)
     */
    boolean truncateTo(long newCount) {
        return truncateTo(newCount, true);
    }

    /**
     * Recovery's cut, at open and before the queue is shared: ends the log at {@code validCount}, its first slot that
     * failed the queue's checks. After a {@link LastStop#CRASH} this is {@link #truncateTo}, which reads and zeroes
     * the rest of the newest file; after a {@link LastStop#CLEAN} stop the bytes after {@code validCount} are known
     * to be zero and are not read, only later files are deleted. Either way the file that now holds the end counts as
     * prepared only up to {@code validCount} (see {@link SlotSegment#prepareWrite}), so the first slot stored after
     * the end does not fault on a hole of the file.
     *
     * @return true if non-zero bytes or files were dropped
     */
    boolean recoverEnd(long validCount, LastStop lastStop) {
        if (!hasFiles()) {
            return false;
        }
        boolean dropped = validCount < count() && truncateTo(validCount, lastStop == LastStop.CRASH);
        SlotSegment tail = table.last();
        if (validCount >= tail.startSlot() && validCount < tail.endSlot()) {
            tail.preparedOnlyTo(tail.byteIndex(validCount));
        }
        return dropped;
    }

    private boolean truncateTo(long newCount, boolean zeroDropped) {
        flushLock.lock();
        structureLock.lock();
        try {
            requireOpen();
            SegmentTable snapshot = table;
            long oldCount = (long) COUNT.get(this);
            if (snapshot.isEmpty() || newCount < snapshot.firstStartSlot() || newCount > oldCount) {
                throw new IllegalArgumentException("cannot truncate consume queue " + directory + " to slot "
                        + newCount + ": it holds slots [" + snapshot.firstStartSlot() + ", " + oldCount + ")");
            }
            GENERATION.getAndAdd(this, 1L); // volatile RMW: the zeroing stores below cannot move above it
            COUNT.setRelease(this, newCount);
            int keep = newCount == snapshot.firstStartSlot() ? 1 : snapshot.indexOf(newCount - 1) + 1;
            SlotSegment tail = snapshot.segment(keep - 1);
            int from = (int) (Math.max(newCount, tail.startSlot()) - tail.startSlot()) * slotBytes;
            int to = (int) (Math.min(oldCount, tail.endSlot()) - tail.startSlot()) * slotBytes;
            boolean dropped = zeroDropped && tail.zeroNonZero(from, to);
            if (dropped) {
                tail.force(from, to);
            }
            table = snapshot.withPrefix(keep);
            if (active != tail) {
                tail.tryHold();
                if (active != null) {
                    active.release();
                }
                active = tail;
            }
            flushedCount = Math.min(flushedCount, newCount);
            retireAll(snapshot, keep, snapshot.size(), true);
            return dropped || keep < snapshot.size();
        } finally {
            structureLock.unlock();
            flushLock.unlock();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Control

    /**
     * Deletes leading files (never the last) whose last slot's position field is below {@code minPosition}.
     * Any thread.
     *
     * @return the number of files deleted
     * @throws UncheckedIOException if a file cannot be deleted (it is dropped from the log anyway)
     */
    int trimHead(long minPosition, int positionFieldOffset) {
        structureLock.lock();
        try {
            if (closed) {
                return 0;
            }
            SegmentTable snapshot = table;
            long published = count();
            int drop = 0;
            while (drop < snapshot.size() - 1) {
                SlotSegment segment = snapshot.segment(drop);
                long lastSlot = segment.endSlot() - 1;
                if (lastSlot >= published
                        || segment.buffer().getLong(segment.byteIndex(lastSlot) + positionFieldOffset, ORDER)
                        >= minPosition) {
                    break;
                }
                drop++;
            }
            if (drop > 0) {
                table = snapshot.withFirst(drop);
                retireAll(snapshot, 0, drop, true);
            }
            return drop;
        } finally {
            structureLock.unlock();
        }
    }

    /**
     * Forces every published slot not yet known to be durable. Any thread.
     *
     * @throws UncheckedIOException if the device reports an error
     */
    void flush() {
        flushLock.lock();
        try {
            SegmentTable snapshot = table;
            long published = count();
            long from = Math.max(flushedCount, snapshot.firstStartSlot());
            if (published <= from) {
                return;
            }
            for (int i = snapshot.indexOf(from); i >= 0 && i < snapshot.size(); i++) {
                SlotSegment segment = snapshot.segment(i);
                if (segment.startSlot() >= published) {
                    break;
                }
                if (!segment.tryHold()) {
                    continue; // trimmed or closed meanwhile: nothing of it needs to be durable any more
                }
                try {
                    long begin = Math.max(from, segment.startSlot());
                    long end = Math.min(published, segment.endSlot());
                    segment.force(segment.byteIndex(begin), segment.byteIndex(end));
                } finally {
                    segment.release();
                }
            }
            flushedCount = published;
        } finally {
            flushLock.unlock();
        }
    }

    /** Unmaps every file (once readers let go) and refuses further appends. Idempotent; any thread. */
    void close() {
        shutDown(false);
    }

    /**
     * Closes the log and deletes its files and directory. Any thread.
     *
     * @throws UncheckedIOException if something cannot be deleted
     */
    void destroy() {
        shutDown(true);
        try {
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete consume queue directory " + directory, e);
        }
    }

    private void shutDown(boolean deleteFiles) {
        structureLock.lock();
        try {
            if (closed && !deleteFiles) {
                return;
            }
            closed = true;
            SegmentTable snapshot = table;
            table = SegmentTable.empty(slotsPerSegment, cachedFieldOffsets);
            // The writer's reference on the active file is dropped by the writer itself (releaseWriter), so an
            // append racing this close never writes into unmapped memory.
            retireAll(snapshot, 0, snapshot.size(), deleteFiles);
            if (deleteFiles) {
                deleteStrayFiles();
            }
        } finally {
            structureLock.unlock();
        }
    }

    /** Drops the writer's reference on its file after the log was closed. Writer thread. */
    void releaseWriter() {
        SlotSegment segment = active;
        if (segment != null && closed) {
            active = null;
            segment.release();
        }
    }

    private void deleteStrayFiles() {
        try {
            for (long start : listFileStarts()) {
                Files.deleteIfExists(directory.resolve(fileName(start)));
            }
        } catch (NoSuchFileException e) {
            LOG.debug("consume queue directory {} already gone", directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete files of consume queue " + directory, e);
        }
    }

    private static void retireAll(SegmentTable snapshot, int from, int to, boolean deleteFiles) {
        IOException failure = null;
        for (int i = from; i < to; i++) {
            try {
                snapshot.segment(i).retire(deleteFiles);
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw new UncheckedIOException("cannot delete consume queue file", failure);
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("consume queue " + directory + " is closed");
        }
    }

    /** Reads a long field of a published slot. For the writer or a control thread holding no reader state. */
    long readLong(long slot, int fieldOffset) {
        SlotSegment segment = hold(table, slot);
        if (segment == null) {
            throw new IllegalStateException("slot " + slot + " of consume queue " + directory + " is gone");
        }
        try {
            return segment.buffer().getLong(segment.byteIndex(slot) + fieldOffset, ORDER);
        } finally {
            segment.release();
        }
    }

    /** The structure lock, for queue operations that must be atomic with a structural change. */
    ReentrantLock structureLock() {
        return structureLock;
    }
}
