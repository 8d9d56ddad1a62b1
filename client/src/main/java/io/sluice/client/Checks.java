package io.sluice.client;

import java.util.regex.Pattern;

/** Argument checks shared by the settings classes and the send path; each exception names the bad value. */
final class Checks {
    private static final Pattern NAME = Pattern.compile("^[%|a-zA-Z0-9_-]+$");
    /** Longest topic a client may use (the broker allows 255 only for retry and dead-letter topics). */
    static final int MAX_TOPIC_LENGTH = 127;
    /** Longest group name. */
    static final int MAX_GROUP_LENGTH = 255;

    private Checks() {
    }

    static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }

    static int notNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }

    static long notNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }

    static long range(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], was " + value);
        }
        return value;
    }

    /** A topic name: 1..127 characters of {@code [%|a-zA-Z0-9_-]}. */
    static String topic(String topic) {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("topic must not be empty, was '" + topic + "'");
        }
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw new IllegalArgumentException("topic '" + topic + "' is " + topic.length()
                    + " characters long, the limit is " + MAX_TOPIC_LENGTH);
        }
        if (!NAME.matcher(topic).matches()) {
            throw new IllegalArgumentException("topic '" + topic + "' contains characters outside [%|a-zA-Z0-9_-]");
        }
        return topic;
    }

    /** A group name: 1..255 characters of {@code [%|a-zA-Z0-9_-]}. */
    static String group(String name, String group) {
        if (group == null || group.isEmpty() || group.length() > MAX_GROUP_LENGTH || !NAME.matcher(group).matches()) {
            throw new IllegalArgumentException(name + " must be 1.." + MAX_GROUP_LENGTH
                    + " characters of [%|a-zA-Z0-9_-], was '" + group + "'");
        }
        return group;
    }
}
