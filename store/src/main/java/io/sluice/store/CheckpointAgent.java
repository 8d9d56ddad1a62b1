package io.sluice.store;

import io.sluice.store.dispatch.Dispatcher;
import io.sluice.store.index.ConsumeQueueTable;
import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes checkpoints: p = min(dispatched position, log flushed position); force every consume queue; persist p.
 * Reading p before the flush is what makes it safe: every slot of a record below p was written before p was
 * published (release/acquire), so the flush that follows makes it durable, and the log below p is durable
 * because p is at most the log's flushed position.
 *
 * <p>Periodic runs are paced ({@link CheckpointPacer}): a run skips while the last checkpoint's pacing lasts.
 *
 * <p>Thread-safe: {@link #checkpoint()} is synchronized; the store's housekeeping thread calls {@link #run()}
 * periodically (it alone owns the pacer) and the shutdown path calls {@link #checkpoint()} once at the end.
 */
final class CheckpointAgent implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointAgent.class);

    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final Dispatcher dispatcher;
    private final StoreCheckpoint checkpoint;
    private final EpochClock clock;
    private final NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private final CheckpointPacer pacer = new CheckpointPacer();
    private final AtomicLong failures = new AtomicLong();
    private long lastPosition = -1;

    public CheckpointAgent(CommitLog log, ConsumeQueueTable queues, Dispatcher dispatcher, StoreCheckpoint checkpoint,
                           EpochClock clock) {
        this.log = log;
        this.queues = queues;
        this.dispatcher = dispatcher;
        this.checkpoint = checkpoint;
        this.clock = clock;
    }

    /**
     * Takes a checkpoint now (skipped when the position has not moved since the last one).
     *
     * @return the checkpointed position
     * @throws IOException if the checkpoint file cannot be written
     */
    public synchronized long checkpoint() throws IOException {
        long position = Math.min(dispatcher.dispatchedPosition(), log.flushedPosition());
        if (position == lastPosition) {
            return position;
        }
        queues.flushAll();
        checkpoint.write(position, clock.time());
        lastPosition = position;
        return position;
    }

    /**
     * Periodic entry point: takes a checkpoint when the pacer says one is due. A failure is counted and logged, and
     * the next run tries again.
     */
    @Override
    public void run() {
        long startNs = nanoClock.nanoTime();
        if (!pacer.due(startNs)) {
            return;
        }
        try {
            checkpoint();
            pacer.ran(startNs, nanoClock.nanoTime());
        } catch (IOException | RuntimeException e) {
            long n = failures.incrementAndGet();
            if ((n & (n - 1)) == 0) {
                LOG.error("checkpoint failed [{} failures so far]; recovery after a crash will start further back",
                        n, e);
            }
        }
    }

    /** Position of the last checkpoint this agent wrote, -1 before the first. */
    public synchronized long lastPosition() {
        return lastPosition;
    }

    /** Checkpoints that failed. */
    public long failures() {
        return failures.get();
    }
}
