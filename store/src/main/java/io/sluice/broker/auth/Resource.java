package io.sluice.broker.auth;

import java.util.Objects;

/**
 * One resource a request touches, e.g. {@code Topic:orders}. Immutable.
 *
 * @param type cluster, topic or group
 * @param name its name
 */
public record Resource(ResourceType type, String name) {
    /** Prefix of a group's retry topic. */
    static final String RETRY_PREFIX = "%RETRY%";
    /** Prefix of a group's dead-letter topic. */
    static final String DLQ_PREFIX = "%DLQ%";

    public Resource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    static Resource topic(String name) {
        return new Resource(ResourceType.TOPIC, name);
    }

    static Resource group(String name) {
        return new Resource(ResourceType.GROUP, name);
    }

    static Resource cluster(String name) {
        return new Resource(ResourceType.CLUSTER, name);
    }

    /** A group's retry or dead-letter topic stands for the group, as in ACL 2.0; other topics for themselves. */
    static Resource topicOrItsGroup(String topic) {
        if (topic.startsWith(RETRY_PREFIX)) {
            return group(topic.substring(RETRY_PREFIX.length()));
        }
        if (topic.startsWith(DLQ_PREFIX)) {
            return group(topic.substring(DLQ_PREFIX.length()));
        }
        return topic(topic);
    }

    @Override
    public String toString() {
        return type.text() + ":" + name;
    }
}
