package io.sluice.remoting.protocol.body;

/** How a topic's messages are tagged, as carried in {@code TopicConfig.topicFilterType}. Written by name. */
public enum TopicFilterType {
    /** One tag per message (the default). */
    SINGLE_TAG,
    /** Several tags per message. */
    MULTI_TAG
}
