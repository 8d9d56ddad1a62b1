package io.sluice.client;

import io.sluice.format.MessageProperties;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message to send: topic, body, optional tag, keys, user flag and user properties.
 *
 * <p>Immutable once built, so one instance may be sent many times and from many threads. The body array is
 * <em>not</em> copied: the caller must not change it after building the message. Topic and body are checked
 * against the producer's limits when the message is sent ({@link Producer}); the builder checks what it can
 * on its own (nulls, reserved or malformed property names and values).
 */
public final class Message {
    private final String topic;
    private final byte[] body;
    private final String tags;
    private final String keys;
    private final int flag;
    private final boolean waitStoreMsgOk;
    private final Map<String, String> properties;

    private Message(Builder builder) {
        this.topic = builder.topic;
        this.body = builder.body;
        this.tags = builder.tags;
        this.keys = builder.keys;
        this.flag = builder.flag;
        this.waitStoreMsgOk = builder.waitStoreMsgOk;
        this.properties = builder.properties == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(builder.properties));
    }

    private Message(String topic, byte[] body) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.body = Objects.requireNonNull(body, "body");
        this.tags = null;
        this.keys = null;
        this.flag = 0;
        this.waitStoreMsgOk = true;
        this.properties = Map.of();
    }

    /** A message with only a topic and a body; built without a builder, since senders make one per message. */
    public static Message of(String topic, byte[] body) {
        return new Message(topic, body);
    }

    /** A builder for a message with this topic and body. */
    public static Builder builder(String topic, byte[] body) {
        return new Builder(topic, body);
    }

    /** The topic. */
    public String topic() {
        return topic;
    }

    /** The body (the caller's array, not a copy). */
    public byte[] body() {
        return body;
    }

    /** The tag, or null. */
    public String tags() {
        return tags;
    }

    /** The keys separated by one space, or null. */
    public String keys() {
        return keys;
    }

    /** The user flag, stored with the message and returned to consumers. */
    public int flag() {
        return flag;
    }

    /** Whether the broker should answer only once the message is stored (the default, true). */
    public boolean waitStoreMsgOk() {
        return waitStoreMsgOk;
    }

    /** The user properties in insertion order; never null. */
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public String toString() {
        return "Message{topic=" + topic + ", bodyBytes=" + body.length + ", tags=" + tags + ", keys=" + keys
                + ", flag=" + flag + ", properties=" + properties + '}';
    }

    /** Builds a {@link Message}. Not thread-safe; one builder per thread. */
    public static final class Builder {
        private final String topic;
        private final byte[] body;
        private String tags;
        private String keys;
        private int flag;
        private boolean waitStoreMsgOk = true;
        /** Made on the first {@link #property}: most messages have none. */
        private Map<String, String> properties;

        private Builder(String topic, byte[] body) {
            this.topic = Objects.requireNonNull(topic, "topic");
            this.body = Objects.requireNonNull(body, "body");
        }

        /** Sets the tag (no {@code ||}, no separator characters); null clears it. */
        public Builder tags(String value) {
            if (value != null
                    && (value.isEmpty() || value.contains("||") || MessageProperties.containsSeparator(value))) {
                throw new IllegalArgumentException("tags must be a single non-empty tag, was '" + value + "'");
            }
            this.tags = value;
            return this;
        }

        /** Sets the keys, separated by one space; null clears them. */
        public Builder keys(String value) {
            if (value != null && (value.isBlank() || MessageProperties.containsSeparator(value))) {
                throw new IllegalArgumentException("keys must be non-blank without separators, was '" + value + "'");
            }
            this.keys = value;
            return this;
        }

        /** Sets the user flag. */
        public Builder flag(int value) {
            this.flag = value;
            return this;
        }

        /** Sets whether the broker answers only once the message is stored (default true). */
        public Builder waitStoreMsgOk(boolean value) {
            this.waitStoreMsgOk = value;
            return this;
        }

        /**
         * Adds a user property.
         *
         * @throws IllegalArgumentException naming the pair when the name is reserved (UNIQ_KEY, TAGS, KEYS, ...) or
         *     either part is empty or contains a separator character
         */
        public Builder property(String name, String value) {
            MessageProperties.validateUserProperty(name, value);
            if (properties == null) {
                properties = new LinkedHashMap<>();
            }
            properties.put(name, value);
            return this;
        }

        /** The message. */
        public Message build() {
            return new Message(this);
        }
    }
}
