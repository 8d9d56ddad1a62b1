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
 *
 * <p>A periodic commit skips a queue whose broker is known to hold its offset already. A pull that carries
 * COMMIT_OFFSET makes that knowledge stale: the broker may handle it after a later UPDATE_CONSUMER_OFFSET (Apache's
 * broker runs the two on different thread pools) and put back the older offset the pull carried. So every answered
 * pull that carried an offset ({@link #pullAnswered}) forgets what the broker holds, and a commit whose answer
 * arrives after such a pull was answered does not record its offset as held; the next periodic commit sends it
 * again.
 */
public final class OffsetStore {
    /** Sends one offset commit; a oneway one completes when written. */
    @FunctionalInterface
    public interface Committer {
        CompletableFuture<Void> commit(MessageQueue queue, long offset, boolean oneway);
    }

    private final Committer committer;
    private final ConcurrentHashMap<MessageQueue, Long> offsets = new ConcurrentHashMap<>();
    /** The offset each queue's broker is known to hold; updated only inside {@code compute} on its key. */
    private final ConcurrentHashMap<MessageQueue, Long> held = new ConcurrentHashMap<>();
    /** Per queue, how many pulls that carried an offset have been answered (or failed). */
    private final ConcurrentHashMap<MessageQueue, Long> answeredPulls = new ConcurrentHashMap<>();

    public OffsetStore(Committer committer) {
        this.committer = committer;
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

    /**
     * Records that a pull of {@code queue} carrying COMMIT_OFFSET was answered or failed: the broker may now hold the
     * offset that pull carried, whatever was committed before it.
     */
    public void pullAnswered(MessageQueue queue) {
        answeredPulls.merge(queue, 1L, Long::sum);
        held.remove(queue);
    }

    /** Commits the offsets the brokers are not known to hold; oneway ones complete when written. */
    public CompletableFuture<Void> commitAll(boolean oneway) {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            MessageQueue queue = entry.getKey();
            long offset = entry.getValue();
            if (!Long.valueOf(offset).equals(held.get(queue))) {
                commits.add(commit(queue, offset, oneway));
            }
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /** Commits every offset, held or not, and waits for the brokers' answers: the last commit of a consumer. */
    public CompletableFuture<Void> commitEverything() {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            commits.add(commit(entry.getKey(), entry.getValue(), false));
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /** Commits the offset of {@code queue} and forgets the queue. */
    public CompletableFuture<Void> commitAndRemove(MessageQueue queue) {
        Long offset = offsets.remove(queue);
        CompletableFuture<Void> done = offset == null ? CompletableFuture.completedFuture(null)
                : committer.commit(queue, offset, true);
        held.remove(queue);
        answeredPulls.remove(queue);
        return done;
    }

    private CompletableFuture<Void> commit(MessageQueue queue, long offset, boolean oneway) {
        long pullsBefore = answeredPulls.getOrDefault(queue, 0L);
        return committer.commit(queue, offset, oneway).thenRun(() -> held.compute(queue,
                (q, current) -> answeredPulls.getOrDefault(q, 0L) == pullsBefore ? Long.valueOf(offset) : current));
    }
}
