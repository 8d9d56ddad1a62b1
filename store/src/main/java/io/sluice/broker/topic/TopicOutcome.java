package io.sluice.broker.topic;

import io.sluice.broker.meta.TopicConfig;

/**
 * What a topic change did.
 *
 * <p>Immutable; thread-safe.
 *
 * @param status what happened
 * @param config the topic's config after the call; null unless the status is CREATED, UPDATED or UNCHANGED
 * @param detail for a refusal, a message naming the bad value; otherwise empty
 */
public record TopicOutcome(Status status, TopicConfig config, String detail) {

    /** Outcome of a topic change. */
    public enum Status {
        /** A new topic was stored and announced. */
        CREATED,
        /** An existing topic was changed, stored and announced. */
        UPDATED,
        /** The request equals the stored config; nothing was written. */
        UNCHANGED,
        /** The topic was deleted. */
        DELETED,
        /** The topic to delete did not exist. */
        NOT_FOUND,
        /** The topic name is illegal or names a system topic. */
        INVALID_NAME,
        /** A queue count, the permission or the filter type is illegal. */
        INVALID_CONFIG,
        /** The attribute string is malformed, names an unknown key or value, or changes an unchangeable key. */
        INVALID_ATTRIBUTES;

        /** True for the refusals. */
        public boolean isRefusal() {
            return this == INVALID_NAME || this == INVALID_CONFIG || this == INVALID_ATTRIBUTES;
        }
    }

    static TopicOutcome of(Status status, TopicConfig config) {
        return new TopicOutcome(status, config, "");
    }

    static TopicOutcome refused(Status status, String detail) {
        return new TopicOutcome(status, null, detail);
    }
}
