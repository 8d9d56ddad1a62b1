package io.sluice.client.internal;

import io.sluice.format.UniqKeyGenerator;
import io.sluice.client.ClientClosedException;
import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Groups single sends into batches (auto-batching). Messages with the same {@link BatchKey} join one open batch;
 * a batch leaves
 * <ul>
 *   <li>on the adding thread, as soon as its messages' bodies reach {@code batchMaxBytes} (the bodies alone, as
 *       Apache's producer counts them: the encoded batch is larger by each entry's header and properties), or
 *       before a message that would take its encoded size past {@code maxBatchBodyBytes} joins;</li>
 *   <li>on the linger thread, which wakes every {@code batchMaxDelayMs / 2} (at least every millisecond) and ships
 *       every batch older than {@code batchMaxDelayMs}.</li>
 * </ul>
 * Every message first reserves its encoded size in {@link BatchMemory}; its batch gives the bytes back when it
 * completes or fails, so open plus in-flight batches never hold more than {@code totalBatchMaxBytes}. When memory is
 * short the adding thread waits up to the send timeout, or fails at once when so configured.
 *
 * <p>Thread-safe. Each key has a {@link Slot} whose monitor guards its open batch; it is held by adders and by the
 * linger thread only while they move a message or a batch, never while shipping. Idle slots are retired by the
 * linger thread; an adder that meets a retired slot takes a fresh one.
 */
public final class Accumulator implements AutoCloseable {
    /** A slot without an open batch, whose latest batch opened this long ago, is removed. */
    private static final long SLOT_IDLE_NS = TimeUnit.SECONDS.toNanos(60);

    private final int batchMaxBytes;
    private final int maxBatchBodyBytes;
    private final long batchMaxDelayNs;
    private final long lingerPeriodNs;
    private final boolean failWhenFull;
    private final long reserveTimeoutNs;
    private final BatchMemory memory;
    private final BatchBuffers buffers;
    private final UniqKeyGenerator uniqKeys;
    private final Consumer<SendJob> shipper;
    private final ConcurrentHashMap<BatchKey, Slot> slots = new ConcurrentHashMap<>();
    /**
     * The slot of the latest add whose message did not match the slot before: a hint any adder may overwrite,
     * checked against each message before use (most streams send to one key; no key is made or hashed then).
     */
    private volatile Slot latestSlot;
    private final LongAdder batchesBySize = new LongAdder();
    private final LongAdder batchesByTime = new LongAdder();
    private final CallbackTeller callbacks;
    private final Thread linger;
    private volatile boolean closed;

    /**
     * @param batchMaxBytes a batch leaves once its messages' bodies reach this many bytes
     * @param maxBatchBodyBytes a batch never grows beyond this (the broker's body limit)
     * @param batchMaxDelayMs a batch leaves at the latest this long after it opened
     * @param failWhenFull fail at once instead of waiting when memory is short
     * @param reserveTimeoutMs how long an adder waits for memory
     * @param memory the memory bound
     * @param uniqKeys source of batch UNIQ_KEYs
     * @param callbacks tells the callbacks of auto-batched sends
     * @param shipper sends a ready batch; must not block; may fail the job but not throw
     * @param threadName name of the linger thread
     */
    public Accumulator(int batchMaxBytes, int maxBatchBodyBytes, long batchMaxDelayMs, boolean failWhenFull,
                       long reserveTimeoutMs, BatchMemory memory, UniqKeyGenerator uniqKeys,
                       CallbackTeller callbacks, Consumer<SendJob> shipper, String threadName) {
        this.batchMaxBytes = batchMaxBytes;
        this.maxBatchBodyBytes = maxBatchBodyBytes;
        this.batchMaxDelayNs = TimeUnit.MILLISECONDS.toNanos(batchMaxDelayMs);
        this.lingerPeriodNs = Math.max(TimeUnit.MILLISECONDS.toNanos(1), batchMaxDelayNs / 2);
        this.failWhenFull = failWhenFull;
        this.reserveTimeoutNs = TimeUnit.MILLISECONDS.toNanos(reserveTimeoutMs);
        this.memory = memory;
        // The free list keeps at most what the memory bound lets open and in-flight batches hold at once.
        this.buffers = new BatchBuffers(maxBatchBodyBytes, memory.limitBytes());
        this.uniqKeys = uniqKeys;
        this.callbacks = callbacks;
        this.shipper = shipper;
        this.linger = new Thread(this::lingerLoop, threadName);
        this.linger.setDaemon(true);
        this.linger.start();
    }

    /** The memory bound shared by every batch. */
    public BatchMemory memory() {
        return memory;
    }

    /** Batches shipped because they reached {@code batchMaxBytes} (or the body limit). */
    public long batchesBySize() {
        return batchesBySize.sum();
    }

    /** Batches shipped by the linger thread. */
    public long batchesByTime() {
        return batchesByTime.sum();
    }

    /**
     * Adds a message; its entry must not exceed {@code maxBatchBodyBytes}. The message is written into its batch's
     * body here, on the calling thread.
     *
     * @param message the message
     * @param propertiesBytes what {@link BatchEntryWriter#propertiesBytes} gave for the message and this
     *                        accumulator's UNIQ_KEY generator
     * @param queue the caller's chosen queue, or null
     * @return completes with the message's own result, or with its batch's error
     * @throws io.sluice.client.BatchMemoryFullException when memory is short and cannot be had in time
     * @throws ClientClosedException when the accumulator is closed
     * @throws ClientException when interrupted while waiting for memory (the interrupt flag is set again)
     * @throws IllegalArgumentException naming the sizes when the entry exceeds {@code maxBatchBodyBytes}
     */
    public CompletableFuture<SendResult> add(Message message, int propertiesBytes, MessageQueue queue) {
        CompletableFuture<SendResult> future = new CompletableFuture<>();
        join(message, propertiesBytes, queue, future);
        return future;
    }

    /**
     * Adds a message whose outcome goes to {@code callback} (on the thread that learns it, or this one when the
     * batch fails while shipping); see {@link #add(Message, int, MessageQueue)} for the rest.
     */
    public void add(Message message, int propertiesBytes, MessageQueue queue, SendCallback callback) {
        join(message, propertiesBytes, queue, Objects.requireNonNull(callback, "callback"));
    }

    /** Adds a message told its outcome through {@code waiter}: a future or a callback. */
    private void join(Message message, int propertiesBytes, MessageQueue queue, Object waiter) {
        if (closed) {
            throw new ClientClosedException("producer is closed");
        }
        int bytes = BatchEntryWriter.entryBytes(message, propertiesBytes);
        if (bytes > maxBatchBodyBytes) {
            throw new IllegalArgumentException("an entry of " + bytes + " bytes exceeds the batch body limit of "
                    + maxBatchBodyBytes + " bytes");
        }
        reserve(bytes);
        Slot slot = latestSlot;
        while (true) {
            if (slot == null || !slot.key.matches(message, queue)) {
                slot = slots.computeIfAbsent(new BatchKey(message.topic(), message.tags(), message.waitStoreMsgOk(),
                        queue), Slot::new);
                latestSlot = slot;
            }
            AutoBatch before = null;
            AutoBatch after = null;
            try {
                synchronized (slot) {
                    if (slot.retired) {
                        slot = null;
                        continue;
                    }
                    if (closed) {
                        throw new ClientClosedException("producer is closed");
                    }
                    if (slot.open != null && slot.open.bytes() + bytes > maxBatchBodyBytes) {
                        before = slot.detach();
                    }
                    if (slot.open == null) {
                        // The clocks are read once per batch, not per message (a clock read is a good part of an add).
                        long nowNs = System.nanoTime();
                        uniqKeys.readClock(); // the keys of this batch's messages carry its opening time or later
                        slot.open = slot.openBatch(nowNs, bytes, memory, buffers, callbacks);
                        slot.lastOpenedNs = nowNs;
                    }
                    slot.open.add(message, propertiesBytes, uniqKeys, waiter);
                    if (slot.open.bodyBytes() >= batchMaxBytes) {
                        after = slot.detach();
                    }
                }
            } catch (RuntimeException | Error e) {
                memory.release(bytes);
                throw e;
            } finally {
                if (before != null) {
                    batchesBySize.increment();
                    ship(before);
                }
            }
            if (after != null) {
                batchesBySize.increment();
                ship(after);
            }
            return;
        }
    }

    /** Batch body buffers taken and not yet released. */
    public int bodyBuffersInUse() {
        return buffers.inUse();
    }

    /** Send callbacks that threw ({@link CallbackTeller}). */
    public long callbackFailures() {
        return callbacks.failures();
    }

    /** Ships every open batch now. */
    public void flush() {
        List<AutoBatch> due = new ArrayList<>();
        for (Slot slot : slots.values()) {
            synchronized (slot) {
                if (slot.open != null) {
                    due.add(slot.detach());
                }
            }
        }
        due.forEach(this::ship);
    }

    /**
     * Refuses new messages, ships every open batch, stops the linger thread and frees the spare body buffers
     * (those of batches still in flight are freed as they complete). Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        flush();
        LockSupport.unpark(linger);
        try {
            linger.join(TimeUnit.NANOSECONDS.toMillis(lingerPeriodNs) + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        buffers.close();
    }

    private void reserve(int bytes) {
        if (failWhenFull) {
            memory.reserveOrFail(bytes);
            return;
        }
        try {
            memory.reserve(bytes, reserveTimeoutNs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClientException("interrupted while waiting for auto-batch memory", e);
        }
    }

    private void ship(AutoBatch batch) {
        SendJob job;
        try {
            BatchKey key = batch.key();
            job = SendJob.batch(key.topic(), key.queue(), batch.body(), uniqKeys.next(), key.tags(),
                    key.waitStoreMsgOk(), batch);
        } catch (RuntimeException | Error e) {
            batch.failed(e); // first: it gives back the memory the body's size stands for
            batch.body().release();
            return;
        }
        try {
            shipper.accept(job);
        } catch (RuntimeException | Error e) {
            job.failed(e);
        }
    }

    private void lingerLoop() {
        List<AutoBatch> due = new ArrayList<>();
        while (!closed) {
            LockSupport.parkNanos(this, lingerPeriodNs);
            long now = System.nanoTime();
            for (Slot slot : slots.values()) {
                synchronized (slot) {
                    if (slot.open != null) {
                        if (now - slot.open.createdNs() >= batchMaxDelayNs) {
                            due.add(slot.detach());
                        }
                    } else if (now - slot.lastOpenedNs > SLOT_IDLE_NS) {
                        slot.retired = true;
                        slots.remove(slot.key, slot);
                    }
                }
            }
            for (AutoBatch batch : due) {
                batchesByTime.increment();
                ship(batch);
            }
            due.clear();
        }
    }

    /** The open batch of one key; guarded by its own monitor. */
    private static final class Slot {
        /** Room a first batch makes for messages; later ones make room for as many as the one before held. */
        private static final int FIRST_EXPECTED_COUNT = 4;

        final BatchKey key;
        AutoBatch open;
        /** When the slot's latest batch was opened. */
        long lastOpenedNs = System.nanoTime();
        boolean retired;
        /** Bytes and messages of the slot's latest batch: what the next one allocates room for at first. */
        int expectedBytes;
        int expectedCount = FIRST_EXPECTED_COUNT;

        Slot(BatchKey key) {
            this.key = key;
        }

        /**
         * Opens a batch whose body and future list have room for an eighth more than the latest batch held (a
         * batch that leaves by size holds about as much as the one before; growing a body copies it).
         */
        AutoBatch openBatch(long nowNs, int firstEntryBytes, BatchMemory memory, BatchBuffers buffers,
                            CallbackTeller callbacks) {
            int roomBytes = Math.max(firstEntryBytes, expectedBytes + expectedBytes / 8);
            int roomCount = expectedCount + expectedCount / 8 + 1;
            return new AutoBatch(key, nowNs, memory, new BatchBody(buffers.take(roomBytes), roomCount),
                    roomCount, callbacks);
        }

        /** Takes the open batch away, remembering its size for the next one. */
        AutoBatch detach() {
            AutoBatch batch = open;
            open = null;
            expectedBytes = (int) batch.bytes();
            expectedCount = batch.count();
            return batch;
        }
    }
}
