package io.sluice.store.log;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The next queue offset of every (topic, queueId): assigned to a record and advanced in the same critical
 * section as the record's append, so offsets per queue are dense and grow in CommitLog order.
 *
 * <p>Thread-safety: reads ({@link #nextOffset}) are lock-free from any thread. Every change is made while
 * holding the CommitLog's append lock: appends already hold it; {@link #set}, {@link #remove} and
 * {@link #clear} acquire it themselves, so recovery and administration cannot interleave with an append.
 */
public final class QueueOffsetTable {

    /** Highest queue id accepted. */
    public static final int MAX_QUEUE_ID = 65_535;

    private final ReentrantLock appendLock;
    private final ConcurrentHashMap<String, QueueOffsets> topics = new ConcurrentHashMap<>();

    QueueOffsetTable(ReentrantLock appendLock) {
        this.appendLock = Objects.requireNonNull(appendLock, "appendLock");
    }

    /** The offset the next message of this queue will get; 0 for a queue never written. */
    public long nextOffset(String topic, int queueId) {
        QueueOffsets q = topics.get(topic);
        return q == null ? 0 : q.get(queueId);
    }

    /**
     * Sets a queue's next offset, e.g. from the consume queue's max offset after recovery.
     *
     * @throws IllegalArgumentException naming the value when the queue id or offset is out of range
     */
    public void set(String topic, int queueId, long nextOffset) {
        checkQueueId(queueId);
        if (nextOffset < 0) {
            throw new IllegalArgumentException("nextOffset must be >= 0, was " + nextOffset);
        }
        appendLock.lock();
        try {
            queues(topic).set(queueId, nextOffset);
        } finally {
            appendLock.unlock();
        }
    }

    /** Forgets every queue of a topic (topic deleted). */
    public void remove(String topic) {
        appendLock.lock();
        try {
            topics.remove(topic);
        } finally {
            appendLock.unlock();
        }
    }

    /** Forgets every queue. */
    public void clear() {
        appendLock.lock();
        try {
            topics.clear();
        } finally {
            appendLock.unlock();
        }
    }

    /** A sorted copy: {@code "topic-queueId"} to next offset, queues at 0 omitted. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        topics.forEach((topic, q) -> {
            AtomicLongArray a = q.offsets;
            for (int i = 0; i < a.length(); i++) {
                long v = a.get(i);
                if (v != 0) {
                    out.put(topic + '-' + i, v);
                }
            }
        });
        return out;
    }

    /** Append path (lock held): the offset to assign. */
    long assign(String topic, int queueId) {
        return nextOffset(topic, queueId);
    }

    /** Append path (lock held): the queue now continues at {@code nextOffset}. */
    void advance(String topic, int queueId, long nextOffset) {
        queues(topic).set(queueId, nextOffset);
    }

    /** Recovery (lock held): raises the queue's next offset to at least {@code nextOffset}. */
    void advanceTo(String topic, int queueId, long nextOffset) {
        QueueOffsets q = queues(topic);
        if (q.get(queueId) < nextOffset) {
            q.set(queueId, nextOffset);
        }
    }

    private QueueOffsets queues(String topic) {
        return topics.computeIfAbsent(topic, t -> new QueueOffsets());
    }

    private static void checkQueueId(int queueId) {
        if (queueId < 0 || queueId > MAX_QUEUE_ID) {
            throw new IllegalArgumentException("queueId must be in [0, " + MAX_QUEUE_ID + "], was " + queueId);
        }
    }

    /** One topic's queues; grown (copied) by the lock holder when a higher queue id appears. */
    private static final class QueueOffsets {
        private volatile AtomicLongArray offsets = new AtomicLongArray(8);

        long get(int queueId) {
            AtomicLongArray a = offsets;
            return queueId < a.length() ? a.get(queueId) : 0;
        }

        void set(int queueId, long value) {
            AtomicLongArray a = offsets;
            if (queueId >= a.length()) {
                AtomicLongArray grown = new AtomicLongArray(Math.max(queueId + 1, a.length() * 2));
                for (int i = 0; i < a.length(); i++) {
                    grown.set(i, a.get(i));
                }
                offsets = grown;
                a = grown;
            }
            // Release store: a reader that sees the new offset also sees the record appended before it.
            a.lazySet(queueId, value);
        }
    }
}
