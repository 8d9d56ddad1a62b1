package io.sluice.store.log;

import io.sluice.format.MessageIdDescriptor;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CommitLog: one append-only log of {@link RecordDescriptor} records shared by every topic and queue, kept in
 * fixed-size {@link MappedSegment}s (docs/storage.md#appending).
 *
 * <p>Lifecycle: {@link #open} maps the existing segments; {@link #recover} cuts any torn tail and starts the flush
 * agent; appends are accepted until {@link #close}.
 *
 * <p>Appends are serialized by one non-fair {@link ReentrantLock}, held by the appending thread (a send-request
 * thread) to check writability, assign queue offsets, copy the records into its staging buffer (all but a large
 * direct body, which the write gathers from where it is), write them through the segment's file (TOTALSIZE last, see
 * {@link PreparedAppend}) and publish the written position. Validation and
 * encoding happen before it. A lock, not an append thread: the section is short, and an ASYNC append then completes
 * with no thread switch. {@link QueueOffsetTable#set}, {@link #truncateTo} and {@link #recover} take the same lock.
 *
 * <p>Readers load {@link #writtenPosition()} with acquire and may read any byte below it; dispatch reads below
 * {@link #confirmedPosition()} (flushed under SYNC, written under ASYNC). An append past {@link #writeLimitPosition()}
 * or on a full disk gets DISK_FULL; any other {@link IOException} goes to the {@link StoreFailureHandler}, which
 * makes the log refuse appends from then on.
 *
 * <p>Thread-safe. Owned by the store; one instance per CommitLog directory.
 */
public final class CommitLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);

    /** Staging buffer size before any larger append: room for a full default batch of 256 KiB. */
    private static final int INITIAL_STAGING_BYTES = 512 * 1024;
    /**
     * A failed write with less than this left on the file system is taken for a full disk (DISK_FULL, retried
     * by later appends) rather than a storage failure.
     */
    static final long FULL_DISK_USABLE_BYTES = 64L << 20;
    /** Index of the byte after a record's TOTALSIZE. */
    private static final int AFTER_TOTAL_SIZE = RecordDescriptor.TOTAL_SIZE_OFFSET + Integer.BYTES;

    private enum State { LOADED, RUNNING, CLOSED }

    private final LogSettings settings;
    private final LogEnvironment env;
    private final EpochClock epochClock;
    private final StoreFailureHandler failureHandler;
    private final SegmentChain chain;
    private final SegmentAllocator allocator;
    private final DraftEncoder encoder;
    private final byte[] storeHostBytes;
    private final boolean syncFlush;
    private final long syncFlushTimeoutNs;
    /** Serializes appends, truncation, recovery and queue offset changes. */
    private final ReentrantLock appendLock = new ReentrantLock();
    private final QueueOffsetTable queueOffsets = new QueueOffsetTable(appendLock);
    /**
     * Position after the last byte appended, and where records start below it: published by the append lock holder
     * after its writes, read with acquire.
     */
    private final PublishedEnd written;
    /** {@link #read} calls that had to copy from the mapping. */
    private final AtomicLong fileReadFallbacks = new AtomicLong();
    /** How many {@link #truncateTo} calls have started: a copy read under one count is stale under another. */
    private final AtomicLong truncations = new AtomicLong();
    /** Segments retention deleted whose disk blocks are still held by their mappings. */
    private final SegmentReleases releases = new SegmentReleases();
    /** Segments retention removed, kept for reuse as new ones. */
    private final SegmentRecycler recycler;
    private final LogFlushTarget flushTarget;
    private final FlushAgent flushAgent;
    /** The agent's view of {@link #flushTarget}: counts its fsyncs for {@link #flushStats()}. */
    private final MeteredFlushTarget meteredFlushTarget;
    /** Writes zeros through the next segment as the appender approaches it; {@link #writeStaged} claims. */
    private final ZeroFillAhead zeroFill;
    /** Hands the page cache of old, flushed bytes back to the kernel. */
    private final PageCacheTrimmer cacheTrimmer;
    /** Where the append lock holder encodes records before writing them; grown on demand. Lock holder only. */
    private ByteBuffer staging = ByteBuffer.allocateDirect(INITIAL_STAGING_BYTES);
    /** {@link #staging} for encoding. Lock holder only. */
    private UnsafeBuffer stagingView = new UnsafeBuffer(staging);
    private volatile State state = State.LOADED;
    /**
     * Appends that would end above this position are refused with DISK_FULL: the disk check sets it to what the
     * file system can still take below the refuse ratio ({@link #limitWritesTo}), a write that met a full disk
     * to the written position. One volatile read per append, so that the ratio holds between two disk checks
     * without a system call on the append path.
     */
    private volatile long writeLimitPosition = Long.MAX_VALUE;

    private CommitLog(LogSettings settings, LogEnvironment env, SegmentChain chain) {
        this.settings = settings;
        this.env = env;
        this.epochClock = env.epochClock();
        this.failureHandler = env.failureHandler();
        this.chain = chain;
        this.recycler = new SegmentRecycler(settings.recycledSegments());
        this.allocator = new SegmentAllocator(settings.commitLogDir(), settings.segmentBytes(),
                settings.preallocateSegments(), settings.segmentsPreparedAhead(), recycler);
        this.storeHostBytes = MessageIdDescriptor.hostBytes(settings.storeHost());
        this.encoder = new DraftEncoder(settings.maxMessageBytes(), settings.segmentBytes(),
                storeHostBytes.length == RecordDescriptor.IPV6_HOST_BYTES);
        this.syncFlush = settings.flushMode() == FlushMode.SYNC;
        this.written = new PublishedEnd(new RecordBoundaryIndex(settings.boundaryGranuleBytes()));
        this.syncFlushTimeoutNs = TimeUnit.MILLISECONDS.toNanos(settings.syncFlushTimeoutMs());
        this.flushTarget = new LogFlushTarget(chain, written, env.forceHook());
        this.meteredFlushTarget = new MeteredFlushTarget(flushTarget, env.nanoClock());
        this.flushAgent = FlushAgent.create(settings.flushSettings(), meteredFlushTarget, failureHandler,
                env.nanoClock());
        this.zeroFill = new ZeroFillAhead(chain, allocator::ready,
                settings.preallocateSegments() ? 0 : settings.zeroFillAheadBytes(),
                () -> env.diskSpace().usableBytes(settings.commitLogDir()), FULL_DISK_USABLE_BYTES, WriteHook.NONE,
                ZeroFillAhead.PageCache.SYSTEM);
        this.cacheTrimmer = new PageCacheTrimmer(chain, flushTarget::flushedPosition, written::visible,
                settings.pageCacheMaxBytes(), settings.pageCacheMaxBytes() == 0 ? PageCacheAdvice.NONE
                        : PageCacheAdvice.system());
    }

    /**
     * The segment size of the log already in {@code commitLogDir}, empty for a new log. A log keeps the size it
     * was created with ({@link #open} refuses any other), so a caller whose configured size differs uses this one.
     *
     * @throws IOException when the directory cannot be listed
     */
    public static OptionalLong existingSegmentBytes(Path commitLogDir) throws IOException {
        return SegmentChain.firstSegmentBytes(commitLogDir);
    }

    /** Opens with system clocks, a fresh failure handler and no fsync hook. */
    public static CommitLog open(LogSettings settings) throws IOException {
        return open(settings, LogEnvironment.system());
    }

    /**
     * Creates the directory if needed and maps the existing segments. Call {@link #recover} next.
     *
     * @throws IOException when the directory cannot be read, or a segment has the wrong size or leaves a hole
     */
    public static CommitLog open(LogSettings settings, LogEnvironment env) throws IOException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(env, "env");
        Files.createDirectories(settings.commitLogDir());
        SegmentChain chain = SegmentChain.load(settings.commitLogDir(), settings.segmentBytes());
        LOG.info("opened CommitLog {} with {} segments", settings.commitLogDir(), chain.size());
        return new CommitLog(settings, env, chain);
    }

    /** {@link #recover(long, boolean, Consumer)} with the settings' {@code checkCrcOnRecover}. */
    public long recover(long fromPosition, Consumer<DispatchEntry> visitor) throws IOException {
        return recover(fromPosition, settings.checkCrcOnRecover(), visitor);
    }

    /**
     * Scans forward from {@code fromPosition} verifying every record (length, magic, recomputed size, position
     * and, if asked, CRC), hands each valid record to {@code visitor} and raises the queue offsets they imply;
     * stops at the first invalid record, zeros the torn tail of that segment, deletes every later segment and
     * makes that position the end of the log. Then starts the flush agent and accepts appends.
     *
     * <p>Must be called exactly once, after {@link #open}. {@code fromPosition} must be a record boundary the
     * caller trusts (e.g. where its indexes end) or any segment start; below {@link #minPosition()} it is
     * raised to it. Everything from there on is re-read, so the visitor must be idempotent. Cutting the tail
     * reads the rest of the last segment once (it cannot know how far a torn write reached) and rewrites only
     * pages that are not zero.
     *
     * @return the end of the valid data, now {@link #writtenPosition()}
     * @throws IOException           when cutting the tail fails (also reported to the failure handler)
     * @throws IllegalStateException when called twice or after close
     */
    public long recover(long fromPosition, boolean checkCrc, Consumer<DispatchEntry> visitor) throws IOException {
        Objects.requireNonNull(visitor, "visitor");
        appendLock.lock();
        try {
            if (state != State.LOADED) {
                throw new IllegalStateException("recover() is called once after open(); the log is " + state);
            }
            long end = 0;
            if (!chain.isEmpty()) {
                long maxEnd = chain.last().endPosition();
                if (fromPosition > maxEnd) {
                    throw new IllegalArgumentException("fromPosition " + fromPosition + " is beyond the last segment"
                            + " end " + maxEnd);
                }
                long from = Math.max(fromPosition, chain.minPosition(0));
                end = LogRecovery.scan(chain, from, checkCrc, visitor, queueOffsets);
                try {
                    LogRecovery.cutAfter(chain, end);
                } catch (IOException e) {
                    failureHandler.onIoFailure("cut the log after position " + end, e);
                    throw e;
                }
            }
            written.restartAt(end);
            flushTarget.reset(end);
            state = State.RUNNING;
            flushAgent.start();
            zeroFill.start(end);
            cacheTrimmer.start();
            allocator.prepare(nextSegmentStart());
            return end;
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Appends a draft as one or more records (see {@link AppendKind}).
     *
     * <p>A refused draft completes at once with its status and publishes nothing (a draft refused for a full disk
     * may have sealed the segment with its blank record and rolled; what it wrote of itself is zeroed). In ASYNC mode
     * a stored draft completes at once with PUT_OK. In SYNC mode (unless the draft's WAIT property is {@code false}) it
     * completes on a flush thread once its bytes are durable: PUT_OK, or FLUSH_DISK_TIMEOUT after
     * {@code syncFlushTimeoutMs}, or IO_ERROR if the fsync failed.
     */
    public CompletableFuture<AppendResult> append(MessageDraft draft) {
        DraftEncoder.Outcome outcome = encoder.prepare(draft);
        if (!(outcome instanceof PreparedAppend p)) {
            return refused(outcome.status());
        }
        AppendResult result;
        PendingAppend pending = null;
        boolean flushRefused = false;
        appendLock.lock();
        try {
            AppendStatus gate = writeGate();
            if (gate != AppendStatus.PUT_OK) {
                return refused(gate);
            }
            QueueOffsetTable.QueueOffsets queues = null;
            long base = 0;
            if (p.assignsQueueOffset) {
                queues = queueOffsets.queues(p.topic);
                base = queues.get(p.queueId);
            }
            int bytes = p.bytes(base);
            long position = written.writerPosition();
            if (position + bytes > writeLimitPosition) {
                return refused(AppendStatus.DISK_FULL);
            }
            MappedSegment segment = chain.last();
            if (segment == null || position == segment.endPosition()) {
                segment = roll();
            }
            int offset = (int) (position - segment.startPosition());
            if (bytes + RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES > segment.sizeBytes() - offset) {
                writeBlank(segment, offset);
                written.publishRecord(position, segment.endPosition());
                position = segment.endPosition();
                segment = roll();
                offset = 0;
            }
            long storeTimestampMs = epochClock.time();
            ByteBuffer body = p.gatheredBody();
            if (body.hasRemaining()) {
                int stagedBytes = bytes - body.remaining();
                p.writeAroundBody(staging(stagedBytes), 0, position, base, storeTimestampMs, storeHostBytes);
                int bodyIndex = p.gatheredBodyIndex();
                // Staged header, the body where it is, staged tail: one gathering write.
                writeRecords(segment, offset, bytes, staging.duplicate().limit(bodyIndex).position(0),
                        body, staging.duplicate().limit(stagedBytes).position(bodyIndex));
            } else {
                p.write(staging(bytes), 0, position, base, storeTimestampMs, storeHostBytes);
                writeStaged(segment, offset, bytes);
            }
            // The record's bytes above happen-before any acquire read of the new position.
            publish(p, position, bytes);
            segment.noteStoreTimestamp(storeTimestampMs);
            if (queues != null) {
                queues.set(p.queueId, base + p.messageCount);
            }
            result = AppendResult.stored(position, bytes, base, p.messageCount, storeTimestampMs, storeHostBytes,
                    p.recordPositions());
            if (syncFlush && p.waitsForFlush) {
                pending = new PendingAppend(result, env.nanoClock().nanoTime() + syncFlushTimeoutNs);
                // Refused only after a storage failure: the record is written but will not be made durable.
                flushRefused = !flushAgent.offer(pending);
            }
        } catch (IOException e) {
            return refused(writeFailed(e));
        } catch (TimeoutException e) {
            LOG.warn("next segment not ready within {} ms", settings.segmentAllocationTimeoutMs());
            return refused(AppendStatus.CREATE_SEGMENT_FAILED);
        } finally {
            appendLock.unlock();
        }
        if (flushRefused) {
            return CompletableFuture.completedFuture(result.withStatus(AppendStatus.IO_ERROR));
        }
        if (pending != null) {
            return pending.future;
        }
        if (syncFlush) {
            flushAgent.onAppended();
        }
        return CompletableFuture.completedFuture(result);
    }

    /**
     * Replication, on the copy: writes {@code bytes}, whole records read from the source log by {@link #readRaw}, at
     * {@code position}, the same position they have there. Kept apart from {@link #append}: nothing is encoded, no
     * queue offset is assigned (dispatch sets them from the records) and no record hints are noted (the dispatcher
     * walks the copied range). The first TOTALSIZE is written last, as for any append, so a crash mid-write leaves
     * no partial record. A chunk starting at a segment end rolls to the next segment; a chunk must not run past its
     * segment's end, so both logs must use the same segment size.
     *
     * @param position this log's end ({@link #writtenPosition()}), a record boundary in the source too
     * @param bytes    the chunk, from its position to its limit; not modified
     */
    public RawAppendStatus appendRaw(long position, ByteBuffer bytes) {
        int size = bytes.remaining();
        if (size < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES
                || bytes.getInt(bytes.position() + RecordDescriptor.TOTAL_SIZE_OFFSET) <= 0) {
            return RawAppendStatus.MALFORMED;
        }
        appendLock.lock();
        try {
            AppendStatus gate = writeGate();
            if (gate != AppendStatus.PUT_OK) {
                return gate == AppendStatus.DISK_FULL ? RawAppendStatus.DISK_FULL : RawAppendStatus.NOT_WRITABLE;
            }
            if (position != written.writerPosition()) {
                return RawAppendStatus.NOT_CONTIGUOUS;
            }
            MappedSegment segment = chain.last();
            if (segment == null || position == segment.endPosition()) {
                segment = roll();
            }
            int offset = (int) (position - segment.startPosition());
            if (size > segment.sizeBytes() - offset) {
                return RawAppendStatus.CROSSES_SEGMENT;
            }
            staging(size).putBytes(0, bytes, bytes.position(), size);
            writeStaged(segment, offset, size);
            // The copied bytes happen-before any acquire read of the new position.
            written.publishCopy(position + size);
            segment.noteStoreTimestamp(epochClock.time());
        } catch (IOException e) {
            AppendStatus status = writeFailed(e);
            return status == AppendStatus.DISK_FULL ? RawAppendStatus.DISK_FULL : RawAppendStatus.IO_ERROR;
        } catch (TimeoutException e) {
            LOG.warn("next segment not ready within {} ms", settings.segmentAllocationTimeoutMs());
            return RawAppendStatus.SEGMENT_NOT_READY;
        } finally {
            appendLock.unlock();
        }
        if (syncFlush) {
            flushAgent.onAppended();
        }
        return RawAppendStatus.OK;
    }

    /**
     * Replication, on the source: a read-only view (no copy) of the whole records from {@code position} (a record
     * boundary) within its segment, below {@link #writtenPosition()}, at most {@code maxBytes} long unless the
     * first record alone is longer (it is returned whole). BEYOND_END at the end of the log, POSITION_DELETED below
     * its start.
     */
    public ReadResult readRaw(long position, int maxBytes) {
        long end = written.visible();
        MappedSegment segment = chain.find(position);
        if (segment == null || position >= end) {
            boolean deleted = !chain.isEmpty() && position < chain.minPosition(0);
            return ReadResult.missing(deleted ? ReadStatus.POSITION_DELETED : ReadStatus.BEYOND_END);
        }
        int offset = (int) (position - segment.startPosition());
        int available = (int) (Math.min(end, segment.endPosition()) - position);
        ByteBuffer view = segment.view(offset, available);
        int whole = RawChunks.wholeRecordBytes(view, available, maxBytes);
        if (whole <= 0) {
            return ReadResult.missing(ReadStatus.INVALID_RANGE);
        }
        return ReadResult.found(view.limit(whole));
    }

    /** Lock held: publishes the records an append wrote at {@code [position, +bytes)}. */
    private void publish(PreparedAppend p, long position, int bytes) {
        long[] starts = p.recordPositions();
        if (starts == null) {
            written.publishRecord(position, position + bytes);
        } else {
            written.publishRecords(starts, position + bytes);
        }
    }

    private AppendStatus writeGate() {
        if (state != State.RUNNING || failureHandler.hasFailed()) {
            return AppendStatus.SERVICE_NOT_AVAILABLE;
        }
        return failureHandler.isDiskFull() ? AppendStatus.DISK_FULL : AppendStatus.PUT_OK;
    }

    private static CompletableFuture<AppendResult> refused(AppendStatus status) {
        return CompletableFuture.completedFuture(AppendResult.refused(status));
    }

    /** Lock held: seals the segment with the blank record (TOTALSIZE written last, as for any record). */
    private void writeBlank(MappedSegment segment, int offset) throws IOException {
        PreparedAppend.writeBlank(staging(RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES), 0,
                segment.sizeBytes() - offset);
        writeStaged(segment, offset, RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES);
    }

    /** Lock held: the staging buffer, grown to hold at least {@code bytes}. */
    private UnsafeBuffer staging(int bytes) {
        if (bytes > staging.capacity()) {
            staging = ByteBuffer.allocateDirect(Math.max(bytes, (int) Math.min(Integer.MAX_VALUE,
                    2L * staging.capacity())));
            stagingView = new UnsafeBuffer(staging);
        }
        return stagingView;
    }

    /**
     * Lock held: writes {@code staging[0, bytes)} to {@code segment} at {@code offset}, the first TOTALSIZE last
     * (see the class comment).
     */
    private void writeStaged(MappedSegment segment, int offset, int bytes) throws IOException {
        writeRecords(segment, offset, bytes, staging.limit(bytes).position(0));
    }

    /**
     * Lock held: writes the {@code bytes} of records at {@code offset} of {@code segment} in two writes:
     * {@code pieces}, every byte in order with the first TOTALSIZE zeroed; then that TOTALSIZE from {@code staging}.
     * The first write starts at the record, not after its TOTALSIZE, so that it continues the last append's write
     * and the segment's channel needs no seek; until the second write, that zero reads as the end of the data.
     *
     * @param pieces the records' bytes in order, the first starting at {@code staging}'s index 0
     */
    private void writeRecords(MappedSegment segment, int offset, int bytes, ByteBuffer... pieces)
            throws IOException {
        long position = segment.startPosition() + offset;
        zeroFill.beforeWrite(position + bytes);
        int totalSize = staging.getInt(RecordDescriptor.TOTAL_SIZE_OFFSET);
        try {
            env.writeHook().beforeWrite(position, bytes);
            staging.putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, 0);
            segment.write(pieces, offset);
            staging.putInt(RecordDescriptor.TOTAL_SIZE_OFFSET, totalSize);
            env.writeHook().beforeWrite(position + RecordDescriptor.TOTAL_SIZE_OFFSET, Integer.BYTES);
            segment.write(staging.limit(AFTER_TOTAL_SIZE).position(RecordDescriptor.TOTAL_SIZE_OFFSET),
                    offset + RecordDescriptor.TOTAL_SIZE_OFFSET);
        } catch (IOException | RuntimeException | Error e) {
            // Part of the records may be in the file: zero it (and make that durable), so that nothing after the
            // written position can pass for a record, now or after a crash (an unpacked batch's later records
            // carry their own TOTALSIZE). Only pages holding a non-zero byte are written; holes stay holes.
            try {
                int dirtyEnd = segment.zeroNonZero(offset, offset + bytes);
                segment.force(offset, dirtyEnd);
            } catch (IOException zeroing) {
                zeroing.addSuppressed(e);
                throw new LeftoverBytesException("could not zero a failed append at position " + position
                        + " in " + segment, zeroing);
            }
            throw e;
        } finally {
            staging.clear();
        }
    }

    /** A failed append whose bytes could not be zeroed: always a storage failure. */
    private static final class LeftoverBytesException extends IOException {
        private static final long serialVersionUID = 1L;

        LeftoverBytesException(String message, IOException cause) {
            super(message, cause);
        }
    }

    /**
     * Lock held: the status of an append whose segment creation or write failed. A full disk is not a storage
     * failure: nothing was published, later appends try again (not logged: every append is refused this way
     * until there is room, and the status says why). Anything else is one. Java reports no errno, so a full disk
     * is recognised by the file system's usable space after the failure: a real I/O error on a nearly full disk
     * is answered DISK_FULL too (and retried; nothing was published), and a quota error on a roomy one is a
     * storage failure.
     */
    private AppendStatus writeFailed(IOException e) {
        long usableBytes;
        try {
            usableBytes = env.diskSpace().usableBytes(settings.commitLogDir());
        } catch (IOException statFailure) {
            e.addSuppressed(statFailure);
            usableBytes = Long.MAX_VALUE;
        }
        if (usableBytes < FULL_DISK_USABLE_BYTES && !(e instanceof LeftoverBytesException)) {
            // Later appends are refused without trying a write, until the disk check finds room again.
            writeLimitPosition = written.writerPosition();
            return AppendStatus.DISK_FULL;
        }
        failureHandler.onIoFailure("append", e);
        return AppendStatus.IO_ERROR;
    }

    /** Lock held: makes the next segment the active one and starts preparing the one after. */
    private MappedSegment roll() throws IOException, TimeoutException {
        MappedSegment previous = chain.last();
        MappedSegment next = allocator.take(nextSegmentStart(), settings.segmentAllocationTimeoutMs());
        chain.append(next);
        allocator.prepare(next.endPosition());
        closeFileOf(previous); // only the active segment keeps a file descriptor
        return next;
    }

    /**
     * Lock held (or the log closed): closes the file the writer kept open for {@code segment}; a failure to close
     * loses nothing written, so it is only logged.
     */
    private static void closeFileOf(MappedSegment segment) {
        if (segment == null) {
            return;
        }
        try {
            segment.closeChannel();
        } catch (IOException e) {
            LOG.warn("could not close the file of {}", segment, e);
        }
    }

    private long nextSegmentStart() {
        MappedSegment last = chain.last();
        if (last != null) {
            return last.endPosition();
        }
        long w = written.writerPosition();
        return w - w % settings.segmentBytes();
    }

    /**
     * A read-only view (no copy) of {@code sizeBytes} bytes at {@code position}, typically one record located
     * through a consume queue.
     */
    public ReadResult readRecord(long position, int sizeBytes) {
        if (position < 0 || sizeBytes <= 0) {
            return ReadResult.missing(ReadStatus.INVALID_RANGE);
        }
        MappedSegment segment = chain.find(position);
        if (segment == null) {
            boolean deleted = !chain.isEmpty() && position < chain.minPosition(0);
            return ReadResult.missing(deleted ? ReadStatus.POSITION_DELETED : ReadStatus.BEYOND_END);
        }
        if (position + sizeBytes > written.visible()) {
            return ReadResult.missing(ReadStatus.BEYOND_END);
        }
        int offset = (int) (position - segment.startPosition());
        if (offset + sizeBytes > segment.sizeBytes()) {
            return ReadResult.missing(ReadStatus.INVALID_RANGE);
        }
        return ReadResult.found(segment.view(offset, sizeBytes));
    }

    /**
     * Copies the {@code dst.remaining()} bytes at {@code position} into {@code dst} (from its position) by a
     * positional read of the segment file: for readers of whole ranges that would otherwise touch each page of the
     * mapping once, which costs more than the copy (docs/storage.md#reading). The same checks as
     * {@link #readRecord}; should the file fail to read, the rest is copied from the mapping (counted in
     * {@link #fileReadFallbacks()}). Any thread.
     *
     * @return FOUND with {@code dst} filled, or why nothing was read ({@code dst} untouched)
     */
    public ReadStatus read(long position, ByteBuffer dst) {
        int sizeBytes = dst.remaining();
        if (position < 0 || sizeBytes <= 0) {
            return ReadStatus.INVALID_RANGE;
        }
        MappedSegment segment = chain.find(position);
        if (segment == null) {
            boolean deleted = !chain.isEmpty() && position < chain.minPosition(0);
            return deleted ? ReadStatus.POSITION_DELETED : ReadStatus.BEYOND_END;
        }
        if (position + sizeBytes > written.visible()) {
            return ReadStatus.BEYOND_END;
        }
        int offset = (int) (position - segment.startPosition());
        if (offset + sizeBytes > segment.sizeBytes()) {
            return ReadStatus.INVALID_RANGE;
        }
        int start = dst.position();
        try {
            segment.read(dst, offset);
        } catch (IOException | RuntimeException e) {
            long n = fileReadFallbacks.incrementAndGet();
            if (n == 1 || n % 1000 == 0) {
                LOG.warn("could not read {} bytes at {} from {}; copied them from the mapping ({} times so far)",
                        sizeBytes, position, segment, n, e);
            }
            int done = dst.position() - start;
            dst.put(segment.view(offset + done, sizeBytes - done));
        }
        return ReadStatus.FOUND;
    }

    /**
     * How many truncations have started. A reader that keeps a copy of the log reads this before copying and drops
     * the copy when it has changed since, because a truncation rewrites bytes that were confirmed. Any thread.
     */
    public long truncations() {
        return truncations.get();
    }

    /** Reads by {@link #read} that fell back to the mapping because the file could not be read. */
    public long fileReadFallbacks() {
        return fileReadFallbacks.get();
    }

    /**
     * The {@code sizeBytes} bytes at {@code position} as a range of their segment file, for sending them without
     * mapping them (docs/storage.md#reading); the same checks as {@link #readRecord}. Any thread.
     *
     * @return the span, or empty when the range is not readable or the file cannot be opened (a segment deleted
     *         before anyone read its file): then read the mapping ({@link #readRecord})
     */
    public Optional<FileSpan> fileSpan(long position, int sizeBytes) {
        if (position < 0 || sizeBytes <= 0) {
            return Optional.empty();
        }
        MappedSegment segment = chain.find(position);
        if (segment == null || position + sizeBytes > written.visible()) {
            return Optional.empty();
        }
        int offset = (int) (position - segment.startPosition());
        if (offset + sizeBytes > segment.sizeBytes()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new FileSpan(segment.readChannel(), offset, sizeBytes, segment));
        } catch (IOException e) {
            return Optional.empty(); // deleted meanwhile: the mapping still holds the bytes
        }
    }

    /**
     * Parses the record at {@code position}, reading nothing at or beyond {@link #confirmedPosition()}.
     * For walking the log use {@link #cursor(long)}.
     */
    public ScanResult scan(long position, boolean checkCrc) {
        return scan(position, checkCrc, null);
    }

    /** {@link #scan(long, boolean)} with the caller's topic cache (may be null). */
    ScanResult scan(long position, boolean checkCrc, TopicCache topics) {
        MappedSegment segment = chain.find(position);
        if (segment == null) {
            boolean deleted = !chain.isEmpty() && position < chain.minPosition(0);
            return deleted ? ScanResult.positionDeleted(position) : ScanResult.noMoreData(position);
        }
        int offset = (int) (position - segment.startPosition());
        int toEnd = segment.sizeBytes() - offset;
        int readable = (int) Math.max(0, Math.min(toEnd, confirmedPosition() - position));
        return RecordParser.parse(segment.buffer(), offset, readable, toEnd, position, checkCrc, topics);
    }

    /**
     * For cutting the log into chunks without reading it: the largest record boundary {@code e} that the appender
     * noted, with {@code from < e <= min(limit, from + maxBytes)} and at most {@code maxRecords} records (a
     * segment's blank end record counts as one) in {@code [from, e)}; -1 when none is known (the part of the log
     * written before this process opened it, or more than 32,768 granules behind the written position). Any
     * thread.
     *
     * @param from  a record boundary
     * @param limit a record boundary at or below {@link #confirmedPosition()} as the caller read it
     */
    public long knownRecordBoundary(long from, long limit, int maxBytes, int maxRecords) {
        return written.knownRecordBoundary(from, limit, maxBytes, maxRecords);
    }

    /** A cursor for dispatch, starting at {@code fromPosition} (a record boundary), without CRC checks. */
    public RecordCursor cursor(long fromPosition) {
        return new RecordCursor(this, fromPosition, false, 0);
    }

    /**
     * A cursor that reads the log into its own copy, {@code windowBytes} at a time (more for a longer record), by
     * positional reads of the file instead of through the mapping: for a reader that follows the whole log
     * (docs/storage.md#reading). Starts at {@code fromPosition} (a record boundary), without CRC checks.
     */
    public RecordCursor copyingCursor(long fromPosition, int windowBytes) {
        if (windowBytes < RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES) {
            throw new IllegalArgumentException("windowBytes must be at least "
                    + RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES + ", was " + windowBytes);
        }
        return new RecordCursor(this, fromPosition, false, windowBytes);
    }

    /**
     * Truncates the log to {@code position}, which must be a record boundary in
     * [{@link #minPosition()}, {@link #writtenPosition()}]: zeros the bytes after it and deletes later segments.
     * Queue offsets are not rolled back; the caller resets them through {@link #queueOffsets()}. Nothing may
     * dispatch from the log meanwhile: its record boundary hints ({@link #knownRecordBoundary}) are rewritten.
     *
     * @throws IOException when zeroing or deleting fails (also reported to the failure handler)
     */
    public void truncateTo(long position) throws IOException {
        appendLock.lock();
        try {
            truncations.incrementAndGet(); // before any byte changes: a copy taken from here on is checked again
            long end = written.writerPosition();
            if (position < minPosition() || position > end) {
                throw new IllegalArgumentException("truncation position " + position + " outside ["
                        + minPosition() + ", " + end + "]");
            }
            MappedSegment segment = chain.find(position);
            long keepBelow = position;
            try {
                if (segment != null) {
                    int from = (int) (position - segment.startPosition());
                    int to = (int) Math.min(segment.sizeBytes(), end - segment.startPosition());
                    segment.force(from, segment.zeroNonZero(from, to));
                    keepBelow = segment.endPosition();
                }
                for (MappedSegment dropped : chain.removeFrom(keepBelow)) {
                    dropped.delete();
                }
            } catch (IOException e) {
                failureHandler.onIoFailure("truncate to " + position, e);
                throw e;
            }
            written.truncateTo(position);
            flushTarget.truncate(position);
            if (state == State.RUNNING) {
                allocator.prepare(nextSegmentStart());
            }
            LOG.warn("CommitLog truncated from {} to {}", end, position);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * {@link #deleteSegments} by age alone (or {@code force}), with nothing consumed or kept.
     *
     * @return the new {@link #minPosition()}
     */
    public long deleteExpiredSegments(long nowMs, long retentionMs, boolean force, int maxDeletes) {
        return deleteSegments(nowMs, retentionMs, Long.MIN_VALUE, Long.MAX_VALUE, force, maxDeletes, !force);
    }

    /**
     * Deletes whole segments, oldest first, never the active (newest) one, stopping at the first that must stay or
     * after {@code maxDeletes}. A segment that reaches {@code keepFrom} or above always stays; below it, one goes
     * when its last write is at least {@code retentionMs} old, or it lies wholly below {@code consumedBelow}, or
     * {@code force} is set. Readers holding views of a deleted segment keep valid bytes (see {@link MappedSegment}).
     * With {@code mayKeep}, a removed segment goes to the reuse pool while it has room ({@link SegmentRecycler})
     * instead of being unlinked: the caller says no when the disk space is needed now.
     *
     * @return the new {@link #minPosition()}
     */
    public long deleteSegments(long nowMs, long retentionMs, long consumedBelow, long keepFrom, boolean force,
                               int maxDeletes, boolean mayKeep) {
        int deleted = 0;
        MappedSegment[] segments = chain.snapshot();
        for (int i = 0; i < segments.length - 1 && deleted < maxDeletes; i++) {
            MappedSegment s = segments[i];
            if (s.endPosition() > keepFrom) {
                break;
            }
            boolean expired = nowMs - s.lastWriteTimeMs() >= retentionMs;
            if (!force && !expired && s.endPosition() > consumedBelow) {
                break;
            }
            if (!chain.removeOldest(s)) {
                break;
            }
            boolean kept;
            try {
                kept = mayKeep && recycler.offer(s);
                if (!kept) {
                    s.delete();
                }
            } catch (IOException e) {
                // The segment is already out of the log, but a file system that cannot rename or unlink is failing.
                failureHandler.onIoFailure("delete expired " + s, e);
                break;
            }
            if (!kept) {
                releases.track(s);
            }
            deleted++;
            LOG.info("{} {} (last write {} ms ago, {})", kept ? "kept for reuse" : "deleted", s,
                    nowMs - s.lastWriteTimeMs(),
                    expired ? "expired" : s.endPosition() <= consumedBelow ? "consumed by every group" : "forced");
        }
        return minPosition();
    }

    /**
     * Removed segments kept for reuse whose mappings the garbage collector has not yet found unreachable: they
     * cannot be reused before it does. Any thread.
     */
    public int segmentsAwaitingCollection() {
        return recycler.awaitingCollection();
    }

    /** Segments created from files that retention removed ({@link SegmentRecycler}) so far. Any thread. */
    public long segmentsReused() {
        return recycler.reusedCount();
    }

    /**
     * Bytes of segments deleted by {@link #deleteExpiredSegments} whose disk blocks are still held: a deleted
     * segment's mapping keeps its blocks until the garbage collector finds it unreachable (no reader holds a view of
     * it any more). Until this falls to 0 the file system's usage does not show those deletions. Any thread.
     */
    public long pendingReleaseBytes() {
        return releases.pendingBytes();
    }

    /** The flush agent's fsyncs so far: count, bytes, latency and size buckets. Any thread. */
    public FlushStats flushStats() {
        return meteredFlushTarget.stats();
    }

    /** Segments the log has (each one file, mapped). Any thread. */
    public int segmentCount() {
        return chain.size();
    }

    /** Bytes of the log's segments, all mapped into memory (prepared-ahead segments not included). Any thread. */
    public long mappedBytes() {
        long bytes = 0;
        for (MappedSegment segment : chain.snapshot()) {
            bytes += segment.sizeBytes();
        }
        return bytes;
    }

    /**
     * Fraction (0..1) of the CommitLog's file system that is used.
     *
     * @throws IOException when the file system cannot be queried
     */
    public double diskUsedRatio() throws IOException {
        FileStore store = Files.getFileStore(settings.commitLogDir());
        long total = store.getTotalSpace();
        return total <= 0 ? 1.0 : (double) (total - store.getUsableSpace()) / total;
    }

    /**
     * Lets appends write up to {@code position} (the disk check's budget, see {@link #writeLimitPosition});
     * {@link Long#MAX_VALUE} lifts the limit. Any thread.
     */
    public void limitWritesTo(long position) {
        writeLimitPosition = position;
    }

    /** The position above which appends are refused with DISK_FULL; {@link Long#MAX_VALUE} when unlimited. */
    public long writeLimitPosition() {
        return writeLimitPosition;
    }

    /**
     * The most disk space the log may take ahead of its appends: the segments prepared with zeros
     * ({@link LogSettings#preallocateSegments()}), else the one segment {@link ZeroFillAhead} fills, else none.
     */
    public long bytesAllocatedAheadAtMost() {
        if (settings.preallocateSegments()) {
            return (long) settings.segmentBytes() * settings.segmentsPreparedAhead();
        }
        return settings.zeroFillAheadBytes() > 0 ? settings.segmentBytes() : 0;
    }

    /** Position after the last byte appended (acquire). */
    public long writtenPosition() {
        return written.visible();
    }

    /** Position after the last byte known durable. */
    public long flushedPosition() {
        return flushTarget.flushedPosition();
    }

    /** What dispatch may read: flushed (SYNC) or written (ASYNC). */
    public long confirmedPosition() {
        return syncFlush ? flushTarget.flushedPosition() : written.visible();
    }

    /** Start of the oldest segment (0 for an empty log). */
    public long minPosition() {
        return chain.minPosition(written.visible() - written.visible() % settings.segmentBytes());
    }

    /** Same as {@link #writtenPosition()}: the end of the log. */
    public long maxPosition() {
        return writtenPosition();
    }

    /**
     * How many segments after the active one are prepared and ready to be rolled onto, 0 to
     * {@link LogSettings#segmentsPreparedAhead()}: a gauge of whether segment preparation keeps ahead of the writer.
     */
    public int segmentsReadyAhead() {
        return allocator.readyCount();
    }

    /** What the zero fill ahead of the appender has done so far. */
    ZeroFillAhead.Stats zeroFillStats() {
        return zeroFill.stats();
    }

    /**
     * Bytes whose pages were handed back to the kernel so far ({@link LogSettings#pageCacheMaxBytes()}); 0 while
     * the log is younger than that, and always where trimming is off or not supported.
     */
    public long pageCacheReleasedBytes() {
        return cacheTrimmer.stats().releasedBytes();
    }

    /** The queue offset table (next offset per queue). */
    public QueueOffsetTable queueOffsets() {
        return queueOffsets;
    }

    /** The store host written into records. */
    public InetSocketAddress storeHost() {
        return settings.storeHost();
    }

    /** The settings this log runs with. */
    public LogSettings settings() {
        return settings;
    }

    /** True once recovered and until closed, unless a storage failure happened. */
    public boolean isWritable() {
        return state == State.RUNNING && failureHandler.isWritable();
    }

    /**
     * Stops accepting appends, performs a final flush (pending SYNC appends get their outcome) and stops the
     * background threads. Idempotent.
     */
    @Override
    public void close() {
        State previous;
        appendLock.lock();
        try {
            previous = state;
            state = State.CLOSED;
        } finally {
            appendLock.unlock();
        }
        if (previous == State.CLOSED) {
            return;
        }
        if (previous == State.RUNNING) {
            flushAgent.close();
        }
        zeroFill.close();
        cacheTrimmer.close();
        allocator.close();
        recycler.close();
        closeFileOf(chain.last()); // the only segment whose file the writer keeps open
        for (MappedSegment segment : chain.snapshot()) {
            try {
                segment.closeReadChannel();
            } catch (IOException e) {
                LOG.warn("could not close the read channel of {}", segment, e);
            }
        }
        LOG.info("closed CommitLog {} at position {}, flushed {}; {} segments reused; zero-fill {}; page cache {}",
                settings.commitLogDir(), writtenPosition(), flushedPosition(), recycler.reusedCount(),
                zeroFill.stats(), cacheTrimmer.stats());
    }
}
