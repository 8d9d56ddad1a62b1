package io.sluice.store.index;

/**
 * Identifies a queue: (topic, queueId). Immutable; thread-safe.
 *
 * @param topic   the topic
 * @param queueId the queue id within the topic
 */
record QueueKey(String topic, int queueId) {

    public QueueKey {
        if (topic == null) {
            throw new IllegalArgumentException("topic must be set, was null");
        }
    }

    @Override
    public String toString() {
        return topic + "-" + queueId;
    }
}
