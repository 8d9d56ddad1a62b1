package io.sluice.store.recovery;

import io.sluice.store.dispatch.SerialDispatcher;
import io.sluice.store.index.ConsumeQueue;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import io.sluice.store.log.QueueOffsetTable;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a freshly opened CommitLog and consume-queue table into agreement before the store serves anything.
 *
 * <p>The CommitLog is the truth; consume queues are derived from it and can always be rebuilt by re-dispatch,
 * which is idempotent. The checkpoint names a position below which both the log and every consume-queue slot are
 * durable, so re-dispatch only needs to start there. The same steps run after a clean stop and after a crash; a
 * clean stop leaves the checkpoint at the log end, so there is nothing to scan. After a crash the scan also
 * verifies CRCs (when {@code checkCrcOnRecover}).
 * <ol>
 *   <li>Scan the CommitLog forward from the checkpoint (or from its first segment without one), verifying each
 *       record's lengths, magic, position and CRC; cut the torn tail after the last valid record (the log's
 *       own recovery), which also raises the queue offsets of every scanned record.</li>
 *   <li>Drop consume-queue slots pointing at or beyond the new log end (queues ahead of the log).</li>
 *   <li>Raise each queue's next offset to its consume queue's max offset, so offsets continue densely.</li>
 *   <li>Trim consume queues below the log's first position (segments deleted by retention).</li>
 *   <li>Re-dispatch from the checkpoint to the log end: slots the queues lack are written, the rest skipped.</li>
 * </ol>
 * The caller then starts the dispatcher at the returned end position.
 *
 * <p>Stateless; runs on the thread that opens the store, before any other thread touches the components.
 */
public final class StoreRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(StoreRecovery.class);

    private StoreRecovery() {
    }

    /**
     * @param log        opened, not yet recovered
     * @param queues     opened (each queue already dropped its own invalid tail)
     * @param dispatcher not yet started; used for the re-dispatch
     * @param checkpoint the checkpoint read at start-up, if any
     * @param crashed    the abort marker was present
     * @param checkCrc   verify record CRCs during the scan (used only after a crash)
     * @throws IOException when the log cannot be cut or a consume-queue file cannot be created
     */
    public static RecoveryReport recover(CommitLog log, ConsumeQueueTable queues, SerialDispatcher dispatcher,
                                         Optional<Checkpoint> checkpoint, boolean crashed, boolean checkCrc)
            throws IOException {
        long startNs = System.nanoTime();
        long checkpointPosition = checkpoint.map(Checkpoint::dispatchedPosition).orElse(-1L);
        long from = Math.max(0, checkpointPosition);
        boolean verify = crashed && checkCrc;
        long[] scanned = new long[1];
        long end;
        try {
            end = log.recover(from, verify, entry -> scanned[0]++);
        } catch (IllegalArgumentException e) {
            // The checkpoint lies beyond the last segment: log files were lost. Rebuild from the first one.
            LOG.warn("checkpoint position {} is beyond the CommitLog ({}); scanning the whole log", from,
                    e.getMessage());
            from = 0;
            end = log.recover(0, verify, entry -> scanned[0]++);
        }
        // A shared BatchCQ slot reaching past the end is dropped whole: its first records are indexed again.
        from = Math.max(log.minPosition(), Math.min(from, queues.startOfSlotsReachingPast(end)));
        long truncated = queues.truncateFromPosition(end);
        if (truncated > 0) {
            LOG.warn("dropped {} consume-queue slots pointing at or beyond the CommitLog end {}", truncated, end);
        }
        QueueOffsetTable offsets = log.queueOffsets();
        for (ConsumeQueue queue : queues.queues()) {
            if (queue.maxOffset() > offsets.nextOffset(queue.topic(), queue.queueId())) {
                offsets.set(queue.topic(), queue.queueId(), queue.maxOffset());
            }
        }
        queues.trimBelowPosition(log.minPosition());
        long indexedBefore = dispatcher.counters().indexed();
        long reached = dispatcher.redispatch(from);
        long redispatched = dispatcher.counters().indexed() - indexedBefore;
        if (reached != end) {
            LOG.error("recovery re-dispatch stopped at {} instead of the log end {}", reached, end);
        }
        for (ConsumeQueue queue : queues.queues()) {
            long next = offsets.nextOffset(queue.topic(), queue.queueId());
            if (queue.maxOffset() != next) {
                LOG.warn("after recovery consume queue {} ends at offset {} but the queue continues at {}", queue,
                        queue.maxOffset(), next);
            }
        }
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        RecoveryReport report = new RecoveryReport(crashed, checkpointPosition, from, end, scanned[0], truncated,
                redispatched, durationMs);
        LOG.info("recovered the store after a {} stop: {}", crashed ? "crash or unclean" : "clean", report);
        return report;
    }
}
