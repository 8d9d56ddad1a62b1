package io.sluice.client.internal;

import io.sluice.client.ReceivedMessage;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The messages of one assigned queue that the push consumer pulled and has not finished consuming, in offset order,
 * with their count and body bytes (for flow control) and the offset to commit.
 *
 * <p>Thread-safe: every method holds this object's monitor. Concurrent consumption removes messages as they finish;
 * orderly consumption {@link #take}s a batch, then {@link #commitTaken()}s or {@link #rollbackTaken()}s it.
 */
public final class ProcessQueue {
    private final MessageQueue queue;
    private final TreeMap<Long, ReceivedMessage> waiting = new TreeMap<>();
    private final TreeMap<Long, ReceivedMessage> taken = new TreeMap<>();
    private long bodyBytes;
    private long highestOffset = -1;
    private volatile boolean dropped;
    private volatile boolean locked;
    /** Orderly consumption: set while a consume task for this queue is queued or running. */
    final AtomicBoolean consuming = new AtomicBoolean();
    /** Orderly consumption: local redeliveries per offset. */
    final Map<Long, Integer> suspends = new TreeMap<>();

    public ProcessQueue(MessageQueue queue) {
        this.queue = queue;
    }

    public MessageQueue queue() {
        return queue;
    }

    /** True once the queue was taken away from this consumer; its results no longer move offsets. */
    public boolean isDropped() {
        return dropped;
    }

    public void drop() {
        dropped = true;
    }

    /** Orderly consumption: whether this consumer holds the queue's broker lock. */
    public boolean isLocked() {
        return locked;
    }

    public void setLocked(boolean value) {
        locked = value;
    }

    /** Adds pulled messages. */
    public synchronized void add(List<ReceivedMessage> messages) {
        for (ReceivedMessage message : messages) {
            if (waiting.put(message.queueOffset(), message) == null) {
                bodyBytes += message.body().length;
            }
            highestOffset = Math.max(highestOffset, message.queueOffset());
        }
    }

    /** Messages pulled and not finished (taken ones included). */
    public synchronized int count() {
        return waiting.size() + taken.size();
    }

    /** Body bytes of the messages pulled and not finished. */
    public synchronized long bodyBytes() {
        return bodyBytes;
    }

    /** True when no message is waiting or being consumed. */
    public synchronized boolean isEmpty() {
        return waiting.isEmpty() && taken.isEmpty();
    }

    /**
     * Concurrent consumption: removes finished messages and returns the offset to commit: the smallest offset still
     * waiting, or one past the highest offset pulled.
     */
    public synchronized long remove(List<ReceivedMessage> finished) {
        for (ReceivedMessage message : finished) {
            if (waiting.remove(message.queueOffset()) != null) {
                bodyBytes -= message.body().length;
            }
        }
        return waiting.isEmpty() ? highestOffset + 1 : waiting.firstKey();
    }

    /** Orderly consumption: takes up to {@code max} messages in offset order (fewer, or none, when fewer wait). */
    public synchronized List<ReceivedMessage> take(int max) {
        List<ReceivedMessage> batch = new ArrayList<>(Math.min(max, waiting.size()));
        while (batch.size() < max && !waiting.isEmpty()) {
            Map.Entry<Long, ReceivedMessage> first = waiting.pollFirstEntry();
            taken.put(first.getKey(), first.getValue());
            batch.add(first.getValue());
        }
        return batch;
    }

    /** Orderly consumption: the taken messages are done; returns the offset to commit (one past them). */
    public synchronized long commitTaken() {
        long next = taken.isEmpty() ? -1 : taken.lastKey() + 1;
        for (ReceivedMessage message : taken.values()) {
            bodyBytes -= message.body().length;
            suspends.remove(message.queueOffset());
        }
        taken.clear();
        return next;
    }

    /** Orderly consumption: the taken messages go back to be offered again. */
    public synchronized void rollbackTaken() {
        waiting.putAll(taken);
        taken.clear();
    }

    /** Orderly consumption: counts one more local redelivery of the taken batch; returns the highest count. */
    public synchronized int suspendTaken() {
        int most = 0;
        for (Long offset : taken.keySet()) {
            most = Math.max(most, suspends.merge(offset, 1, Integer::sum));
        }
        return most;
    }
}
