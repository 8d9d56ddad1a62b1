package io.sluice.client.internal;

import io.sluice.format.UniqKeyGenerator;
import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One auto-batch: the messages that joined it, who waits for each (its caller's future or {@link SendCallback}),
 * and the memory they reserved.
 *
 * <p>While open it belongs to its slot in {@link Accumulator} and is changed only under that slot's monitor. Once
 * shipped nobody changes its lists; its outcome methods may then run on any thread and act once: every future
 * completes with its own result or with the batch's error, and only then are the reserved bytes given back. So a
 * sender waiting in {@link BatchMemory#reserve} for those bytes can proceed only once every caller of this batch
 * can see its outcome; a stage that depends on one of the futures runs before the bytes are back, and so must not
 * wait for batch memory itself (it runs on a client I/O thread, where nothing may block anyway).
 */
final class AutoBatch implements BatchOutcome {
    private final BatchKey key;
    private final long createdNs;
    private final BatchMemory memory;
    private final BatchBody body;
    /** Per message: the {@code CompletableFuture<SendResult>} or the {@link SendCallback} to tell. */
    private final List<Object> waiters;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final CallbackTeller callbacks;
    private long bodyBytes;

    /**
     * @param body where the messages are written
     * @param expectedMessages room to make for waiters at first
     * @param callbacks tells the callbacks among the waiters
     */
    AutoBatch(BatchKey key, long createdNs, BatchMemory memory, BatchBody body, int expectedMessages,
              CallbackTeller callbacks) {
        this.callbacks = callbacks;
        this.key = key;
        this.createdNs = createdNs;
        this.memory = memory;
        this.body = body;
        this.waiters = new ArrayList<>(Math.max(1, expectedMessages));
    }

    /**
     * Writes {@code message} into the batch body; its caller learns the outcome through {@code waiter}.
     *
     * @param propertiesBytes what {@link BatchEntryWriter#propertiesBytes} gave for the message and {@code keys}
     * @param waiter a {@code CompletableFuture<SendResult>} or a {@link SendCallback}
     * @throws IllegalArgumentException when the entry does not fit the body; the batch is then unchanged
     */
    void add(Message message, int propertiesBytes, UniqKeyGenerator keys, Object waiter) {
        body.append(message, propertiesBytes, keys);
        waiters.add(waiter);
        bodyBytes += message.body().length;
    }

    BatchKey key() {
        return key;
    }

    long createdNs() {
        return createdNs;
    }

    /** Encoded bytes: the batch body's size, and the memory its messages reserved. */
    long bytes() {
        return body.sizeBytes();
    }

    /** Messages in the batch. */
    int count() {
        return body.count();
    }

    /** Bytes of the messages' bodies alone (what {@code batchMaxBytes} counts). */
    long bodyBytes() {
        return bodyBytes;
    }

    BatchBody body() {
        return body;
    }

    @Override
    public void succeeded(List<SendResult> results) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            if (results.size() != waiters.size()) {
                ClientException error = new ClientException("send of a batch of " + waiters.size() + " gave "
                        + results.size() + " results");
                waiters.forEach(waiter -> tell(waiter, null, error));
                return;
            }
            for (int i = 0; i < waiters.size(); i++) {
                tell(waiters.get(i), results.get(i), null);
            }
        } finally {
            memory.release(body.sizeBytes());
        }
    }

    @Override
    public void failed(Throwable error) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            waiters.forEach(waiter -> tell(waiter, null, error));
        } finally {
            memory.release(body.sizeBytes());
        }
    }

    /** Tells one waiter its message's result, or (when {@code error} is not null) its batch's error. */
    @SuppressWarnings("unchecked")
    private void tell(Object waiter, SendResult result, Throwable error) {
        if (waiter instanceof SendCallback callback) {
            callbacks.tell(callback, result, error);
        } else if (error == null) {
            ((CompletableFuture<SendResult>) waiter).complete(result);
        } else {
            ((CompletableFuture<?>) waiter).completeExceptionally(error);
        }
    }
}
