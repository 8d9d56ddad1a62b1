package io.sluice.store.log;

import io.sluice.format.RecordDescriptor;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of one CommitLog, validated once on construction (the exception names the bad value).
 *
 * <p>Immutable; thread-safe.
 *
 * @param commitLogDir              directory of the segment files (Apache {@code <root>/commitlog})
 * @param segmentBytes              size of every segment file (Apache {@code mappedFileSizeCommitLog}; 128 MiB,
 *                                  Apache's is 1 GiB); must hold the largest record: at least
 *                                  {@code maxMessageBytes + 64 KiB + 8}. Fixed for the life of a store.
 * @param maxMessageBytes           largest body, or whole batch body, accepted (Apache {@code maxMessageSize}, 4 MiB)
 * @param flushMode                 ASYNC or SYNC
 * @param flushIntervalMs           ASYNC flush period (500)
 * @param flushMinPages             ASYNC: dirty pages needed to force (4)
 * @param flushThoroughIntervalMs   ASYNC: force everything at least this often (10 000)
 * @param syncFlushTimeoutMs        SYNC: wait for the fsync at most this long, then FLUSH_DISK_TIMEOUT (5 000)
 * @param storeHost                 this broker's address as written into STOREHOST and offset message ids
 * @param checkCrcOnRecover         verify BODYCRC when recovering (Apache {@code checkCRCOnRecover}, true)
 * @param preallocateSegments       write zeros through each new segment (on a background thread) so that its disk
 *                                  blocks exist up front; false: sparse segments, which cost less. A full disk fails
 *                                  the append either way (docs/storage.md#commitlog-segments)
 * @param segmentAllocationTimeoutMs how long an append waits for the next segment to be prepared (5 000)
 * @param segmentsPreparedAhead     how many segments are prepared ahead of the active one, 1..
 *                                  {@value #MAX_SEGMENTS_PREPARED_AHEAD}; with {@code preallocateSegments} each is
 *                                  a whole segment of disk and page cache reserved in advance (1)
 * @param boundaryGranuleBytes      granule of the record boundary hints ({@link RecordBoundaryIndex}), a power of
 *                                  two in [{@value #MIN_BOUNDARY_GRANULE_BYTES}, {@value #MAX_BOUNDARY_GRANULE_BYTES}]
 *                                  (128 KiB)
 * @param zeroFillAheadBytes        lead of {@link ZeroFillAhead} before the end of the active segment, over which it
 *                                  fills the next one in step with the appender; 0 turns it off; not used with
 *                                  {@code preallocateSegments} (128 MiB: one default segment)
 * @param recycledSegments          at most this many segments that retention removes are kept, renamed, and reused
 *                                  as new segments ({@link SegmentRecycler}); 0 unlinks every removed segment (8)
 * @param pageCacheMaxBytes         the newest bytes of the log kept in the page cache; older, flushed pages are
 *                                  handed back to the kernel ({@link PageCacheTrimmer}); 0 leaves the cache to the
 *                                  kernel (4 GiB)
 */
public record LogSettings(
        Path commitLogDir,
        int segmentBytes,
        int maxMessageBytes,
        FlushMode flushMode,
        int flushIntervalMs,
        int flushMinPages,
        int flushThoroughIntervalMs,
        int syncFlushTimeoutMs,
        InetSocketAddress storeHost,
        boolean checkCrcOnRecover,
        boolean preallocateSegments,
        int segmentAllocationTimeoutMs,
        int segmentsPreparedAhead,
        int boundaryGranuleBytes,
        int zeroFillAheadBytes,
        int recycledSegments,
        long pageCacheMaxBytes) {

    /**
     * 128 MiB, not Apache's 1 GiB: {@link ZeroFillAhead} fills one segment ahead of the appender, and pages filled
     * that far ahead cost several times more to fill (docs/storage.md#commitlog-segments).
     */
    public static final int DEFAULT_SEGMENT_BYTES = 128 << 20;
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
    public static final int DEFAULT_FLUSH_INTERVAL_MS = 500;
    public static final int DEFAULT_FLUSH_MIN_PAGES = 4;
    public static final int DEFAULT_FLUSH_THOROUGH_INTERVAL_MS = 10_000;
    public static final int DEFAULT_SYNC_FLUSH_TIMEOUT_MS = 5_000;
    public static final int DEFAULT_SEGMENT_ALLOCATION_TIMEOUT_MS = 5_000;
    public static final int DEFAULT_SEGMENTS_PREPARED_AHEAD = 1;
    /** Most segments that may be prepared ahead of the active one. */
    public static final int MAX_SEGMENTS_PREPARED_AHEAD = 16;
    public static final int DEFAULT_BOUNDARY_GRANULE_BYTES = 128 * 1024;
    public static final int MIN_BOUNDARY_GRANULE_BYTES = 256;
    public static final int MAX_BOUNDARY_GRANULE_BYTES = 1 << 30;
    public static final int DEFAULT_ZERO_FILL_AHEAD_BYTES = DEFAULT_SEGMENT_BYTES;
    public static final int DEFAULT_RECYCLED_SEGMENTS = 8;
    public static final int MAX_RECYCLED_SEGMENTS = 64;
    public static final long DEFAULT_PAGE_CACHE_MAX_BYTES = 4L << 30;
    /** Smallest segment accepted (one page). */
    public static final int MIN_SEGMENT_BYTES = 4096;

    public LogSettings {
        Objects.requireNonNull(commitLogDir, "commitLogDir");
        Objects.requireNonNull(flushMode, "flushMode");
        Objects.requireNonNull(storeHost, "storeHost");
        if (storeHost.getAddress() == null) {
            throw new IllegalArgumentException("storeHost " + storeHost + " is unresolved");
        }
        if (maxMessageBytes < 1) {
            throw new IllegalArgumentException("maxMessageBytes must be >= 1, was " + maxMessageBytes);
        }
        if (segmentBytes < MIN_SEGMENT_BYTES) {
            throw new IllegalArgumentException(
                    "segmentBytes must be >= " + MIN_SEGMENT_BYTES + ", was " + segmentBytes);
        }
        long needed = (long) maxMessageBytes + RecordDescriptor.MAX_RECORD_OVERHEAD_BYTES
                + RecordDescriptor.END_OF_SEGMENT_MIN_BLANK_BYTES;
        if (segmentBytes < needed) {
            throw new IllegalArgumentException("segmentBytes " + segmentBytes + " cannot hold the largest record: "
                    + "need >= maxMessageBytes (" + maxMessageBytes + ") + 65536 + 8 = " + needed);
        }
        if (segmentAllocationTimeoutMs < 1) {
            throw new IllegalArgumentException(
                    "segmentAllocationTimeoutMs must be >= 1, was " + segmentAllocationTimeoutMs);
        }
        if (segmentsPreparedAhead < 1 || segmentsPreparedAhead > MAX_SEGMENTS_PREPARED_AHEAD) {
            throw new IllegalArgumentException("segmentsPreparedAhead must be in [1, " + MAX_SEGMENTS_PREPARED_AHEAD
                    + "], was " + segmentsPreparedAhead);
        }
        if (boundaryGranuleBytes < MIN_BOUNDARY_GRANULE_BYTES || boundaryGranuleBytes > MAX_BOUNDARY_GRANULE_BYTES
                || Integer.bitCount(boundaryGranuleBytes) != 1) {
            throw new IllegalArgumentException("boundaryGranuleBytes must be a power of two in ["
                    + MIN_BOUNDARY_GRANULE_BYTES + ", " + MAX_BOUNDARY_GRANULE_BYTES + "], was "
                    + boundaryGranuleBytes);
        }
        if (recycledSegments < 0 || recycledSegments > MAX_RECYCLED_SEGMENTS) {
            throw new IllegalArgumentException("recycledSegments must be in [0, " + MAX_RECYCLED_SEGMENTS
                    + "], was " + recycledSegments);
        }
        if (zeroFillAheadBytes < 0) {
            throw new IllegalArgumentException("zeroFillAheadBytes must be >= 0, was " + zeroFillAheadBytes);
        }
        if (pageCacheMaxBytes < 0) {
            throw new IllegalArgumentException("pageCacheMaxBytes must be >= 0, was " + pageCacheMaxBytes);
        }
        // Validates the flush slice with its own messages.
        new FlushSettings(flushMode, flushIntervalMs, flushMinPages, flushThoroughIntervalMs, syncFlushTimeoutMs);
    }

    /**
     * The settings without {@code segmentsPreparedAhead}, {@code boundaryGranuleBytes}, {@code zeroFillAheadBytes},
     * {@code recycledSegments} and {@code pageCacheMaxBytes} (then their defaults), as before they existed.
     */
    public LogSettings(Path commitLogDir, int segmentBytes, int maxMessageBytes, FlushMode flushMode,
                       int flushIntervalMs, int flushMinPages, int flushThoroughIntervalMs, int syncFlushTimeoutMs,
                       InetSocketAddress storeHost, boolean checkCrcOnRecover, boolean preallocateSegments,
                       int segmentAllocationTimeoutMs) {
        this(commitLogDir, segmentBytes, maxMessageBytes, flushMode, flushIntervalMs, flushMinPages,
                flushThoroughIntervalMs, syncFlushTimeoutMs, storeHost, checkCrcOnRecover, preallocateSegments,
                segmentAllocationTimeoutMs, DEFAULT_SEGMENTS_PREPARED_AHEAD, DEFAULT_BOUNDARY_GRANULE_BYTES,
                DEFAULT_ZERO_FILL_AHEAD_BYTES, DEFAULT_RECYCLED_SEGMENTS, DEFAULT_PAGE_CACHE_MAX_BYTES);
    }

    /** The flush agent's slice. */
    public FlushSettings flushSettings() {
        return new FlushSettings(flushMode, flushIntervalMs, flushMinPages, flushThoroughIntervalMs,
                syncFlushTimeoutMs);
    }

    /** A builder with Apache's defaults. */
    public static Builder builder(Path commitLogDir, InetSocketAddress storeHost) {
        return new Builder(commitLogDir, storeHost);
    }

    /** Builds {@link LogSettings}; not thread-safe. */
    public static final class Builder {
        private final Path commitLogDir;
        private final InetSocketAddress storeHost;
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private FlushMode flushMode = FlushMode.ASYNC;
        private int flushIntervalMs = DEFAULT_FLUSH_INTERVAL_MS;
        private int flushMinPages = DEFAULT_FLUSH_MIN_PAGES;
        private int flushThoroughIntervalMs = DEFAULT_FLUSH_THOROUGH_INTERVAL_MS;
        private int syncFlushTimeoutMs = DEFAULT_SYNC_FLUSH_TIMEOUT_MS;
        private boolean checkCrcOnRecover = true;
        private boolean preallocateSegments = false;
        private int segmentAllocationTimeoutMs = DEFAULT_SEGMENT_ALLOCATION_TIMEOUT_MS;
        private int segmentsPreparedAhead = DEFAULT_SEGMENTS_PREPARED_AHEAD;
        private int boundaryGranuleBytes = DEFAULT_BOUNDARY_GRANULE_BYTES;
        private int zeroFillAheadBytes = DEFAULT_ZERO_FILL_AHEAD_BYTES;
        private int recycledSegments = DEFAULT_RECYCLED_SEGMENTS;
        private long pageCacheMaxBytes = DEFAULT_PAGE_CACHE_MAX_BYTES;

        private Builder(Path commitLogDir, InetSocketAddress storeHost) {
            this.commitLogDir = commitLogDir;
            this.storeHost = storeHost;
        }

        public Builder segmentBytes(int value) {
            this.segmentBytes = value;
            return this;
        }

        public Builder maxMessageBytes(int value) {
            this.maxMessageBytes = value;
            return this;
        }

        public Builder flushMode(FlushMode value) {
            this.flushMode = value;
            return this;
        }

        public Builder flushIntervalMs(int value) {
            this.flushIntervalMs = value;
            return this;
        }

        public Builder flushMinPages(int value) {
            this.flushMinPages = value;
            return this;
        }

        public Builder flushThoroughIntervalMs(int value) {
            this.flushThoroughIntervalMs = value;
            return this;
        }

        public Builder syncFlushTimeoutMs(int value) {
            this.syncFlushTimeoutMs = value;
            return this;
        }

        public Builder checkCrcOnRecover(boolean value) {
            this.checkCrcOnRecover = value;
            return this;
        }

        public Builder preallocateSegments(boolean value) {
            this.preallocateSegments = value;
            return this;
        }

        public Builder segmentAllocationTimeoutMs(int value) {
            this.segmentAllocationTimeoutMs = value;
            return this;
        }

        public Builder segmentsPreparedAhead(int value) {
            this.segmentsPreparedAhead = value;
            return this;
        }

        public Builder boundaryGranuleBytes(int value) {
            this.boundaryGranuleBytes = value;
            return this;
        }

        public Builder zeroFillAheadBytes(int value) {
            this.zeroFillAheadBytes = value;
            return this;
        }

        public Builder recycledSegments(int value) {
            this.recycledSegments = value;
            return this;
        }

        public Builder pageCacheMaxBytes(long value) {
            this.pageCacheMaxBytes = value;
            return this;
        }

        public LogSettings build() {
            return new LogSettings(commitLogDir, segmentBytes, maxMessageBytes, flushMode, flushIntervalMs,
                    flushMinPages, flushThoroughIntervalMs, syncFlushTimeoutMs, storeHost, checkCrcOnRecover,
                    preallocateSegments, segmentAllocationTimeoutMs, segmentsPreparedAhead, boundaryGranuleBytes,
                    zeroFillAheadBytes, recycledSegments, pageCacheMaxBytes);
        }
    }
}
