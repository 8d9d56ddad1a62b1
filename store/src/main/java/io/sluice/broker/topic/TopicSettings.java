package io.sluice.broker.topic;

import io.sluice.broker.meta.TopicConfig;

/**
 * Settings of the {@link TopicRegistry}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param autoCreateTopicEnable register {@code TBW102} and let sends create the topics they name
 * @param defaultTopicQueueNums queues of {@code TBW102}, hence the most an auto-created topic gets;
 *                              1..{@value TopicConfig#MAX_QUEUE_NUMS}
 */
public record TopicSettings(boolean autoCreateTopicEnable, int defaultTopicQueueNums) {

    /** Validates the values. */
    public TopicSettings {
        if (defaultTopicQueueNums < 1 || defaultTopicQueueNums > TopicConfig.MAX_QUEUE_NUMS) {
            throw new IllegalArgumentException("defaultTopicQueueNums " + defaultTopicQueueNums
                    + " is out of range 1.." + TopicConfig.MAX_QUEUE_NUMS);
        }
    }
}
