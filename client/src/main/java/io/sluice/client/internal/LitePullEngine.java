package io.sluice.client.internal;

import io.sluice.client.ConsumeFrom;
import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine of the lite pull consumer: one chain of long-polling pulls per assigned queue fills a buffer that
 * {@link #poll} drains, batch by batch.
 *
 * <p>Each queue has a {@link QueueState} whose {@code generation} changes on every seek and unassignment; a pull or
 * a buffered batch of an older generation is discarded, so a seek takes effect at once (a new pull starts
 * immediately, the stale one is ignored when it returns). Pulls pause while {@code pullThreshold} messages wait in
 * the buffer.
 *
 * <p>Thread-safe. A queue's first pull, retries and threshold re-checks start on the client timer thread, every
 * other pull on the I/O thread that received the previous result; results arrive on I/O threads; each
 * {@link QueueState} is guarded by its own monitor. {@link #poll} is meant for one thread at a time.
 */
public final class LitePullEngine {
    private static final Logger LOG = LoggerFactory.getLogger(LitePullEngine.class);
    private static final long RETRY_DELAY_MS = 1000;
    private static final long THRESHOLD_RECHECK_MS = 20;

    private final ClientRuntime runtime;
    private final ConsumerRpc rpc;
    private final int pullBatchSize;
    private final int pullThreshold;
    private final long suspendMs;
    private final ConsumeFrom consumeFrom;
    private final long consumeTimestampMs;
    private final ConcurrentHashMap<MessageQueue, QueueState> queues = new ConcurrentHashMap<>();
    private final Map<String, TagExpression> filters = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Pulled> buffer = new LinkedBlockingQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private volatile boolean closed;

    public LitePullEngine(ClientRuntime runtime, ConsumerRpc rpc, int pullBatchSize, int pullThreshold,
                         long suspendMs, ConsumeFrom consumeFrom, long consumeTimestampMs) {
        this.runtime = runtime;
        this.rpc = rpc;
        this.pullBatchSize = pullBatchSize;
        this.pullThreshold = pullThreshold;
        this.suspendMs = suspendMs;
        this.consumeFrom = consumeFrom;
        this.consumeTimestampMs = consumeTimestampMs;
    }

    /** Sets the tag filter of {@code topic} (default {@code *}). */
    public void filter(String topic, TagExpression expression) {
        filters.put(topic, expression);
    }

    /** The queues currently assigned. */
    public Set<MessageQueue> assignment() {
        return Set.copyOf(queues.keySet());
    }

    /** Whether {@code queue} is assigned; O(1), unlike a look into {@link #assignment()}. */
    public boolean isAssigned(MessageQueue queue) {
        return queues.containsKey(queue);
    }

    /**
     * Makes {@code wanted} the assigned queues of {@code topic} (all topics when null): new queues start at their
     * committed offset (or per {@code consumeFrom}), removed ones commit their consumed offset and stop.
     */
    public void assign(String topic, Collection<MessageQueue> wanted) {
        Set<MessageQueue> keep = wanted instanceof Set<MessageQueue> set ? set : new HashSet<>(wanted);
        for (QueueState state : new ArrayList<>(queues.values())) {
            if ((topic == null || state.queue.topic().equals(topic)) && !keep.contains(state.queue)) {
                drop(state);
            }
        }
        for (MessageQueue queue : wanted) {
            QueueState fresh = new QueueState(queue);
            if (queues.putIfAbsent(queue, fresh) == null) {
                rpc.startOffset(queue, consumeFrom, consumeTimestampMs).whenComplete((offset, error) -> {
                    if (error != null) {
                        LOG.warn("no start offset for {}: {}", queue, Rpc.unwrap(error).getMessage());
                        queues.remove(queue, fresh);
                        return;
                    }
                    boolean start = false;
                    int generation;
                    synchronized (fresh) {
                        if (fresh.pullOffset < 0 && !fresh.dropped) {
                            fresh.pullOffset = offset;
                            start = true;
                        }
                        generation = fresh.generation;
                    }
                    if (start) {
                        schedule(fresh, generation, 0);
                    }
                });
            }
        }
    }

    /** Moves {@code queue} to {@code offset}: buffered messages are dropped and pulling restarts there. */
    public void seek(MessageQueue queue, long offset) {
        QueueState state = queues.get(queue);
        if (state == null) {
            throw new IllegalStateException(queue + " is not assigned");
        }
        int generation;
        synchronized (state) {
            generation = ++state.generation;
            state.pullOffset = offset;
            state.consumedOffset = offset;
        }
        purge(state, generation);
        schedule(state, generation, 0);
    }

    /**
     * Waits up to {@code timeoutMs} for pulled messages and returns one pulled batch (messages of one queue, in
     * offset order), or an empty list; the queue's consumed offset moves past the batch.
     */
    public List<ReceivedMessage> poll(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!closed) {
            long left = deadline - System.nanoTime();
            Pulled pulled = left > 0 ? buffer.poll(left, TimeUnit.NANOSECONDS) : buffer.poll();
            if (pulled == null) {
                return List.of();
            }
            buffered.addAndGet(-pulled.messages.size());
            synchronized (pulled.state) {
                if (pulled.generation != pulled.state.generation || pulled.state.dropped) {
                    continue;
                }
                pulled.state.consumedOffset = pulled.messages.get(pulled.messages.size() - 1).queueOffset() + 1;
            }
            return pulled.messages;
        }
        return List.of();
    }

    /** The consumed offset (next offset to consume) of every assigned queue that has one. */
    public Map<MessageQueue, Long> consumedOffsets() {
        Map<MessageQueue, Long> offsets = new HashMap<>();
        for (QueueState state : queues.values()) {
            synchronized (state) {
                if (state.consumedOffset >= 0) {
                    offsets.put(state.queue, state.consumedOffset);
                }
            }
        }
        return offsets;
    }

    /** Commits every consumed offset that changed since its last commit. */
    public CompletableFuture<Void> commitConsumed(boolean oneway) {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (QueueState state : queues.values()) {
            long offset;
            synchronized (state) {
                offset = state.consumedOffset;
                if (offset < 0 || offset == state.committedOffset) {
                    continue;
                }
            }
            commits.add(rpc.commitOffset(state.queue, offset, oneway).thenRun(() -> {
                synchronized (state) {
                    state.committedOffset = offset;
                }
            }));
        }
        return CompletableFuture.allOf(commits.toArray(CompletableFuture[]::new));
    }

    /** Stops pulling; buffered messages are dropped. */
    public void close() {
        closed = true;
        queues.values().forEach(state -> {
            synchronized (state) {
                state.dropped = true;
                state.generation++;
            }
        });
        buffer.clear();
    }

    private void drop(QueueState state) {
        long offset;
        synchronized (state) {
            state.dropped = true;
            state.generation++;
            offset = state.consumedOffset;
        }
        queues.remove(state.queue, state);
        purge(state, -1);
        if (offset >= 0) {
            rpc.commitOffset(state.queue, offset, true);
        }
    }

    private void purge(QueueState state, int keepGeneration) {
        buffer.removeIf(pulled -> {
            boolean stale = pulled.state == state && pulled.generation != keepGeneration;
            if (stale) {
                buffered.addAndGet(-pulled.messages.size());
            }
            return stale;
        });
    }

    private void schedule(QueueState state, int generation, long delayMs) {
        if (closed) {
            return;
        }
        try {
            runtime.timer().schedule(() -> pull(state, generation), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            LOG.debug("timer stopped; no more pulls of {}", state.queue);
        }
    }

    private void pull(QueueState state, int generation) {
        long offset;
        synchronized (state) {
            if (state.dropped || state.generation != generation || closed) {
                return;
            }
            offset = state.pullOffset;
        }
        if (buffered.get() >= pullThreshold) {
            schedule(state, generation, THRESHOLD_RECHECK_MS);
            return;
        }
        TagExpression filter = filters.getOrDefault(state.queue.topic(), TagExpression.parse("*"));
        int flags = ConsumerRpc.FLAG_SUSPEND | ConsumerRpc.FLAG_SUBSCRIPTION | ConsumerRpc.FLAG_LITE_PULL;
        CompletableFuture<PullResult> pulling;
        try {
            pulling = rpc.pull(state.queue, offset, pullBatchSize, filter, flags, 0, suspendMs, true);
        } catch (RuntimeException e) {
            LOG.debug("pull of {} failed: {}", state.queue, e.toString());
            schedule(state, generation, RETRY_DELAY_MS);
            return;
        }
        pulling.whenComplete((result, error) -> onPulled(state, generation, result, error));
    }

    private void onPulled(QueueState state, int generation, PullResult result, Throwable error) {
        synchronized (state) {
            if (state.dropped || state.generation != generation) {
                return;
            }
            if (error != null) {
                LOG.debug("pull of {} failed: {}", state.queue, Rpc.unwrap(error).toString());
            } else {
                state.pullOffset = result.nextBeginOffset();
                if (!result.messages().isEmpty()) {
                    buffered.addAndGet(result.messages().size());
                    buffer.add(new Pulled(state, generation, result.messages()));
                }
            }
        }
        if (error != null) {
            schedule(state, generation, RETRY_DELAY_MS);
        } else {
            // The next pull leaves from this I/O thread at once: a hop through the timer thread cost a wake-up
            // per pull. Sending is asynchronous, so this never blocks the I/O thread.
            pull(state, generation);
        }
    }

    /** Pull position of one assigned queue; guarded by its own monitor. */
    private static final class QueueState {
        final MessageQueue queue;
        long pullOffset = -1;
        long consumedOffset = -1;
        long committedOffset = -1;
        int generation;
        boolean dropped;

        QueueState(MessageQueue queue) {
            this.queue = queue;
        }
    }

    /** One pull's messages in the buffer. */
    private record Pulled(QueueState state, int generation, List<ReceivedMessage> messages) {
    }
}
