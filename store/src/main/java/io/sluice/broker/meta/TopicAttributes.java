package io.sluice.broker.meta;

import io.sluice.format.ConsumeQueueType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The topic attributes Sluice knows and the Apache rules for changing them with an attribute string such as
 * {@code +queue.type=BatchCQ,+message.type=NORMAL,-other}.
 *
 * <p>Syntax: comma-separated {@code +key=value} (add or update) and {@code -key} (delete) entries, each key once,
 * without {@code +} or {@code -} in it; a blank string means "no change".
 *
 * <p>Known attributes:
 * <pre>
 *   key             values                                              default   changeable after creation
 *   queue.type      BatchCQ, SimpleCQ                                   SimpleCQ  no
 *   cleanup.policy  DELETE (COMPACTION is not supported by Sluice)      DELETE    no
 *   message.type    UNSPECIFIED, NORMAL, FIFO, DELAY, TRANSACTION,      NORMAL    yes
 *                   MIXED
 * </pre>
 * {@code message.type} is a declaration: Sluice serves timer (DELAY) and transactional messages on any topic.
 * Apache's {@code reserve.time} needs a tiered store, which Sluice does not have, so it is unknown here.
 *
 * <p>Stateless; thread-safe.
 */
public final class TopicAttributes {

    /** The cleanup policy attribute key. */
    public static final String CLEANUP_POLICY = "cleanup.policy";
    /** The message type attribute key. */
    public static final String MESSAGE_TYPE = "message.type";

    private record Known(List<String> values, boolean changeable) {
    }

    private static final Map<String, Known> KNOWN = Map.of(
            ConsumeQueueType.ATTRIBUTE_KEY, new Known(List.of("BatchCQ", "SimpleCQ"), false),
            CLEANUP_POLICY, new Known(List.of("DELETE"), false),
            MESSAGE_TYPE, new Known(List.of("UNSPECIFIED", "NORMAL", "FIFO", "DELAY", "TRANSACTION", "MIXED"),
                    true));

    private TopicAttributes() {
    }

    /**
     * The attributes of a topic being created: only {@code +} entries are allowed.
     *
     * @param spec the attribute string from the request (may be null or blank)
     * @return the attribute map, sorted, unmodifiable
     * @throws IllegalArgumentException naming the entry, key or value that is wrong
     */
    public static Map<String, String> forCreate(String spec) {
        Map<String, String> result = new TreeMap<>();
        for (Map.Entry<String, String> change : parse(spec).entrySet()) {
            String key = change.getKey();
            if (change.getValue() == null) {
                throw new IllegalArgumentException("only add attribute is supported while creating topic. key: " + key);
            }
            result.put(key, checkValue(key, change.getValue()));
        }
        return Collections.unmodifiableMap(result);
    }

    /**
     * The attributes of an existing topic after applying {@code spec}.
     *
     * @param current the topic's current attributes
     * @param spec    the attribute string from the request (may be null or blank)
     * @return the new attribute map, sorted, unmodifiable
     * @throws IllegalArgumentException naming the key when it is unknown, unchangeable, absent on delete or has a
     *                                  bad value
     */
    public static Map<String, String> forUpdate(Map<String, String> current, String spec) {
        Map<String, String> result = new TreeMap<>(current);
        for (Map.Entry<String, String> change : parse(spec).entrySet()) {
            String key = change.getKey();
            Known known = known(key);
            if (!known.changeable()) {
                throw new IllegalArgumentException("attempt to update an unchangeable attribute. key: " + key);
            }
            if (change.getValue() == null) {
                if (result.remove(key) == null) {
                    throw new IllegalArgumentException("attempt to delete a nonexistent key: " + key);
                }
            } else {
                result.put(key, checkValue(key, change.getValue()));
            }
        }
        return Collections.unmodifiableMap(result);
    }

    /**
     * Parses an attribute string into key to new value, where a {@code null} value means "delete".
     *
     * @throws IllegalArgumentException naming the malformed entry or the duplicate key
     */
    static Map<String, String> parse(String spec) {
        Map<String, String> changes = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return changes;
        }
        for (String raw : spec.split(",", -1)) {
            String entry = raw.trim();
            String key;
            String value;
            int eq = entry.indexOf('=');
            if (eq >= 0) {
                if (!entry.startsWith("+")) {
                    throw new IllegalArgumentException("attribute entry '" + entry + "' has '=' but does not start"
                            + " with '+'");
                }
                key = entry.substring(1, eq);
                value = entry.substring(eq + 1);
                if (value.isEmpty()) {
                    throw new IllegalArgumentException("attribute entry '" + entry + "' has no value");
                }
            } else {
                if (!entry.startsWith("-")) {
                    throw new IllegalArgumentException("attribute entry '" + entry
                            + "' must be '+key=value' or '-key'");
                }
                key = entry.substring(1);
                value = null;
            }
            if (key.isEmpty() || key.indexOf('+') >= 0 || key.indexOf('-') >= 0) {
                throw new IllegalArgumentException("attribute entry '" + entry + "' has an illegal key '" + key + "'");
            }
            if (changes.containsKey(key)) {
                throw new IllegalArgumentException("attribute key '" + key + "' appears more than once");
            }
            changes.put(key, value);
        }
        return changes;
    }

    private static Known known(String key) {
        Known known = KNOWN.get(key);
        if (known == null) {
            throw new IllegalArgumentException("unsupported key: " + key + " (known: " + new TreeMap<>(KNOWN).keySet()
                    + ")");
        }
        return known;
    }

    private static String checkValue(String key, String value) {
        Known known = known(key);
        if (!known.values().contains(value)) {
            throw new IllegalArgumentException("value '" + value + "' is not allowed for attribute " + key
                    + ", expected one of " + known.values());
        }
        return value;
    }
}
