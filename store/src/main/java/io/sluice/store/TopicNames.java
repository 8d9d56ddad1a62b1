package io.sluice.store;

import java.util.Set;

/**
 * Naming rules for topics and consumer groups, as Apache RocketMQ brokers and clients apply them.
 *
 * <ul>
 *   <li>Allowed characters: {@code %}, {@code |}, {@code a-z}, {@code A-Z}, {@code 0-9}, {@code _}, {@code -}
 *       (Apache's {@code ^[%|a-zA-Z0-9_-]+$}). The names are therefore pure ASCII, one byte per character in
 *       UTF-8, and can never contain the {@code 0x00} separator used in the broker's metadata keys.</li>
 *   <li>Topic length: at most {@value #MAX_TOPIC_LENGTH} characters; {@code %RETRY%<group>} and
 *       {@code %DLQ%<group>} topics may have up to {@value #MAX_RETRY_TOPIC_LENGTH}.</li>
 *   <li>Group length: at most {@value #MAX_GROUP_LENGTH} characters, so that the group's retry and
 *       dead-letter topics always fit the {@value #MAX_RETRY_TOPIC_LENGTH}-character limit.</li>
 *   <li>System topics (Apache's {@code TopicValidator} set, plus every name starting with
 *       {@value #SYSTEM_TOPIC_PREFIX}) exist only because the broker creates them; an admin request may not
 *       create or delete them ({@link #validateUserTopic}).</li>
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
public final class TopicNames {

    /** Longest ordinary topic name, in characters. */
    public static final int MAX_TOPIC_LENGTH = 127;
    /** Longest {@code %RETRY%}/{@code %DLQ%} topic name, in characters. */
    public static final int MAX_RETRY_TOPIC_LENGTH = 255;
    /** Longest group name: 255 minus the 7 characters of {@code %RETRY%}. */
    public static final int MAX_GROUP_LENGTH = MAX_RETRY_TOPIC_LENGTH - 7;

    /** Prefix of a consumer group's retry topic. */
    public static final String RETRY_TOPIC_PREFIX = "%RETRY%";
    /** Prefix of a consumer group's dead-letter topic. */
    public static final String DLQ_TOPIC_PREFIX = "%DLQ%";
    /** Every topic starting with this is a system topic. */
    public static final String SYSTEM_TOPIC_PREFIX = "rmq_sys_";

    /** The auto-create template topic the producer falls back to when a route is missing. */
    public static final String AUTO_CREATE_TOPIC_KEY_TOPIC = "TBW102";
    /** Where delay-level messages wait until they are due. */
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    /** Where timer messages wait until they are due (Apache's name). */
    public static final String TIMER_TOPIC = "rmq_sys_wheel_timer";
    /** A one-queue topic every broker provides for connectivity checks. */
    public static final String SELF_TEST_TOPIC = "SELF_TEST_TOPIC";
    /** A one-queue topic every broker provides; Apache records consumer offset resets there. */
    public static final String OFFSET_MOVED_EVENT = "OFFSET_MOVED_EVENT";
    /** The default message-trace topic: clients with message trace enabled send their trace records there. */
    public static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";

    private static final Set<String> SYSTEM_TOPICS = Set.of(
            AUTO_CREATE_TOPIC_KEY_TOPIC,
            SCHEDULE_TOPIC,
            TIMER_TOPIC,
            "BenchmarkTest",
            "RMQ_SYS_TRANS_HALF_TOPIC",
            TRACE_TOPIC,
            "RMQ_SYS_TRANS_OP_HALF_TOPIC",
            "TRANS_CHECK_MAX_TIME_TOPIC",
            SELF_TEST_TOPIC,
            OFFSET_MOVED_EVENT,
            "CHECKPOINT_TOPIC");

    /** System topics a producer may never send to (they are written only by the broker itself). */
    private static final Set<String> NOT_SENDABLE_TOPICS = Set.of(
            SCHEDULE_TOPIC,
            TIMER_TOPIC,
            "RMQ_SYS_TRANS_HALF_TOPIC",
            "RMQ_SYS_TRANS_OP_HALF_TOPIC",
            "TRANS_CHECK_MAX_TIME_TOPIC",
            "SELF_TEST_TOPIC",
            "OFFSET_MOVED_EVENT");

    private TopicNames() {
    }

    /**
     * Checks a topic name's syntax and length. System topics pass: the broker creates them through here.
     *
     * @return {@code topic}, for chaining
     * @throws IllegalArgumentException naming the topic and the rule it breaks
     */
    public static String validate(String topic) {
        String problem = topicProblem(topic);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return topic;
    }

    /**
     * Checks a topic name that a client or an admin wants to create or delete: {@link #validate} plus "not a
     * system topic".
     *
     * @throws IllegalArgumentException naming the topic and the rule it breaks
     */
    public static String validateUserTopic(String topic) {
        validate(topic);
        if (isSystemTopic(topic)) {
            throw new IllegalArgumentException("The topic[" + topic + "] is conflict with system topic.");
        }
        return topic;
    }

    /** True when {@code topic} passes {@link #validate}; allocation-free, for hot paths. */
    public static boolean isValid(String topic) {
        return topic != null && !topic.isEmpty() && hasOnlyLegalChars(topic) && topic.length() <= maxLength(topic);
    }

    /** True when {@code group} passes {@link #validateGroup}; allocation-free, for hot paths. */
    public static boolean isValidGroup(String group) {
        return group != null && !group.isEmpty() && group.length() <= MAX_GROUP_LENGTH && hasOnlyLegalChars(group);
    }

    /**
     * Checks a consumer or producer group name.
     *
     * @return {@code group}, for chaining
     * @throws IllegalArgumentException naming the group and the rule it breaks
     */
    public static String validateGroup(String group) {
        if (group == null || group.isEmpty()) {
            throw new IllegalArgumentException("group name must not be empty");
        }
        if (!hasOnlyLegalChars(group)) {
            throw new IllegalArgumentException("group name '" + group
                    + "' contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$");
        }
        if (group.length() > MAX_GROUP_LENGTH) {
            throw new IllegalArgumentException("group name '" + group + "' is " + group.length()
                    + " characters long, the maximum is " + MAX_GROUP_LENGTH);
        }
        return group;
    }

    /** True for the fixed Apache system topics and every topic starting with {@value #SYSTEM_TOPIC_PREFIX}. */
    public static boolean isSystemTopic(String topic) {
        return SYSTEM_TOPICS.contains(topic) || topic.startsWith(SYSTEM_TOPIC_PREFIX);
    }

    /** True for system topics that only the broker writes (a producer sending there gets NO_PERMISSION). */
    public static boolean isNotSendable(String topic) {
        return NOT_SENDABLE_TOPICS.contains(topic);
    }

    /** True for {@code %RETRY%<group>}. */
    public static boolean isRetryTopic(String topic) {
        return topic.startsWith(RETRY_TOPIC_PREFIX);
    }

    /** True for {@code %DLQ%<group>}. */
    public static boolean isDlqTopic(String topic) {
        return topic.startsWith(DLQ_TOPIC_PREFIX);
    }

    /** The retry topic of {@code group}; the group name is validated. */
    public static String retryTopic(String group) {
        return RETRY_TOPIC_PREFIX + validateGroup(group);
    }

    /** The dead-letter topic of {@code group}; the group name is validated. */
    public static String dlqTopic(String group) {
        return DLQ_TOPIC_PREFIX + validateGroup(group);
    }

    private static String topicProblem(String topic) {
        if (topic == null || topic.isEmpty()) {
            return "topic name must not be empty";
        }
        if (!hasOnlyLegalChars(topic)) {
            return "topic name '" + topic + "' contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$";
        }
        int max = maxLength(topic);
        if (topic.length() > max) {
            return "topic name '" + topic + "' is " + topic.length() + " characters long, the maximum is " + max;
        }
        return null;
    }

    private static int maxLength(String topic) {
        return isRetryTopic(topic) || isDlqTopic(topic) ? MAX_RETRY_TOPIC_LENGTH : MAX_TOPIC_LENGTH;
    }

    static boolean hasOnlyLegalChars(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (!isLegalChar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isLegalChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '%' || c == '|' || c == '_' || c == '-';
    }
}
