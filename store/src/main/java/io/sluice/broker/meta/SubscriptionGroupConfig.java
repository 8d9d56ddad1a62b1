package io.sluice.broker.meta;

import io.sluice.store.TopicNames;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration of one consumer (subscription) group on this broker, with Apache RocketMQ's fields,
 * meanings and defaults. A broker auto-creates a group with {@link #defaults} on the group's first heartbeat
 * when {@code autoCreateSubscriptionGroup} is on.
 *
 * <p>Validated: the name ({@link TopicNames#validateGroup}), {@code retryQueueNums} in
 * {@code 0..}{@value TopicConfig#MAX_QUEUE_NUMS} (0: no retries), the other numbers non-negative.
 *
 * <p>Immutable; thread-safe.
 *
 * @param groupName                      group name
 * @param consumeEnable                  false makes pulls answer NO_PERMISSION
 * @param consumeFromMinEnable           allow a new group to start from the queue's min offset
 * @param consumeBroadcastEnable         allow BROADCASTING consumers
 * @param consumeMessageOrderly          the group consumes orderly (retries go through orderly rules)
 * @param retryQueueNums                 queues of {@code %RETRY%<group>}; default 1
 * @param retryMaxTimes                  reconsume attempts before a message goes to {@code %DLQ%<group>}; default 16
 * @param brokerId                       broker id consumers should pull from; 0 = master
 * @param whichBrokerWhenConsumeSlowly   broker id suggested when the consumer lags; default 1
 * @param notifyConsumerIdsChangedEnable send NOTIFY_CONSUMER_IDS_CHANGED on membership changes
 * @param groupSysFlag                   Apache's group sysflag bits; 0 normally
 * @param consumeTimeoutMinute           minutes before an in-flight message is considered timed out; default 15
 * @param attributes                     group attributes, sorted, unmodifiable
 */
public record SubscriptionGroupConfig(String groupName, boolean consumeEnable, boolean consumeFromMinEnable,
                                      boolean consumeBroadcastEnable, boolean consumeMessageOrderly,
                                      int retryQueueNums, int retryMaxTimes, long brokerId,
                                      long whichBrokerWhenConsumeSlowly, boolean notifyConsumerIdsChangedEnable,
                                      int groupSysFlag, int consumeTimeoutMinute, Map<String, String> attributes) {

    /** Default {@code retryQueueNums}. */
    public static final int DEFAULT_RETRY_QUEUE_NUMS = 1;
    /** Default {@code retryMaxTimes}. */
    public static final int DEFAULT_RETRY_MAX_TIMES = 16;

    /** Validates the components; see the class comment. */
    public SubscriptionGroupConfig {
        TopicNames.validateGroup(groupName);
        if (retryQueueNums < 0 || retryQueueNums > TopicConfig.MAX_QUEUE_NUMS) {
            throw new IllegalArgumentException("retryQueueNums " + retryQueueNums + " of group " + groupName
                    + " is out of range 0.." + TopicConfig.MAX_QUEUE_NUMS);
        }
        requireNonNegative("retryMaxTimes", retryMaxTimes, groupName);
        requireNonNegative("brokerId", brokerId, groupName);
        requireNonNegative("whichBrokerWhenConsumeSlowly", whichBrokerWhenConsumeSlowly, groupName);
        requireNonNegative("groupSysFlag", groupSysFlag, groupName);
        requireNonNegative("consumeTimeoutMinute", consumeTimeoutMinute, groupName);
        if (attributes == null) {
            throw new IllegalArgumentException("attributes must not be null (group " + groupName + ")");
        }
        attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
    }

    /** A group with every Apache default. */
    public static SubscriptionGroupConfig defaults(String groupName) {
        return builder(groupName).build();
    }

    /** A builder starting from the Apache defaults. */
    public static Builder builder(String groupName) {
        return new Builder(groupName);
    }

    /** A builder starting from this config. */
    public Builder toBuilder() {
        Builder b = new Builder(groupName);
        b.consumeEnable = consumeEnable;
        b.consumeFromMinEnable = consumeFromMinEnable;
        b.consumeBroadcastEnable = consumeBroadcastEnable;
        b.consumeMessageOrderly = consumeMessageOrderly;
        b.retryQueueNums = retryQueueNums;
        b.retryMaxTimes = retryMaxTimes;
        b.brokerId = brokerId;
        b.whichBrokerWhenConsumeSlowly = whichBrokerWhenConsumeSlowly;
        b.notifyConsumerIdsChangedEnable = notifyConsumerIdsChangedEnable;
        b.groupSysFlag = groupSysFlag;
        b.consumeTimeoutMinute = consumeTimeoutMinute;
        b.attributes = attributes;
        return b;
    }

    private static void requireNonNegative(String field, long value, String groupName) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " " + value + " of group " + groupName + " must be >= 0");
        }
    }

    /**
     * Builds a {@link SubscriptionGroupConfig}; starts from the Apache defaults. Validation happens in
     * {@link #build()}.
     *
     * <p>Not thread-safe; use from one thread.
     */
    public static final class Builder {
        private final String groupName;
        private boolean consumeEnable = true;
        private boolean consumeFromMinEnable = true;
        private boolean consumeBroadcastEnable = true;
        private boolean consumeMessageOrderly;
        private int retryQueueNums = DEFAULT_RETRY_QUEUE_NUMS;
        private int retryMaxTimes = DEFAULT_RETRY_MAX_TIMES;
        private long brokerId;
        private long whichBrokerWhenConsumeSlowly = 1;
        private boolean notifyConsumerIdsChangedEnable = true;
        private int groupSysFlag;
        private int consumeTimeoutMinute = 15;
        private Map<String, String> attributes = Map.of();

        private Builder(String groupName) {
            this.groupName = groupName;
        }

        /** Sets {@code consumeEnable}. */
        public Builder consumeEnable(boolean value) {
            consumeEnable = value;
            return this;
        }

        /** Sets {@code consumeFromMinEnable}. */
        public Builder consumeFromMinEnable(boolean value) {
            consumeFromMinEnable = value;
            return this;
        }

        /** Sets {@code consumeBroadcastEnable}. */
        public Builder consumeBroadcastEnable(boolean value) {
            consumeBroadcastEnable = value;
            return this;
        }

        /** Sets {@code consumeMessageOrderly}. */
        public Builder consumeMessageOrderly(boolean value) {
            consumeMessageOrderly = value;
            return this;
        }

        /** Sets {@code retryQueueNums}. */
        public Builder retryQueueNums(int value) {
            retryQueueNums = value;
            return this;
        }

        /** Sets {@code retryMaxTimes}. */
        public Builder retryMaxTimes(int value) {
            retryMaxTimes = value;
            return this;
        }

        /** Sets {@code brokerId}. */
        public Builder brokerId(long value) {
            brokerId = value;
            return this;
        }

        /** Sets {@code whichBrokerWhenConsumeSlowly}. */
        public Builder whichBrokerWhenConsumeSlowly(long value) {
            whichBrokerWhenConsumeSlowly = value;
            return this;
        }

        /** Sets {@code notifyConsumerIdsChangedEnable}. */
        public Builder notifyConsumerIdsChangedEnable(boolean value) {
            notifyConsumerIdsChangedEnable = value;
            return this;
        }

        /** Sets {@code groupSysFlag}. */
        public Builder groupSysFlag(int value) {
            groupSysFlag = value;
            return this;
        }

        /** Sets {@code consumeTimeoutMinute}. */
        public Builder consumeTimeoutMinute(int value) {
            consumeTimeoutMinute = value;
            return this;
        }

        /** Sets the attribute map. */
        public Builder attributes(Map<String, String> value) {
            attributes = value;
            return this;
        }

        /**
         * Builds the config.
         *
         * @throws IllegalArgumentException naming the field and value that fail validation
         */
        public SubscriptionGroupConfig build() {
            return new SubscriptionGroupConfig(groupName, consumeEnable, consumeFromMinEnable, consumeBroadcastEnable,
                    consumeMessageOrderly, retryQueueNums, retryMaxTimes, brokerId, whichBrokerWhenConsumeSlowly,
                    notifyConsumerIdsChangedEnable, groupSysFlag, consumeTimeoutMinute, attributes);
        }
    }
}
