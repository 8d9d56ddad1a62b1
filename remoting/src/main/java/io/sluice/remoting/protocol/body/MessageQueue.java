package io.sluice.remoting.protocol.body;

import java.util.Comparator;

/**
 * One queue of a topic on one broker name: {@code {"brokerName":"broker-a","queueId":0,"topic":"T"}}. Ordered by
 * topic, broker name, then queue id.
 *
 * @param topic the topic
 * @param brokerName the broker name
 * @param queueId the queue id, {@code 0..queueNums-1}
 */
public record MessageQueue(String topic, String brokerName, int queueId) implements Comparable<MessageQueue> {

    private static final Comparator<MessageQueue> ORDER = Comparator.comparing(MessageQueue::topic)
            .thenComparing(MessageQueue::brokerName)
            .thenComparingInt(MessageQueue::queueId);

    /** Validates the names. */
    public MessageQueue {
        Copies.required(topic, "topic");
        Copies.required(brokerName, "brokerName");
    }

    @Override
    public int compareTo(MessageQueue other) {
        return ORDER.compare(this, other);
    }
}
