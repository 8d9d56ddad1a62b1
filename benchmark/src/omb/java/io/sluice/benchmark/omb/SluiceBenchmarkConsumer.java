package io.sluice.benchmark.omb;

import io.openmessaging.benchmark.driver.BenchmarkConsumer;
import io.openmessaging.benchmark.driver.ConsumerCallback;
import io.sluice.client.LitePullConsumer;
import io.sluice.client.ReceivedMessage;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one topic for OMB with a Sluice {@link LitePullConsumer} in subscribe mode, and hands every message's
 * body and born timestamp to OMB's callback on one poll thread.
 *
 * <p>Lite pull rather than push: the push consumer tracks each message in an ordered map of its queue and hands
 * each batch to a consume thread, while a polled batch is handed over as it was pulled, so lite pull costs the
 * least per message. Thread-safe; {@link #close()} is idempotent.
 */
final class SluiceBenchmarkConsumer implements BenchmarkConsumer {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceBenchmarkConsumer.class);
    /** How long one poll waits; it bounds how late the poll thread sees {@link #close()}. */
    static final long POLL_TIMEOUT_MS = 100;
    /** How long {@link #close()} waits for a callback in progress to return. */
    private static final long STOP_TIMEOUT_MS = 10_000;

    private final LitePullConsumer consumer;
    private final ConsumerCallback callback;
    private final Thread poller;
    private volatile boolean running = true;

    private SluiceBenchmarkConsumer(LitePullConsumer consumer, String topic, ConsumerCallback callback) {
        this.consumer = consumer;
        this.callback = callback;
        this.poller = new Thread(this::pollUntilClosed, "sluice-omb-poll-" + topic);
        this.poller.setDaemon(true);
    }

    /** Subscribes {@code consumer} to {@code topic} and starts the poll thread. */
    static SluiceBenchmarkConsumer start(LitePullConsumer consumer, String topic, ConsumerCallback callback) {
        consumer.subscribe(topic, "*");
        SluiceBenchmarkConsumer started = new SluiceBenchmarkConsumer(consumer, topic, callback);
        started.poller.start();
        return started;
    }

    private void pollUntilClosed() {
        try {
            while (running) {
                List<ReceivedMessage> messages = consumer.poll(POLL_TIMEOUT_MS);
                for (int i = 0; i < messages.size(); i++) {
                    ReceivedMessage message = messages.get(i);
                    callback.messageReceived(message.body(), message.bornTimestampMs());
                }
            }
        } catch (RuntimeException e) {
            // Consumption stops, visibly: OMB's consume rate drops to zero and the log says why.
            LOG.error("poll thread {} stopped", Thread.currentThread().getName(), e);
        }
    }

    /** Stops the poll thread (after the callback in progress), then commits the offsets and closes the consumer. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        poller.join(STOP_TIMEOUT_MS);
        consumer.close();
        if (poller.isAlive()) {
            poller.interrupt();
            throw new IllegalStateException(poller.getName() + " still runs a callback after " + STOP_TIMEOUT_MS
                    + " ms; its consumer is closed");
        }
    }
}
