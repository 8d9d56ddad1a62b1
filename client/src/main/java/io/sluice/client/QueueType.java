package io.sluice.client;

import io.sluice.format.ConsumeQueueType;

/**
 * The consume-queue type of a topic, the {@code queue.type} topic attribute. Fixed when the topic is created. The
 * attribute's spelling is {@link ConsumeQueueType}'s, which the broker parses.
 */
public enum QueueType {
    /** One index slot per message; batches are unpacked into single messages. The default. */
    SIMPLE_CQ(ConsumeQueueType.SIMPLE),
    /** Batches are stored as one record and one index slot (an inner batch) and unwrapped by consumers. */
    BATCH_CQ(ConsumeQueueType.BATCH);

    /** The attribute key. */
    public static final String ATTRIBUTE = ConsumeQueueType.ATTRIBUTE_KEY;

    private final ConsumeQueueType attribute;

    QueueType(ConsumeQueueType attribute) {
        this.attribute = attribute;
    }

    /** The attribute value, {@code SimpleCQ} or {@code BatchCQ}. */
    public String attributeValue() {
        return attribute.attributeValue();
    }

    /**
     * The type named by an attribute value, case-insensitively; null or absent means {@link #SIMPLE_CQ}.
     *
     * @throws IllegalArgumentException naming the value when it is neither {@code SimpleCQ} nor {@code BatchCQ}
     */
    public static QueueType fromAttribute(String value) {
        if (value == null) {
            return SIMPLE_CQ;
        }
        return ConsumeQueueType.fromAttribute(value) == ConsumeQueueType.BATCH ? BATCH_CQ : SIMPLE_CQ;
    }
}
