package io.sluice.format;

/**
 * How a topic's messages are tagged: one tag per message, or several ({@code MULTI_TAG} makes the broker set the
 * MULTI_TAGS sysflag bit on stored messages). The names are the wire spellings, in TopicConfig.topicFilterType.
 *
 * <p>Immutable; thread-safe.
 */
public enum TopicFilterType {
    /** One tag per message (the default). */
    SINGLE_TAG,
    /** Several tags per message. */
    MULTI_TAG;

    /**
     * Parses the wire spelling.
     *
     * @throws IllegalArgumentException naming the value when it is neither {@code SINGLE_TAG} nor {@code MULTI_TAG}
     */
    public static TopicFilterType fromWire(String value) {
        for (TopicFilterType t : values()) {
            if (t.name().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown topicFilterType '" + value + "': expected SINGLE_TAG or MULTI_TAG");
    }
}
