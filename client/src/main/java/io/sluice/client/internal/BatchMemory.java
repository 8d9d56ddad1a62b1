package io.sluice.client.internal;

import io.sluice.client.BatchMemoryFullException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bound on bytes held by auto-batching: every message reserves its encoded size before it joins a batch and
 * its batch gives the bytes back once, when it completes or fails.
 *
 * <p>Thread-safe. Reserving and releasing are lock-free compare-and-set on {@link #heldBytes()}; only senders
 * that must wait take {@link #lock}, and a release signals them only when somebody waits. A waiter registers in
 * {@code waiters} before its final check, and a releaser reads {@code waiters} after giving bytes back, so either
 * the waiter sees the bytes or the releaser sees the waiter.
 */
public final class BatchMemory {
    private final long limitBytes;
    private final AtomicLong held = new AtomicLong();
    private final AtomicInteger waiters = new AtomicInteger();
    /** Held by waiting senders and by releasers while they signal. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();

    /** @param limitBytes the most bytes that may be held at once */
    public BatchMemory(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("limitBytes must be positive, was " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** The bytes currently held. */
    public long heldBytes() {
        return held.get();
    }

    /** The bound. */
    public long limitBytes() {
        return limitBytes;
    }

    /** Reserves {@code bytes} if they fit now; false otherwise. */
    public boolean tryReserve(long bytes) {
        while (true) {
            long current = held.get();
            if (current + bytes > limitBytes) {
                return false;
            }
            if (held.compareAndSet(current, current + bytes)) {
                return true;
            }
        }
    }

    /**
     * Reserves {@code bytes}, waiting up to {@code timeoutNanos} for other batches to give memory back.
     *
     * @throws BatchMemoryFullException naming the amounts when the bytes can never fit, or did not fit in time
     * @throws InterruptedException when interrupted while waiting
     */
    public void reserve(long bytes, long timeoutNanos) throws InterruptedException {
        if (bytes > limitBytes) {
            throw new BatchMemoryFullException("a message of " + bytes + " bytes exceeds totalBatchMaxBytes "
                    + limitBytes);
        }
        if (tryReserve(bytes)) {
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        lock.lock();
        waiters.incrementAndGet();
        try {
            while (!tryReserve(bytes)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw full(bytes, TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                }
                released.awaitNanos(left);
            }
        } finally {
            waiters.decrementAndGet();
            lock.unlock();
        }
    }

    /** Reserves {@code bytes} now or fails at once. @throws BatchMemoryFullException naming the amounts */
    public void reserveOrFail(long bytes) {
        if (!tryReserve(bytes)) {
            throw full(bytes, "no wait (failWhenBatchMemoryFull)");
        }
    }

    /** Gives {@code bytes} back and wakes waiting senders. */
    public void release(long bytes) {
        long after = held.addAndGet(-bytes);
        if (after < 0) {
            throw new IllegalStateException("released " + bytes + " bytes more than held (now " + after + ")");
        }
        if (waiters.get() > 0) {
            lock.lock();
            try {
                released.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private BatchMemoryFullException full(long bytes, String waited) {
        return new BatchMemoryFullException("auto-batch memory full: " + held.get() + " of totalBatchMaxBytes "
                + limitBytes + " held, " + bytes + " more needed, waited " + waited);
    }
}
