package io.sluice.client.internal;

import io.sluice.client.ClientException;
import io.sluice.client.Message;
import io.sluice.client.SendResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One auto-batch: the messages that joined it, their callers' futures, and the memory they reserved.
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
    private final List<CompletableFuture<SendResult>> futures;
    private final AtomicBoolean finished = new AtomicBoolean();
    private long bodyBytes;

    /**
     * @param body where the messages are written
     * @param expectedMessages room to make for futures at first
     */
    AutoBatch(BatchKey key, long createdNs, BatchMemory memory, BatchBody body, int expectedMessages) {
        this.key = key;
        this.createdNs = createdNs;
        this.memory = memory;
        this.body = body;
        this.futures = new ArrayList<>(Math.max(1, expectedMessages));
    }

    /**
     * Writes {@code message} into the batch body; its caller learns the outcome through {@code future}.
     *
     * @param propertiesBytes what {@link BatchEntryDescriptor#propertiesBytes} gave for the message and {@code keys}
     * @throws IllegalArgumentException when the entry does not fit the body; the batch is then unchanged
     */
    void add(Message message, int propertiesBytes, UniqKeyGenerator keys, CompletableFuture<SendResult> future) {
        body.append(message, propertiesBytes, keys);
        futures.add(future);
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
            if (results.size() != futures.size()) {
                ClientException error = new ClientException("send of a batch of " + futures.size() + " gave "
                        + results.size() + " results");
                futures.forEach(future -> future.completeExceptionally(error));
                return;
            }
            for (int i = 0; i < futures.size(); i++) {
                futures.get(i).complete(results.get(i));
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
            futures.forEach(future -> future.completeExceptionally(error));
        } finally {
            memory.release(body.sizeBytes());
        }
    }
}
