package io.sluice.format;

import java.util.Locale;

/**
 * How a topic's queues are indexed: the value of the topic attribute {@code queue.type}.
 *
 * <p>Immutable; thread-safe.
 */
public enum ConsumeQueueType {
    /** One 20-byte consume-queue slot per message ({@code SimpleCQ}). */
    SIMPLE("SimpleCQ"),
    /** One 46-byte slot per stored record; a record may carry an inner batch of N messages ({@code BatchCQ}). */
    BATCH("BatchCQ");

    /** The topic attribute key, as Apache RocketMQ spells it. */
    public static final String ATTRIBUTE_KEY = "queue.type";

    private final String attributeValue;

    ConsumeQueueType(String attributeValue) {
        this.attributeValue = attributeValue;
    }

    /** The attribute value on the wire and in configs: {@code SimpleCQ} or {@code BatchCQ}. */
    public String attributeValue() {
        return attributeValue;
    }

    /**
     * Parses an attribute value case-insensitively.
     *
     * @throws IllegalArgumentException naming the value when it is neither {@code SimpleCQ} nor {@code BatchCQ}
     */
    public static ConsumeQueueType fromAttribute(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (ConsumeQueueType t : values()) {
                if (t.attributeValue.toLowerCase(Locale.ROOT).equals(v)) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException("unknown queue.type '" + value + "': expected SimpleCQ or BatchCQ");
    }
}
