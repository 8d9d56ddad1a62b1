package io.sluice.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Direct buffers for auto-batch bodies, used again once released. A batch body is written on the sending thread
 * and released on an I/O thread; Netty's pooled allocator keeps no per-thread cache for buffers of a batch's size
 * (above 32 KiB), so each one cost a locked allocation and a locked free in its arena, and a fresh buffer per batch
 * from the heap cost its zeroing and the collection of it. Here a released buffer goes back on a free list, as it
 * is (grown buffers keep their size, which later batches then need too).
 *
 * <p>What the list keeps is bounded by {@code retainBytes} (the producer's {@code totalBatchMaxBytes}): beyond it,
 * a released buffer is freed. A listed buffer more than {@link #OVERSIZE_FACTOR} times (and {@link
 * #OVERSIZE_MIN_BYTES}) larger than what is asked for is freed rather than lent, so the rare batch of a large
 * message does not leave buffers of its size in use by every batch after it.
 *
 * <p>A listed buffer has no reference, so a stale user fails Netty's reference-count checks; once lent again it is
 * a new buffer to its next user, and a stale reference would then go unnoticed (as with Netty's own pool).
 * Thread-safe: any thread takes, any thread releases.
 */
final class BatchBuffers {
    static final int OVERSIZE_FACTOR = 4;
    static final int OVERSIZE_MIN_BYTES = 256 * 1024;

    private final int maxBufferBytes;
    private final long retainBytes;
    private final ConcurrentLinkedQueue<Buffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicLong freeBytes = new AtomicLong();
    private final AtomicInteger inUse = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param maxBufferBytes no buffer grows past this (the broker's body limit)
     * @param retainBytes the most bytes the free list keeps
     */
    BatchBuffers(int maxBufferBytes, long retainBytes) {
        if (maxBufferBytes <= 0 || retainBytes < 0) {
            throw new IllegalArgumentException("maxBufferBytes must be positive and retainBytes not negative, were "
                    + maxBufferBytes + " and " + retainBytes);
        }
        this.maxBufferBytes = maxBufferBytes;
        this.retainBytes = retainBytes;
    }

    /**
     * An empty buffer with room for at least {@code minBytes} (clamped to the maximum), growable to the maximum;
     * the caller holds its one reference.
     */
    ByteBuf take(int minBytes) {
        int wanted = Math.max(1, Math.min(minBytes, maxBufferBytes));
        long oversizeBytes = Math.max((long) OVERSIZE_FACTOR * wanted, OVERSIZE_MIN_BYTES);
        inUse.incrementAndGet();
        for (Buffer buffer = pollFree(); buffer != null; buffer = pollFree()) {
            if (buffer.capacity() > oversizeBytes) {
                buffer.freeMemory();
                continue;
            }
            buffer.revive();
            buffer.ensureWritable(wanted);
            return buffer;
        }
        return new Buffer(this, wanted, maxBufferBytes);
    }

    /** Buffers taken and not yet released. */
    int inUse() {
        return inUse.get();
    }

    /** Bytes the free list holds. */
    long freeBytes() {
        return freeBytes.get();
    }

    /**
     * Frees what the free list holds; buffers released from now on are freed at once. Buffers still in use stay
     * usable. Idempotent.
     */
    void close() {
        closed = true;
        for (Buffer buffer = pollFree(); buffer != null; buffer = pollFree()) {
            buffer.freeMemory();
        }
    }

    /** A buffer off the free list, its bytes no longer counted there; null when the list is empty. */
    private Buffer pollFree() {
        Buffer buffer = free.poll();
        if (buffer != null) {
            freeBytes.addAndGet(-buffer.capacity());
        }
        return buffer;
    }

    /** For a buffer whose last reference went: whether the free list has room for its bytes (then counted). */
    private boolean roomFor(int capacity) {
        inUse.decrementAndGet();
        if (closed) {
            return false;
        }
        if (freeBytes.addAndGet(capacity) > retainBytes) {
            freeBytes.addAndGet(-capacity);
            return false;
        }
        return true;
    }

    /** A direct buffer that goes back to its pool when its last reference is released. */
    private static final class Buffer extends UnpooledUnsafeDirectByteBuf {
        private final BatchBuffers pool;

        Buffer(BatchBuffers pool, int initialBytes, int maxBytes) {
            super(UnpooledByteBufAllocator.DEFAULT, initialBytes, maxBytes);
            this.pool = pool;
        }

        @Override
        protected void deallocate() {
            if (!pool.roomFor(capacity())) {
                super.deallocate();
                return;
            }
            clear(); // listed with no reference: a stale user fails Netty's checks until it is lent again
            pool.free.offer(this);
            if (pool.closed) { // closed meanwhile: the drain may have run before the offer
                pool.close();
            }
        }

        /** Lends a listed buffer again, with one reference: its taker's. */
        void revive() {
            resetRefCnt();
        }

        void freeMemory() {
            super.deallocate();
        }
    }
}
