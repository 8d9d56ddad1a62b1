package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The push consumer's in-memory consume offsets (next offset to consume per queue), committed to the brokers
 * periodically, when a queue is removed and at close (wire-protocol §6.4.5). Thread-safe (concurrent maps; an
 * offset only moves forward unless it is {@link #reset}).
 */
public final class OffsetStore {
    private final ConsumerRpc rpc;
    private final ConcurrentHashMap<MessageQueue, Long> offsets = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<MessageQueue, Long> committed = new ConcurrentHashMap<>();

    public OffsetStore(ConsumerRpc rpc) {
        this.rpc = rpc;
    }

    /** Moves the offset of {@code queue} forward to {@code offset} (never backward). */
    public void advance(MessageQueue queue, long offset) {
        if (offset >= 0) {
            offsets.merge(queue, offset, Math::max);
        }
    }

    /** Sets the offset of {@code queue}, also backward (a new assignment, an offset the broker corrected). */
    public void reset(MessageQueue queue, long offset) {
        offsets.put(queue, offset);
    }

    /** The offset of {@code queue}, or -1. */
    public long get(MessageQueue queue) {
        return offsets.getOrDefault(queue, -1L);
    }

    /** A snapshot of every offset. */
    public Map<MessageQueue, Long> snapshot() {
        return Map.copyOf(offsets);
    }

    /** Commits the offsets that changed since their last commit; oneway ones complete when written. */
    public CompletableFuture<Void> commitAll(boolean oneway) {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            commits.add(commit(entry.getKey(), entry.getValue(), oneway));
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /**
     * Commits every offset, changed or not, and waits for the brokers' answers: the last commit of a consumer.
     * A pull carries the offset consumed when it was sent (COMMIT_OFFSET), and a broker may handle it after a later
     * UPDATE_CONSUMER_OFFSET (Apache's broker runs the two on different thread pools), putting back an older offset
     * that the "changed since the last commit" rule would then never send again.
     */
    public CompletableFuture<Void> commitEverything() {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            MessageQueue queue = entry.getKey();
            long offset = entry.getValue();
            commits.add(rpc.commitOffset(queue, offset, false).thenRun(() -> committed.put(queue, offset)));
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /** Commits the offset of {@code queue} and forgets it. */
    public CompletableFuture<Void> commitAndRemove(MessageQueue queue) {
        Long offset = offsets.remove(queue);
        CompletableFuture<Void> done = offset == null ? CompletableFuture.completedFuture(null)
                : commit(queue, offset, true);
        committed.remove(queue);
        return done;
    }

    private CompletableFuture<Void> commit(MessageQueue queue, long offset, boolean oneway) {
        if (Long.valueOf(offset).equals(committed.get(queue))) {
            return CompletableFuture.completedFuture(null);
        }
        return rpc.commitOffset(queue, offset, oneway).thenRun(() -> committed.put(queue, offset));
    }
}
