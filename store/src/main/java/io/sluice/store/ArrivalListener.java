package io.sluice.store;

/**
 * Told by dispatch that a queue received messages, so that parked pulls (long polling) can be woken.
 *
 * <p>Called on the thread that writes the consume queues (the dispatch thread; in the pipeline its writer, or its
 * reader for a small chunk it wrote itself), at most once per dispatch pass for each queue that pass touched, with the
 * queue's new max offset. Implementations must be thread-safe and quick (hand the wake-up to another thread if
 * it needs work); an exception is counted and logged, and dispatch goes on.
 */
@FunctionalInterface
public interface ArrivalListener {

    /**
     * @param topic     the topic
     * @param queueId   the queue id
     * @param maxOffset the queue's next offset to be written: messages below it are now readable
     */
    void onArrival(String topic, int queueId, long maxOffset);
}
