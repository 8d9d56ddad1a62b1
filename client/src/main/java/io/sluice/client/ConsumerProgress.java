package io.sluice.client;

import io.sluice.remoting.protocol.body.MessageQueue;
import java.util.Map;

/**
 * A consumer group's progress on every queue it has offsets for, merged over the brokers.
 *
 * @param group the consumer group
 * @param queues per queue: broker offset, committed offset and lag; never null
 * @param consumeTps messages consumed per second, summed over the brokers
 */
public record ConsumerProgress(String group, Map<MessageQueue, QueueProgress> queues, double consumeTps) {

    /** Normalises the table. */
    public ConsumerProgress {
        queues = Map.copyOf(queues);
    }

    /** Messages stored but not yet consumed, over every queue. */
    public long totalLag() {
        return queues.values().stream().mapToLong(QueueProgress::lag).sum();
    }

    /**
     * Progress on one queue.
     *
     * @param brokerOffset the queue's max offset
     * @param consumerOffset the group's committed offset (next message to consume)
     * @param lastTimestampMs store time of the last consumed message, 0 if unknown
     */
    public record QueueProgress(long brokerOffset, long consumerOffset, long lastTimestampMs) {

        /** {@code brokerOffset - consumerOffset}, never negative. */
        public long lag() {
            return Math.max(0, brokerOffset - consumerOffset);
        }
    }
}
