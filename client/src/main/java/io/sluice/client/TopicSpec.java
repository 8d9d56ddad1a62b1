package io.sluice.client;

import io.sluice.format.ConsumeQueueType;
import java.util.Map;
import java.util.Objects;

/**
 * A topic's configuration: what {@link Admin#createTopic} creates and {@link Admin#topicConfig} reads. Immutable,
 * validated on construction (the exception names the bad value).
 *
 * @param topic the topic name
 * @param readQueueNums readable queues per broker, 1..{@value #MAX_QUEUE_NUMS}
 * @param writeQueueNums writable queues per broker, 1..{@value #MAX_QUEUE_NUMS}
 * @param perm permission bits: 4 read, 2 write (6 = read-write)
 * @param queueType the consume-queue type
 * @param order whether the topic is ordered
 * @param attributes other topic attributes (without {@code queue.type}), e.g. {@code message.type}; never null
 */
public record TopicSpec(String topic, int readQueueNums, int writeQueueNums, int perm, ConsumeQueueType queueType,
                        boolean order, Map<String, String> attributes) {
    /**
     * Largest queue count accepted per broker: the broker's own bound (queue ids are 0..65534), so a topic of
     * 10,000 queues on one broker is fine.
     */
    public static final int MAX_QUEUE_NUMS = 65_535;

    /** Validates every field. */
    public TopicSpec {
        Checks.topic(topic);
        Checks.range("readQueueNums", readQueueNums, 1, MAX_QUEUE_NUMS);
        Checks.range("writeQueueNums", writeQueueNums, 1, MAX_QUEUE_NUMS);
        Checks.range("perm", perm, 0, 7);
        Objects.requireNonNull(queueType, "queueType");
        attributes = Map.copyOf(attributes == null ? Map.of() : attributes);
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            String key = attribute.getKey();
            if (key.isEmpty() || key.equals(ConsumeQueueType.ATTRIBUTE_KEY) || key.contains("=") || key.contains(",")
                    || key.startsWith("+") || key.startsWith("-")) {
                throw new IllegalArgumentException("illegal attribute key '" + key + "'");
            }
            String value = attribute.getValue();
            if (value.isEmpty() || value.contains(",") || value.contains("=")) {
                throw new IllegalArgumentException("illegal value '" + value + "' of attribute " + key);
            }
        }
    }

    /** A read-write SimpleCQ topic with {@code queueNums} read and write queues. */
    public static TopicSpec of(String topic, int queueNums) {
        return new TopicSpec(topic, queueNums, queueNums, 6, ConsumeQueueType.SIMPLE, false, Map.of());
    }

    /** A copy with another queue type. */
    public TopicSpec withQueueType(ConsumeQueueType type) {
        return new TopicSpec(topic, readQueueNums, writeQueueNums, perm, type, order, attributes);
    }

    /** A copy with other queue counts. */
    public TopicSpec withQueueNums(int read, int write) {
        return new TopicSpec(topic, read, write, perm, queueType, order, attributes);
    }

    /** A copy with other permission bits. */
    public TopicSpec withPerm(int bits) {
        return new TopicSpec(topic, readQueueNums, writeQueueNums, bits, queueType, order, attributes);
    }
}
