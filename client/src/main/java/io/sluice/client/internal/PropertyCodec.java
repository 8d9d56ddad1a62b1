package io.sluice.client.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The message properties string (docs/wire-protocol.md#properties): {@code name 0x01 value 0x02} per pair, the last
 * pair terminated too.
 *
 * <p>Parsing follows the Apache rules: split on 0x02; in each piece the first 0x01 separates name and value; a
 * piece is kept only when both are non-empty; a later duplicate wins; a trailing 0x02 is optional.
 *
 * <p>Stateless; thread-safe.
 */
public final class PropertyCodec {
    /** Separates a name from its value. */
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    /** Ends a pair. */
    public static final char PAIR_SEPARATOR = '\u0002';

    private PropertyCodec() {
    }

    /** Parses a properties string into a new mutable map in string order; null or empty gives an empty map. */
    public static Map<String, String> parse(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        if (text == null) {
            return map;
        }
        int length = text.length();
        int start = 0;
        while (start < length) {
            int end = text.indexOf(PAIR_SEPARATOR, start);
            if (end < 0) {
                end = length;
            }
            int separator = text.indexOf(NAME_VALUE_SEPARATOR, start);
            if (separator > start && separator < end - 1) {
                map.put(text.substring(start, separator), text.substring(separator + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    /** Encodes pairs in iteration order; pairs whose value is null are skipped. */
    public static String encode(Map<String, String> properties) {
        StringBuilder text = new StringBuilder(properties.size() * 24);
        for (Map.Entry<String, String> pair : properties.entrySet()) {
            if (pair.getValue() != null) {
                append(text, pair.getKey(), pair.getValue());
            }
        }
        return text.toString();
    }

    /** Appends one terminated pair to {@code text}. */
    public static StringBuilder append(StringBuilder text, String name, String value) {
        return text.append(name).append(NAME_VALUE_SEPARATOR).append(value).append(PAIR_SEPARATOR);
    }

    /**
     * Checks a user-supplied pair.
     *
     * @throws IllegalArgumentException naming the pair when the name is empty, reserved or contains a separator,
     *     or the value is empty or contains a separator
     */
    public static void validateUserProperty(String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("property name must not be empty, was '" + name + "'");
        }
        if (PropertyKeys.RESERVED.contains(name)) {
            throw new IllegalArgumentException("property name '" + name + "' is reserved for the client or broker");
        }
        if (containsSeparator(name)) {
            throw new IllegalArgumentException("property name '" + name + "' contains 0x01 or 0x02");
        }
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("value of property '" + name + "' must not be empty");
        }
        if (containsSeparator(value)) {
            throw new IllegalArgumentException("value of property '" + name + "' contains 0x01 or 0x02");
        }
    }

    /** True when {@code text} contains 0x01 or 0x02. */
    public static boolean containsSeparator(String text) {
        return text.indexOf(NAME_VALUE_SEPARATOR) >= 0 || text.indexOf(PAIR_SEPARATOR) >= 0;
    }
}
