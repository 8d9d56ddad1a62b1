package io.sluice.client.internal;

import io.sluice.client.ConsumeFrom;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pull side of the push consumer (docs/wire-protocol.md#pull-chain): one chain of long-polling pulls per assigned
 * queue, each pull's messages handed to the {@link ConsumeDispatch}. A queue is not pulled while its unfinished
 * messages exceed the count or byte threshold (flow control), nor, for orderly consumption, while it is not locked.
 * Pulls carry no COMMIT_OFFSET: offsets reach the broker only through {@link OffsetStore}'s rounds, whose order the
 * broker cannot mix up with a pull's.
 *
 * <p>Thread-safe. Assignments change on the rebalance thread; pulls start on the client timer thread and finish on
 * I/O threads; each queue's chain has at most one pull in flight.
 */
public final class PushPuller {
    private static final Logger LOG = LoggerFactory.getLogger(PushPuller.class);
    private static final long FLOW_CONTROL_DELAY_MS = 50;
    private static final long NOT_LOCKED_DELAY_MS = 100;
    private static final long ERROR_DELAY_MS = 1000;

    private final ClientRuntime runtime;
    private final ConsumerRpc rpc;
    private final OffsetStore offsets;
    private final ConsumeDispatch dispatch;
    private final Map<String, TagExpression> filters;
    private final int pullBatchSize;
    private final int thresholdCount;
    private final long thresholdBytes;
    private final long suspendMs;
    private final ConsumeFrom consumeFrom;
    private final long consumeTimestampMs;
    private final ConcurrentHashMap<MessageQueue, ProcessQueue> queues = new ConcurrentHashMap<>();
    private final LongAdder flowControlled = new LongAdder();
    private volatile boolean closed;

    /** @param filters tag filter per topic (the retry topic has none: {@code *}) */
    public PushPuller(ClientRuntime runtime, ConsumerRpc rpc, OffsetStore offsets, ConsumeDispatch dispatch,
                     Map<String, TagExpression> filters, int pullBatchSize, int thresholdCount, long thresholdBytes,
                     long suspendMs, ConsumeFrom consumeFrom, long consumeTimestampMs) {
        this.runtime = runtime;
        this.rpc = rpc;
        this.offsets = offsets;
        this.dispatch = dispatch;
        this.filters = filters;
        this.pullBatchSize = pullBatchSize;
        this.thresholdCount = thresholdCount;
        this.thresholdBytes = thresholdBytes;
        this.suspendMs = suspendMs;
        this.consumeFrom = consumeFrom;
        this.consumeTimestampMs = consumeTimestampMs;
    }

    /** The assigned queues. */
    public Set<MessageQueue> assignment() {
        return Set.copyOf(queues.keySet());
    }

    /** How often a pull was put off by flow control. */
    public long flowControlled() {
        return flowControlled.sum();
    }

    /** Makes {@code wanted} the queues of {@code topic}; called on the rebalance thread. */
    public void onAssignment(String topic, List<MessageQueue> wanted) {
        Set<MessageQueue> keep = new HashSet<>(wanted);
        for (ProcessQueue queue : new ArrayList<>(queues.values())) {
            if (queue.queue().topic().equals(topic) && !keep.contains(queue.queue())) {
                queue.drop();
                queues.remove(queue.queue(), queue);
                offsets.commitAndRemove(queue.queue());
                dispatch.onRemoved(queue);
            }
        }
        long timeoutMs = runtime.settings().rpcTimeoutMs() + 1000;
        // All start offsets are asked for at once: one round trip each, one after another, made a 10,000-queue
        // assignment take seconds.
        Map<MessageQueue, CompletableFuture<Long>> starts = new LinkedHashMap<>();
        for (MessageQueue queue : wanted) {
            if (!queues.containsKey(queue) && !closed) {
                CompletableFuture<Long> start;
                try {
                    start = rpc.startOffset(queue, consumeFrom, consumeTimestampMs);
                } catch (RuntimeException e) {
                    start = CompletableFuture.failedFuture(e);
                }
                starts.put(queue, start);
            }
        }
        for (Map.Entry<MessageQueue, CompletableFuture<Long>> entry : starts.entrySet()) {
            MessageQueue queue = entry.getKey();
            if (closed) {
                break;
            }
            long start;
            try {
                start = Rpc.await(entry.getValue(), timeoutMs, "start offset of " + queue);
            } catch (RuntimeException e) {
                LOG.warn("skipping {} this round: {}", queue, e.getMessage());
                continue;
            }
            ProcessQueue fresh = new ProcessQueue(queue);
            offsets.reset(queue, start);
            queues.put(queue, fresh);
            dispatch.onAdded(fresh);
            schedule(fresh, start, 0);
        }
    }

    /**
     * Stops pulling; the assigned queues stay live, so listener calls still running can finish and move their
     * queue's offset. Call {@link #close()} once the dispatch has drained.
     */
    public void stopPulling() {
        closed = true;
    }

    /** Stops pulling and drops every queue: from now on no consumed message moves an offset. */
    public void close() {
        closed = true;
        queues.values().forEach(ProcessQueue::drop);
    }

    private void schedule(ProcessQueue queue, long offset, long delayMs) {
        if (closed || queue.isDropped()) {
            return;
        }
        try {
            runtime.timer().schedule(() -> pull(queue, offset), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            LOG.debug("timer stopped; no more pulls of {}", queue.queue());
        }
    }

    private void pull(ProcessQueue queue, long offset) {
        if (closed || queue.isDropped()) {
            return;
        }
        if (queue.count() > thresholdCount || queue.bodyBytes() > thresholdBytes) {
            flowControlled.increment();
            schedule(queue, offset, FLOW_CONTROL_DELAY_MS);
            return;
        }
        if (!dispatch.mayPull(queue)) {
            schedule(queue, offset, NOT_LOCKED_DELAY_MS);
            return;
        }
        int flags = ConsumerRpc.FLAG_SUSPEND | ConsumerRpc.FLAG_SUBSCRIPTION;
        TagExpression filter = filters.getOrDefault(queue.queue().topic(), TagExpression.parse("*"));
        CompletableFuture<PullResult> pulling;
        try {
            pulling = rpc.pull(queue.queue(), offset, pullBatchSize, filter, flags, 0, suspendMs, false);
        } catch (RuntimeException e) {
            schedule(queue, offset, ERROR_DELAY_MS);
            return;
        }
        pulling.whenComplete((result, error) -> {
            if (error != null) {
                LOG.debug("pull of {} failed: {}", queue.queue(), Rpc.unwrap(error).toString());
                schedule(queue, offset, ERROR_DELAY_MS);
                return;
            }
            onPulled(queue, result);
        });
    }

    private void onPulled(ProcessQueue queue, PullResult result) {
        if (queue.isDropped()) {
            return;
        }
        long next = result.nextBeginOffset();
        switch (result.status()) {
            case FOUND -> {
                if (result.messages().isEmpty()) {
                    if (queue.isEmpty()) {
                        offsets.advance(queue.queue(), next);
                    }
                } else {
                    queue.add(result.messages());
                    dispatch.submit(queue, result.messages());
                }
            }
            case NO_NEW_MSG, NO_MATCHED_MSG -> {
                if (queue.isEmpty()) {
                    offsets.advance(queue.queue(), next);
                }
            }
            case OFFSET_ILLEGAL -> {
                LOG.warn("offset of {} is outside the queue; continuing at {}", queue.queue(), next);
                offsets.reset(queue.queue(), next);
                offsets.commitAll();
            }
            default -> throw new IllegalStateException("unknown pull status " + result.status());
        }
        schedule(queue, next, 0);
    }
}
