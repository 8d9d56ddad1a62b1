package io.sluice.store.retention;

import io.sluice.store.dispatch.Dispatcher;
import io.sluice.store.log.StoreFailureHandler;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic retention and disk check (Apache's CleanCommitLogService and CleanConsumeQueueService in one). Each
 * {@link #check()} sets the store's disk-full flag from the used fraction of the disk; at {@code deleteWhenHours} or
 * above {@code diskMaxUsedSpaceRatio} deletes whole segments, oldest first, that expired or, under pressure, that
 * every group has read; only with {@code cleanFileForcibly} also unread ones (logged at WARN with what was lost); then
 * trims the consume queues below the log's new first position (docs/storage.md#retention).
 *
 * <p>Never deleted: the active segment, one dispatch has not finished with, one the broker still needs
 * ({@link RetentionGuard#neededFromPosition()}). Forced deletion waits while deleted segments still hold their blocks
 * ({@link CommitLog#pendingReleaseBytes()}): the disk figure does not show them yet, and judging by it would delete
 * segment after segment without freeing a byte; meanwhile the agent asks the JVM for a collection.
 *
 * <p>Thread-safety: {@link #check()} is synchronized; the store's housekeeping thread calls {@link #run()}
 * periodically. Counters may be read from any thread.
 */
public final class RetentionAgent implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(RetentionAgent.class);
    /**
     * At most one requested collection per 5 s while deleted segments hold their blocks: a fast writer fills the disk
     * within a minute's wait for the blocks to come free. The launcher makes the request a concurrent G1 cycle
     * ({@code -XX:+ExplicitGCInvokesConcurrent}), not a full pause.
     */
    static final long COLLECTION_REQUEST_INTERVAL_MS = 5_000;

    private final RetentionSettings settings;
    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final Dispatcher dispatcher;
    private final StoreFailureHandler failureHandler;
    private final DiskUsage diskUsage;
    private final EpochClock clock;
    private final ZoneId zone;
    private final AtomicLong deletedSegments = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong collectionRequests = new AtomicLong();
    private final AtomicLong unreadDeletions = new AtomicLong();
    private final AtomicLong unreadBytesDeleted = new AtomicLong();
    /** Asked before deleting; the broker installs its own once its services run. */
    private volatile RetentionGuard guard = RetentionGuard.NONE;
    /** When this agent last asked for a collection; check() only. */
    private long lastCollectionRequestMs = -COLLECTION_REQUEST_INTERVAL_MS;
    private volatile double lastDiskUsedRatio = -1;
    private long trimmedUpTo = -1;

    public RetentionAgent(RetentionSettings settings, CommitLog log, ConsumeQueueTable queues, Dispatcher dispatcher,
                          StoreFailureHandler failureHandler, DiskUsage diskUsage, EpochClock clock, ZoneId zone) {
        this.settings = settings;
        this.log = log;
        this.queues = queues;
        this.dispatcher = dispatcher;
        this.failureHandler = failureHandler;
        this.diskUsage = diskUsage;
        this.clock = clock;
        this.zone = zone;
    }

    /** One check; see the class comment. */
    public synchronized RetentionOutcome check() {
        long nowMs = clock.time();
        // Read before the disk figure: a release the figure does not show yet is still counted as pending.
        long pendingRelease = log.pendingReleaseBytes();
        double ratio = checkDisk();
        boolean pressure = ratio > settings.diskMaxUsedSpaceRatio();
        boolean forceWanted = settings.cleanFileForcibly()
                && (ratio > settings.diskForceCleanRatio() || ratio > settings.diskRefuseWriteRatio());
        boolean forced = forceWanted && pendingRelease == 0;
        // Removed segments kept for reuse wait for the same collection before they can be reused.
        boolean collectionWanted = pendingRelease > 0 && (pressure || forceWanted)
                || log.segmentsAwaitingCollection() > 0;
        if (collectionWanted && nowMs - lastCollectionRequestMs >= COLLECTION_REQUEST_INTERVAL_MS) {
            lastCollectionRequestMs = nowMs;
            collectionRequests.incrementAndGet();
            System.gc();
        }
        int hour = Instant.ofEpochMilli(nowMs).atZone(zone).getHour();
        boolean due = settings.deleteWhenHours().contains(hour) || pressure || forced;
        int deleted = 0;
        boolean forcedRun = false;
        long lostFrom = Long.MAX_VALUE;
        if (due) {
            long minBefore = log.minPosition();
            // Only segments that lie wholly below the dispatched position: dispatch must be done with them.
            long behindDispatch = (dispatcher.dispatchedPosition() - minBefore) / log.settings().segmentBytes();
            int allowed = (int) Math.min(settings.maxSegmentDeletesPerRun(), Math.max(0, behindDispatch));
            if (allowed > 0) {
                RetentionGuard g = guard;
                long keepFrom = g.neededFromPosition();
                long consumedBelow = pressure || forced ? g.unconsumedFromPosition() : Long.MIN_VALUE;
                // Near the refuse ratio the space is needed now: removed segments are unlinked, not kept for reuse.
                boolean mayKeep = ratio <= settings.diskForceCleanRatio() && ratio <= settings.diskRefuseWriteRatio();
                log.deleteSegments(nowMs, settings.fileReservedMs(), consumedBelow, keepFrom, false, allowed, mayKeep);
                // Unread data goes only when nothing expired or consumed could go: the disk figure shows earlier
                // deletions only at the next check.
                if (forced && log.minPosition() == minBefore) {
                    log.deleteSegments(nowMs, settings.fileReservedMs(), consumedBelow, keepFrom, true, allowed,
                            false);
                    forcedRun = true;
                    lostFrom = Math.max(minBefore, consumedBelow);
                }
                deleted = (int) ((log.minPosition() - minBefore) / log.settings().segmentBytes());
                deletedSegments.addAndGet(deleted);
            }
        }
        long min = log.minPosition();
        int trimmed = 0;
        if (min > trimmedUpTo) {
            trimmed = queues.trimBelowPosition(min);
            trimmedUpTo = min;
        }
        if (deleted > 0 || forced) {
            LOG.info("retention: disk {}% used, deleted {} segments (forced {}), trimmed {} consume-queue files,"
                    + " log now starts at {}", percent(ratio), deleted, forcedRun, trimmed, min);
        }
        if (min > lostFrom) {
            unreadDeletions.incrementAndGet();
            unreadBytesDeleted.addAndGet(min - lostFrom);
            LOG.warn("cleanFileForciblyEnable: disk {}% used, deleted CommitLog [{}, {}) ({} bytes) before every"
                    + " consumer group had read it; lost: {}", percent(ratio), lostFrom, min, min - lostFrom,
                    guard.describeUnreadBelow(min));
        }
        return new RetentionOutcome(ratio, failureHandler.isDiskFull(), due, forced, deleted, trimmed, min);
    }

    /**
     * The disk part of a check alone (also run on its own, more often than retention): reads the used fraction,
     * sets or clears the disk-full flag and gives the log its write budget ({@link WriteBudget}). When the disk
     * cannot be read the flag and the budget stay as they are.
     *
     * @return the used fraction, -1 when it could not be read
     */
    public synchronized double checkDisk() {
        long writtenBefore = log.writtenPosition();
        double ratio = readRatio();
        if (ratio < 0) {
            return ratio;
        }
        long totalBytes;
        try {
            totalBytes = diskUsage.totalBytes(log.settings().commitLogDir());
        } catch (IOException e) {
            countFailure("cannot read the size of the file system of " + log.settings().commitLogDir(), e);
            return ratio;
        }
        boolean full = ratio > settings.diskRefuseWriteRatio();
        failureHandler.markDiskFull(full);
        // From the position before the figures were read: what was appended meanwhile counts against the budget.
        long limit = WriteBudget.writeLimit(writtenBefore, ratio, totalBytes, settings.diskRefuseWriteRatio(),
                log.bytesAllocatedAheadAtMost());
        long previous = log.writeLimitPosition();
        log.limitWritesTo(limit);
        if ((limit <= writtenBefore) != (previous <= writtenBefore)) {
            LOG.warn("disk {}% used (refusing at {}%): appends {}", percent(ratio),
                    percent(settings.diskRefuseWriteRatio()), limit <= writtenBefore
                            ? "refused with DISK_FULL until space frees" : "accepted again");
        }
        return ratio;
    }

    private void countFailure(String message, Exception e) {
        long n = failures.incrementAndGet();
        if ((n & (n - 1)) == 0) {
            LOG.warn("{} [{} failures so far]", message, n, e);
        }
    }

    /** Periodic entry point of {@link #checkDisk()}: a failure is counted and logged, the next run tries again. */
    public void runDiskCheck() {
        try {
            checkDisk();
        } catch (RuntimeException e) {
            countFailure("disk check failed", e);
        }
    }

    private double readRatio() {
        double ratio;
        try {
            ratio = diskUsage.usedRatio(log.settings().commitLogDir());
        } catch (IOException e) {
            long n = failures.incrementAndGet();
            if ((n & (n - 1)) == 0) {
                LOG.warn("cannot read the disk usage of {} [{} failures so far]", log.settings().commitLogDir(), n, e);
            }
            return -1;
        }
        if (!(ratio >= 0.0 && ratio <= 1.0)) {
            long n = failures.incrementAndGet();
            if ((n & (n - 1)) == 0) {
                LOG.warn("disk usage of {} read as {}, not a fraction; ignored [{} failures so far]",
                        log.settings().commitLogDir(), ratio, n);
            }
            return -1;
        }
        lastDiskUsedRatio = ratio;
        return ratio;
    }

    private static String percent(double ratio) {
        return ratio < 0 ? "?" : String.format(Locale.ROOT, "%.1f", ratio * 100);
    }

    /** Periodic entry point: a failure is counted and logged, and the next run tries again. */
    @Override
    public void run() {
        try {
            check();
        } catch (RuntimeException e) {
            long n = failures.incrementAndGet();
            if ((n & (n - 1)) == 0) {
                LOG.error("retention check failed [{} failures so far]", n, e);
            }
        }
    }

    /** Makes retention ask {@code value} what is unread and what is needed before deleting. Any thread. */
    public void guard(RetentionGuard value) {
        guard = Objects.requireNonNull(value, "guard");
    }

    /** Forced deletions that removed messages some consumer group had not read. */
    public long unreadDeletions() {
        return unreadDeletions.get();
    }

    /** CommitLog bytes that forced deletion removed before every consumer group had read them. */
    public long unreadBytesDeleted() {
        return unreadBytesDeleted.get();
    }

    /** Used fraction seen by the last check, -1 before the first or when unreadable. */
    public double lastDiskUsedRatio() {
        return lastDiskUsedRatio;
    }

    /** Segments deleted so far. */
    public long deletedSegments() {
        return deletedSegments.get();
    }

    /** Checks (or disk reads) that failed. */
    public long failures() {
        return failures.get();
    }

    /** Checks that asked the JVM for a collection because deleted segments still held their disk blocks. */
    public long collectionRequests() {
        return collectionRequests.get();
    }
}
