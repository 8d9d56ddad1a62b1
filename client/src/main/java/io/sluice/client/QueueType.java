package io.sluice.client;

/** The consume-queue type of a topic, the {@code queue.type} topic attribute. Fixed when the topic is created. */
public enum QueueType {
    /** One index slot per message; batches are unpacked into single messages. The default. */
    SIMPLE_CQ("SimpleCQ"),
    /** Batches are stored as one record and one index slot (an inner batch) and unwrapped by consumers. */
    BATCH_CQ("BatchCQ");

    /** The attribute key. */
    public static final String ATTRIBUTE = "queue.type";

    private final String attributeValue;

    QueueType(String attributeValue) {
        this.attributeValue = attributeValue;
    }

    /** The attribute value, {@code SimpleCQ} or {@code BatchCQ}. */
    public String attributeValue() {
        return attributeValue;
    }

    /** The type named by an attribute value; null or absent means {@link #SIMPLE_CQ}. */
    public static QueueType fromAttribute(String value) {
        if (value == null || value.equalsIgnoreCase(SIMPLE_CQ.attributeValue)) {
            return SIMPLE_CQ;
        }
        if (value.equalsIgnoreCase(BATCH_CQ.attributeValue)) {
            return BATCH_CQ;
        }
        throw new IllegalArgumentException("unknown queue.type '" + value + "'");
    }
}
