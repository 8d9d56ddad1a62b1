package io.sluice.store;

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
 * Brings a freshly opened CommitLog and consume-queue table into agreement before the store serves anything
 * (docs/storage.md#recovery). The CommitLog is the truth; consume queues are rebuilt from it by idempotent
 * re-dispatch, starting at the checkpoint, below which both are durable. The same steps run after a clean stop (which
 * leaves nothing to scan) and after a crash (which also verifies CRCs, with {@code checkCrcOnRecover}):
 * <ol>
 *   <li>scan the CommitLog from the checkpoint, cut the torn tail after the last valid record and raise the queue
 *       offsets of every scanned record;</li>
 *   <li>drop consume-queue slots at or beyond the new log end;</li>
 *   <li>raise each queue's next offset to its consume queue's max offset;</li>
 *   <li>trim consume queues below the log's first position;</li>
 *   <li>re-dispatch from the checkpoint to the log end.</li>
 * </ol>
 *
 * <p>Stateless; runs on the thread that opens the store, before any other thread touches the components.
 */
final class StoreRecovery {

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
        long indexedBefore = dispatcher.totals().indexed();
        long reached = dispatcher.redispatch(from);
        long redispatched = dispatcher.totals().indexed() - indexedBefore;
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
