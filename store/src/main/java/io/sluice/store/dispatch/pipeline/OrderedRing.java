package io.sluice.store.dispatch.pipeline;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * "Unordered in, ordered out": a bounded ring indexed by sequence number. Producers {@link #offer} items in any
 * order; one consumer takes them strictly in sequence with {@link #awaitHead} and frees each with {@link #release}
 * (docs/dispatch.md#ordered-ring).
 *
 * <p>Item {@code seq} lives in slot {@code seq % capacity}; the consumer's slot stays occupied until
 * {@link #release} advances the head. An offer blocks only while {@code seq >= head + capacity}, so producers that
 * take their numbers in increasing order cannot deadlock: the lowest outstanding one is always inside the window. A
 * producer holding the head's number may handle its item and {@link #passHead} it while the consumer is idle.
 *
 * <p>Thread-safety: any number of producers, one consumer (or a producer passing the head, for that item). All slot
 * state is guarded by one {@link ReentrantLock}, held by whichever thread calls a method for a few field accesses,
 * once per item; handing an item over through it makes a producer's writes before {@code offer} visible after
 * {@code awaitHead}, and the consumer's before {@code release} visible to a later {@code offer} or
 * {@link #awaitWindow}. {@link #head()} may be read without it.
 *
 * @param <T> the item type
 */
final class OrderedRing<T> {

    private final int capacity;
    private final Object[] slots;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when the head moves: producers waiting for their window. */
    private final Condition windowMoved = lock.newCondition();
    /** Signalled when the head item arrives: the consumer. */
    private final Condition headArrived = lock.newCondition();
    /** Next sequence number for the consumer. Written under the lock by the consumer or by passHead; read by anyone. */
    private volatile long head;

    /**
     * @param capacity  slots, at least 1
     * @param firstSeq  the sequence number of the first item
     */
    OrderedRing(int capacity, long firstSeq) {
        if (capacity < 1) {
            throw new IllegalArgumentException("ring capacity must be >= 1, was " + capacity);
        }
        if (firstSeq < 0) {
            throw new IllegalArgumentException("first sequence number must be >= 0, was " + firstSeq);
        }
        this.capacity = capacity;
        this.slots = new Object[capacity];
        this.head = firstSeq;
    }

    int capacity() {
        return capacity;
    }

    /** The next sequence number the consumer will receive (lock-free read). */
    long head() {
        return head;
    }

    /**
     * Stores {@code item} under {@code seq}, first waiting while {@code seq >= head + capacity}.
     *
     * @return false if {@code timeoutNs} elapsed before the slot's window opened (nothing stored)
     * @throws IllegalStateException naming the value if {@code seq} was already released or is already stored
     * @throws InterruptedException  if interrupted while waiting
     */
    boolean offer(long seq, T item, long timeoutNs) throws InterruptedException {
        if (item == null) {
            throw new IllegalArgumentException("ring item for seq " + seq + " is null");
        }
        lock.lock();
        try {
            long remainingNs = timeoutNs;
            while (seq >= head + capacity) {
                if (remainingNs <= 0) {
                    return false;
                }
                remainingNs = windowMoved.awaitNanos(remainingNs);
            }
            if (seq < head) {
                throw new IllegalStateException("seq " + seq + " is below the ring head " + head
                        + ": already released");
            }
            int index = index(seq);
            if (slots[index] != null) {
                throw new IllegalStateException("seq " + seq + " is offered twice");
            }
            slots[index] = item;
            if (seq == head) {
                headArrived.signal();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code seq < head + capacity}: the caller may then offer {@code seq} without blocking.
     *
     * @return false if {@code timeoutNs} elapsed first
     * @throws InterruptedException if interrupted while waiting
     */
    boolean awaitWindow(long seq, long timeoutNs) throws InterruptedException {
        if (seq < head + capacity) {
            return true;
        }
        lock.lock();
        try {
            long remainingNs = timeoutNs;
            while (seq >= head + capacity) {
                if (remainingNs <= 0) {
                    return false;
                }
                remainingNs = windowMoved.awaitNanos(remainingNs);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Consumer only: the item whose sequence number is {@link #head()}, waiting up to {@code timeoutNs} for it.
     * The slot stays occupied until {@link #release}; calling again before that returns the same item.
     *
     * @return the head item, or {@code null} if it did not arrive in time
     * @throws InterruptedException if interrupted while waiting
     */
    @SuppressWarnings("unchecked")
    T awaitHead(long timeoutNs) throws InterruptedException {
        lock.lock();
        try {
            long remainingNs = timeoutNs;
            // The head is read again after every wait: a producer may have passed it meanwhile (passHead).
            while (slots[index(head)] == null) {
                if (remainingNs <= 0) {
                    return null;
                }
                remainingNs = headArrived.awaitNanos(remainingNs);
            }
            return (T) slots[index(head)];
        } finally {
            lock.unlock();
        }
    }

    /**
     * Consumer only: frees the head item's slot, advances the head and wakes waiting producers.
     *
     * @throws IllegalStateException if the head item has not arrived
     */
    void release() {
        lock.lock();
        try {
            int index = index(head);
            if (slots[index] == null) {
                throw new IllegalStateException("release of seq " + head + " which has not arrived");
            }
            slots[index] = null;
            head = head + 1;
            windowMoved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A producer holding the head's sequence number handles its item itself instead of offering it: the head moves
     * past {@code seq} as if the consumer had received and released it, and waiting producers wake. The consumer
     * never sees that item. While the head is at {@code seq} and the slot is empty the consumer has nothing to work
     * on, so the caller stands in for it: everything the consumer did before it released {@code seq - 1} is visible
     * to a caller that read {@link #head()} == seq, and everything the caller did before this call is visible to
     * the consumer once it receives {@code seq + 1}.
     *
     * @throws IllegalStateException naming the values if {@code seq} is not the head or its item was offered
     */
    void passHead(long seq) {
        lock.lock();
        try {
            if (seq != head) {
                throw new IllegalStateException("seq " + seq + " cannot pass the ring head " + head);
            }
            if (slots[index(seq)] != null) {
                throw new IllegalStateException("seq " + seq + " was offered; only the consumer may release it");
            }
            head = head + 1;
            windowMoved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting thread so that it re-checks its own stop condition (used at shutdown). */
    void wakeAll() {
        lock.lock();
        try {
            windowMoved.signalAll();
            headArrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private int index(long seq) {
        return (int) (seq % capacity);
    }
}
