package io.sluice.client.internal;

import io.sluice.client.OrderlyListener;
import io.sluice.client.OrderlyStatus;
import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link OrderlyListener}: each queue is consumed by one task at a time, in offset order, and only while
 * this consumer holds the queue's lock on the broker (LOCK_BATCH_MQ, renewed every {@code lockRenewIntervalMs};
 * released with UNLOCK_BATCH_MQ when the queue goes away). A suspended batch is offered again after
 * {@code suspendMs}; after {@code maxReconsumeTimes} suspensions it is sent to the dead-letter topic and the queue
 * moves on. Thread-safe; a queue's consume task is guarded by {@link ProcessQueue#consuming}.
 */
public final class OrderlyDispatch implements ConsumeDispatch {
    private static final Logger LOG = LoggerFactory.getLogger(OrderlyDispatch.class);
    /** A consume task yields its thread after this long, so one busy queue cannot hold a thread forever. */
    private static final long TASK_SLICE_MS = 1000;

    private final OrderlyListener listener;
    private final ExecutorService consumers;
    private final ScheduledExecutorService timer;
    private final ConsumerRpc rpc;
    private final OffsetStore offsets;
    private final int batchSize;
    private final int maxReconsumeTimes;
    private final long suspendMs;
    private final long rpcTimeoutMs;
    private final Set<ProcessQueue> queues = ConcurrentHashMap.newKeySet();

    public OrderlyDispatch(OrderlyListener listener, ExecutorService consumers, ScheduledExecutorService timer,
                           ConsumerRpc rpc, OffsetStore offsets, int batchSize, int maxReconsumeTimes, long suspendMs,
                           long lockRenewIntervalMs, long rpcTimeoutMs) {
        this.listener = listener;
        this.consumers = consumers;
        this.timer = timer;
        this.rpc = rpc;
        this.offsets = offsets;
        this.batchSize = batchSize;
        this.maxReconsumeTimes = maxReconsumeTimes;
        this.suspendMs = suspendMs;
        this.rpcTimeoutMs = rpcTimeoutMs;
        timer.scheduleWithFixedDelay(() -> execute(ClientRuntime.guard("lock renewal", this::renewLocks)),
                lockRenewIntervalMs, lockRenewIntervalMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void onAdded(ProcessQueue queue) {
        queues.add(queue);
        lock(Set.of(queue));
    }

    @Override
    public boolean mayPull(ProcessQueue queue) {
        return queue.isLocked();
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        schedule(queue, 0);
    }

    @Override
    public void onRemoved(ProcessQueue queue) {
        queues.remove(queue);
        queue.setLocked(false);
        rpc.addressOf(queue.queue()).thenCompose(address -> rpc.unlock(address, Set.of(queue.queue())))
                .exceptionally(error -> null);
    }

    @Override
    public void close() {
        consumers.shutdown();
        try {
            consumers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumers.shutdownNow();
        for (ProcessQueue queue : queues) {
            onRemoved(queue);
        }
    }

    private void renewLocks() {
        lock(Set.copyOf(queues));
    }

    /** Locks {@code wanted} on their brokers, waiting for the answers; queues not granted stop being consumed. */
    private void lock(Set<ProcessQueue> wanted) {
        Map<String, Set<ProcessQueue>> byAddress = new HashMap<>();
        for (ProcessQueue queue : wanted) {
            try {
                String address = Rpc.await(rpc.addressOf(queue.queue()), rpcTimeoutMs, "address");
                byAddress.computeIfAbsent(address, a -> new HashSet<>()).add(queue);
            } catch (RuntimeException e) {
                queue.setLocked(false);
            }
        }
        byAddress.forEach((address, group) -> {
            Set<MessageQueue> asked = new HashSet<>();
            group.forEach(queue -> asked.add(queue.queue()));
            Set<MessageQueue> granted;
            try {
                granted = Rpc.await(rpc.lock(address, asked), rpcTimeoutMs + 1000, "lock");
            } catch (RuntimeException e) {
                LOG.debug("locking {} queues at {} failed: {}", asked.size(), address, e.toString());
                granted = Set.of();
            }
            for (ProcessQueue queue : group) {
                boolean held = granted.contains(queue.queue());
                boolean was = queue.isLocked();
                queue.setLocked(held);
                if (held && !was) {
                    schedule(queue, 0);
                }
            }
        });
    }

    private void schedule(ProcessQueue queue, long delayMs) {
        if (!queue.consuming.compareAndSet(false, true)) {
            return;
        }
        Runnable task = () -> execute(() -> consume(queue));
        try {
            if (delayMs == 0) {
                task.run();
            } else {
                timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
            }
        } catch (RejectedExecutionException closed) {
            queue.consuming.set(false);
        }
    }

    private void execute(Runnable task) {
        try {
            consumers.execute(task);
        } catch (RejectedExecutionException closed) {
            LOG.debug("consumer closed");
        }
    }

    private void consume(ProcessQueue queue) {
        long sliceEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TASK_SLICE_MS);
        long retryInMs = -1;
        try {
            while (!queue.isDropped() && queue.isLocked() && System.nanoTime() - sliceEnd < 0) {
                List<ReceivedMessage> batch = queue.take(batchSize);
                if (batch.isEmpty()) {
                    break;
                }
                OrderlyStatus status;
                try {
                    status = listener.consume(batch);
                } catch (RuntimeException e) {
                    LOG.warn("orderly listener failed on {}: {}", queue.queue(), e.toString());
                    status = OrderlyStatus.SUSPEND;
                }
                if (status == OrderlyStatus.SUCCESS || queue.suspendTaken() > maxReconsumeTimes && deadLetter(queue,
                        batch)) {
                    long offset = queue.commitTaken();
                    if (!queue.isDropped()) {
                        offsets.advance(queue.queue(), offset);
                    }
                } else {
                    queue.rollbackTaken();
                    retryInMs = suspendMs;
                    break;
                }
            }
        } finally {
            queue.consuming.set(false);
        }
        if (retryInMs > 0) {
            schedule(queue, retryInMs);
        } else if (!queue.isEmpty() && queue.isLocked() && !queue.isDropped()) {
            schedule(queue, 0);
        }
    }

    /** Sends a batch suspended too often to the dead-letter topic; true when every message went. */
    private boolean deadLetter(ProcessQueue queue, List<ReceivedMessage> batch) {
        try {
            for (ReceivedMessage message : batch) {
                Rpc.await(rpc.sendBack(queue.queue(), message, -1, maxReconsumeTimes), rpcTimeoutMs + 1000,
                        "dead-letter send-back");
            }
            return true;
        } catch (RuntimeException e) {
            LOG.warn("dead-lettering a batch of {} failed: {}", queue.queue(), e.toString());
            return false;
        }
    }
}
