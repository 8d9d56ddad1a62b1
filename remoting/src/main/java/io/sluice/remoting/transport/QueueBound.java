package io.sluice.remoting.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A limit on the requests that wait for their lane or executor, shared by every code registered with it
 * ({@link HandlerOptions#withQueueBound}). A request counts from the moment it is queued until its handler starts;
 * one that arrives while {@code capacity} are waiting is not queued but answered SYSTEM_BUSY at once, the answer
 * Apache RocketMQ brokers give when a processor's queue is full (Apache's 5.3 producer retries such a synchronous
 * send, on another broker when there is one; its consumers pull again after a pause). A oneway request is dropped
 * the same way, unanswered. Thread-safe: I/O threads enter, handler threads leave.
 */
public final class QueueBound {
    private final String name;
    private final int capacity;
    private final AtomicInteger waiting = new AtomicInteger();

    /**
     * @param name     what waits here, for the SYSTEM_BUSY remark ("pull", "send")
     * @param capacity requests that may wait at once
     * @throws IllegalArgumentException when {@code capacity} is not positive
     */
    public QueueBound(String name, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("the " + name + " queue capacity must be positive, was " + capacity);
        }
        this.name = name;
        this.capacity = capacity;
    }

    /** Takes a place for one request; false, taking nothing, when {@code capacity} are waiting. */
    boolean tryEnter() {
        while (true) {
            int now = waiting.get();
            if (now >= capacity) {
                return false;
            }
            if (waiting.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Gives back the place of a request whose handler started (or that was never queued after all). */
    void leave() {
        waiting.decrementAndGet();
    }

    /** Requests waiting now. */
    public int waiting() {
        return waiting.get();
    }

    public int capacity() {
        return capacity;
    }

    /** The remark of the SYSTEM_BUSY answer to a request that found the queue full. */
    String busyRemark(int code) {
        return "[OVERLOAD] system busy: " + capacity + " " + name + " requests are waiting already (request code "
                + code + " not queued), try again later";
    }

    @Override
    public String toString() {
        return "QueueBound[" + name + ", " + waiting.get() + " of " + capacity + " waiting]";
    }
}
