package io.sluice.store.log;

import java.util.concurrent.CompletableFuture;

/**
 * A SYNC append waiting for its fsync. Its future completes on a flush agent thread.
 *
 * <p>Thread-safety: created under the append lock; completed once by the flush agent.
 */
final class PendingAppend extends FlushWaiter {

    final CompletableFuture<AppendResult> future = new CompletableFuture<>();
    private final AppendResult stored;

    PendingAppend(AppendResult stored, long deadlineNs) {
        super(stored.nextPosition(), deadlineNs);
        this.stored = stored;
    }

    @Override
    protected void onOutcome(FlushOutcome outcome) {
        future.complete(switch (outcome) {
            case FLUSHED -> stored;
            case TIMED_OUT -> stored.withStatus(AppendStatus.FLUSH_DISK_TIMEOUT);
            case FAILED -> stored.withStatus(AppendStatus.IO_ERROR);
        });
    }
}
