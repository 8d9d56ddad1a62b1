package io.sluice.broker.handler;

/**
 * Told of every answered pull that returned messages (get statistics, consume rates, pull offsets).
 *
 * <p>Called on pull executor threads; implementations must be thread-safe and must not block.
 */
@FunctionalInterface
public interface PullObserver {

    /** Observes nothing. */
    PullObserver NONE = (group, topic, queueId, messages, nextBeginOffset) -> { };

    /**
     * @param group           the pulling consumer group
     * @param topic           the topic pulled
     * @param queueId         the queue pulled
     * @param messages        messages returned (inner messages counted)
     * @param nextBeginOffset the offset the consumer pulls from next
     */
    void onPull(String group, String topic, int queueId, int messages, long nextBeginOffset);
}
