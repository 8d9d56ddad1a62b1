package io.sluice.benchmark.omb;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Typed reads of a driver YAML's top-level keys. Every read names the key it reads, so that {@link #requireAllRead}
 * can refuse keys nothing read (a misspelt key must not silently leave a default in place). Not thread-safe: one
 * instance reads one file once.
 */
final class YamlKeys {
    private final Map<String, Object> values;
    private final Set<String> read = new LinkedHashSet<>();

    YamlKeys(Map<String, Object> values) {
        this.values = new LinkedHashMap<>(values);
    }

    /** Marks keys that belong to another reader (OMB reads {@code name} and {@code driverClass} itself). */
    void skip(String... keys) {
        read.addAll(List.of(keys));
    }

    String text(String key, String fallback) {
        return typed(key, fallback, String.class, "a string");
    }

    boolean flag(String key, boolean fallback) {
        return typed(key, fallback, Boolean.class, "true or false");
    }

    long number(String key, long fallback) {
        Number value = typed(key, fallback, Number.class, "a whole number");
        if (value instanceof Integer || value instanceof Long) {
            return value.longValue();
        }
        throw bad(key, value, "a whole number");
    }

    int smallNumber(String key, int fallback) {
        long value = number(key, fallback);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw bad(key, value, "a 32-bit whole number");
        }
        return (int) value;
    }

    /** Fails naming every key of the file that no read asked for. */
    void requireAllRead() {
        Set<String> unknown = new LinkedHashSet<>(values.keySet());
        unknown.removeAll(read);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown driver key(s) " + unknown + "; known: " + read);
        }
    }

    /** The key's value as a {@code type}, or {@code fallback} when the file does not have the key. */
    private <T> T typed(String key, T fallback, Class<T> type, String wanted) {
        Object value = take(key);
        if (value == null) {
            return fallback;
        }
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        throw bad(key, value, wanted);
    }

    /** The key's value, or null when the file does not have the key; a key without a value is an error. */
    private Object take(String key) {
        read.add(key);
        Object value = values.get(key);
        if (value == null && values.containsKey(key)) {
            throw new IllegalArgumentException(key + " has no value");
        }
        return value;
    }

    private static IllegalArgumentException bad(String key, Object value, String wanted) {
        return new IllegalArgumentException(key + " must be " + wanted + ", not '" + value + "'");
    }
}
