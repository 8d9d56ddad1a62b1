package io.sluice.broker.meta;

/**
 * One committed consumer offset: the next offset {@code group} will consume from queue {@code queueId} of
 * {@code topic}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param group   consumer group
 * @param topic   topic
 * @param queueId queue id within the topic
 * @param offset  logical offset in the queue (the next message to consume)
 */
public record ConsumerOffset(String group, String topic, int queueId, long offset) {

    /**
     * A queue as seen by one group: the key of an offset. Immutable; thread-safe.
     *
     * @param group   consumer group
     * @param topic   topic
     * @param queueId queue id within the topic
     */
    public record QueueRef(String group, String topic, int queueId) {
    }
}
