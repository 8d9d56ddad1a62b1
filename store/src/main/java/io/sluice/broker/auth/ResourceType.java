package io.sluice.broker.auth;

/** The kinds of resources a request touches, with ACL 2.0's prefixes. */
public enum ResourceType {
    CLUSTER("Cluster"),
    TOPIC("Topic"),
    GROUP("Group");

    private final String text;

    ResourceType(String text) {
        this.text = text;
    }

    /** The prefix before the colon, e.g. {@code Topic}. */
    public String text() {
        return text;
    }

    /** The type whose prefix is {@code text} (any case), or null when none is. */
    static ResourceType find(String text) {
        for (ResourceType type : values()) {
            if (type.text.equalsIgnoreCase(text)) {
                return type;
            }
        }
        return null;
    }
}
