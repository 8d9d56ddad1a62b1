package io.sluice.benchmark.omb;

import io.openmessaging.benchmark.driver.BenchmarkProducer;
import io.sluice.client.Message;
import io.sluice.client.Producer;
import io.sluice.client.SendCallback;
import io.sluice.client.SendResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Sends OMB's messages to one topic through a Sluice {@link Producer}, with the callback form of
 * {@code sendAsync} (with auto-batching it costs no future per message inside the client). Thread-safe.
 */
final class SluiceBenchmarkProducer implements BenchmarkProducer {
    private final Producer producer;
    private final String topic;
    /** Bounds the messages awaiting their result; null when the driver YAML sets no bound. */
    private final Semaphore inFlight;

    SluiceBenchmarkProducer(Producer producer, String topic, int maxInFlightMessages) {
        this.producer = producer;
        this.topic = topic;
        this.inFlight = maxInFlightMessages > 0 ? new Semaphore(maxInFlightMessages) : null;
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload) {
        Message message = key.isPresent()
                ? Message.builder(topic, payload).keys(key.get()).build()
                : Message.of(topic, payload);
        CompletableFuture<Void> sent = new CompletableFuture<>();
        if (inFlight != null) {
            try {
                inFlight.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sent.completeExceptionally(e);
                return sent;
            }
        }
        try {
            producer.sendAsync(message, new Completion(sent, inFlight));
        } catch (RuntimeException e) {
            // Refused before it was queued (closed producer, batch memory timeout): no callback will come.
            if (inFlight != null) {
                inFlight.release();
            }
            sent.completeExceptionally(e);
        }
        return sent;
    }

    /** Closes the Sluice producer: what auto-batching holds is sent first. Idempotent. */
    @Override
    public void close() {
        producer.close();
    }

    /** Completes OMB's future with the send's outcome and gives the in-flight permit back. */
    private record Completion(CompletableFuture<Void> sent, Semaphore inFlight) implements SendCallback {
        @Override
        public void onSuccess(SendResult result) {
            release();
            sent.complete(null);
        }

        @Override
        public void onException(Throwable error) {
            release();
            sent.completeExceptionally(error);
        }

        private void release() {
            if (inFlight != null) {
                inFlight.release();
            }
        }
    }
}
