package io.sluice.store;

import io.sluice.store.log.CommitLog;
import java.io.IOException;
import java.util.Optional;

/**
 * The end of a closed store's CommitLog, and cutting it back: what a replica does before it serves again in
 * another role. A new master records where its epoch starts ({@link #end}); a replica that follows a new master
 * drops the tail it holds beyond what the two share ({@link #truncate}), so its log is a prefix of the master's
 * again. The store must be closed: both take its lock.
 *
 * <p>Truncation zeroes the log from the position on, deletes later segments and lowers the checkpoint to at most
 * the position, so the next open re-dispatches from there and drops consume-queue slots pointing beyond it
 * ({@link StoreRecovery}); queue offsets then continue from the consume queues.
 *
 * <p>Stateless; thread-safe for different stores.
 */
public final class LogTail {

    private LogTail() {
    }

    /**
     * The end of the valid records of the closed store in {@code settings.rootDir()} (a torn tail is cut, as the
     * next open would).
     *
     * @throws IOException when the store is open elsewhere or cannot be read
     */
    public static long end(StoreSettings settings) throws IOException {
        return cut(settings, Long.MAX_VALUE);
    }

    /**
     * Cuts the closed store's log back to {@code position} (a record boundary) when it ends beyond it.
     *
     * @return the log's end afterwards: {@code position}, or the old end when that was not beyond it
     * @throws IOException when the store is open elsewhere or cannot be written
     * @throws IllegalArgumentException when {@code position} lies below the log's first position
     */
    public static long truncate(StoreSettings settings, long position) throws IOException {
        return cut(settings, position);
    }

    private static long cut(StoreSettings settings, long position) throws IOException {
        try (StoreLock lock = StoreLock.acquire(settings.rootDir())) {
            StoreCheckpoint checkpointFile = new StoreCheckpoint(settings.rootDir());
            Optional<Checkpoint> checkpoint = checkpointFile.read();
            long from = Math.min(position, checkpoint.map(Checkpoint::dispatchedPosition).orElse(0L));
            CommitLog log = CommitLog.open(settings.log());
            try {
                long end;
                try {
                    end = log.recover(from, false, entry -> { });
                } catch (IllegalArgumentException e) {
                    // The checkpoint lies beyond the last segment: scan the whole log, as the store's recovery does.
                    log.close();
                    log = CommitLog.open(settings.log());
                    end = log.recover(0, false, entry -> { });
                }
                if (position >= end) {
                    return end;
                }
                log.truncateTo(position);
                if (checkpoint.isPresent() && checkpoint.get().dispatchedPosition() > position) {
                    checkpointFile.write(position, System.currentTimeMillis());
                }
                return position;
            } finally {
                log.close();
            }
        }
    }
}
