package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The push consumer's in-memory consume offsets (next offset to consume per queue), committed to the brokers
 * periodically, when a queue is removed and at close (docs/wire-protocol.md#offset-commits).
 *
 * <p><b>One writer of the broker's offsets, one round at a time.</b> A broker may handle two offset writes of one
 * consumer in either order: Apache's broker runs UPDATE_CONSUMER_OFFSET on a pool of threads, and a pull's
 * COMMIT_OFFSET on another pool. An older offset handled last puts the committed offset back (a consumer closed after
 * consuming 400 messages left 8 committed). So the consumer's pulls carry no offset, every commit waits for the
 * broker's answer, and commits go out in rounds: a round starts only when the previous one was answered (a periodic
 * tick that finds a round in flight does nothing), and the last commit at close follows every earlier round. A round
 * skips a queue whose broker is known to hold its offset, i.e. answered a commit of it.
 *
 * <p>Thread-safe: offsets in concurrent maps (an offset only moves forward unless it is {@link #reset}); the round
 * chain is guarded by this object's monitor, held only to start a round.
 */
public final class OffsetStore {
    /** Sends one offset commit; completes when the broker answered. */
    @FunctionalInterface
    public interface Committer {
        CompletableFuture<Void> commit(MessageQueue queue, long offset);
    }

    private final Committer committer;
    private final ConcurrentHashMap<MessageQueue, Long> offsets = new ConcurrentHashMap<>();
    /** The offset each queue's broker answered a commit of. */
    private final ConcurrentHashMap<MessageQueue, Long> held = new ConcurrentHashMap<>();
    /** The last round started; guarded by {@code this}. Completes (never exceptionally) when it was answered. */
    private CompletableFuture<Void> round = CompletableFuture.completedFuture(null);

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
     * Starts a round that commits the offsets the brokers do not hold yet, unless the previous round is still in
     * flight: then that round is returned and nothing is sent.
     */
    public synchronized CompletableFuture<Void> commitAll() {
        if (!round.isDone()) {
            return round;
        }
        round = quiet(sendCommits(false));
        return round;
    }

    /**
     * Commits every offset, held or not, once every earlier round was answered: the last commit of a consumer.
     * Completes when the brokers answered (exceptionally if one of them failed).
     */
    public synchronized CompletableFuture<Void> commitEverything() {
        CompletableFuture<Void> last = round.thenCompose(ignored -> sendCommits(true));
        round = quiet(last);
        return last;
    }

    /** Forgets {@code queue} and commits its offset after the rounds already started. */
    public synchronized CompletableFuture<Void> commitAndRemove(MessageQueue queue) {
        Long offset = offsets.remove(queue);
        held.remove(queue);
        if (offset == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = round.thenCompose(ignored -> committer.commit(queue, offset));
        round = quiet(done);
        return done;
    }

    /** Commits every offset ({@code everything}) or those the brokers do not hold; completes with the answers. */
    private CompletableFuture<Void> sendCommits(boolean everything) {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (Map.Entry<MessageQueue, Long> entry : offsets.entrySet()) {
            MessageQueue queue = entry.getKey();
            long offset = entry.getValue();
            if (everything || !Long.valueOf(offset).equals(held.get(queue))) {
                commits.add(committer.commit(queue, offset).thenRun(() -> held.put(queue, offset)));
            }
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /** {@code future} with its failure dropped: a failed commit is sent again by the next round. */
    private static CompletableFuture<Void> quiet(CompletableFuture<Void> future) {
        return future.handle((ignored, error) -> null);
    }
}
