package io.sluice.broker.config;

import java.util.Locale;
import java.util.function.Function;

/**
 * The single definition of one configuration key: name, type, default, unit, documentation, and how a text value
 * is parsed, validated and printed.
 *
 * <p>Immutable; thread-safe.
 *
 * @param <T> the value type
 */
public final class ConfigKey<T> {

    private final String name;
    private final String typeName;
    private final T defaultValue;
    private final String defaultDoc;
    private final String unit;
    private final String doc;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;

    private ConfigKey(String name, String typeName, T defaultValue, String defaultDoc, String unit, String doc,
                      Function<String, T> parser, Function<T, String> formatter) {
        this.name = name;
        this.typeName = typeName;
        this.defaultValue = defaultValue;
        this.defaultDoc = defaultDoc;
        this.unit = unit;
        this.doc = doc;
        this.parser = parser;
        this.formatter = formatter;
    }

    /**
     * A key of any type.
     *
     * @param parser parses and validates a trimmed text value; throws {@link IllegalArgumentException} with the
     *               reason (without the key, which the caller adds)
     * @param formatter prints a value so that {@code parser} reads it back
     * @param defaultValue the default, or null when the default depends on the environment or other keys (then
     *                     {@code defaultDoc} says what it is)
     */
    static <T> ConfigKey<T> of(String name, String typeName, T defaultValue, String defaultDoc, String unit, String doc,
                               Function<String, T> parser, Function<T, String> formatter) {
        return new ConfigKey<>(name, typeName, defaultValue,
                defaultDoc != null ? defaultDoc : formatter.apply(defaultValue), unit, doc, parser, formatter);
    }

    /** An int key with an inclusive range. */
    static ConfigKey<Integer> ofInt(String name, int defaultValue, int min, int max, String unit, String doc) {
        return of(name, "int", defaultValue, null, unit, doc, raw -> checkRange(parseLong(raw), min, max).intValue(),
                String::valueOf);
    }

    /** A long key with an inclusive range. */
    static ConfigKey<Long> ofLong(String name, long defaultValue, long min, long max, String unit, String doc) {
        return of(name, "long", defaultValue, null, unit, doc, raw -> checkRange(parseLong(raw), min, max),
                String::valueOf);
    }

    /** A boolean key: {@code true} or {@code false}, case-insensitive. */
    static ConfigKey<Boolean> ofBoolean(String name, boolean defaultValue, String doc) {
        return of(name, "boolean", defaultValue, null, "", doc, ConfigKey::parseBoolean, String::valueOf);
    }

    /** An enum key spelled by constant name. */
    static <E extends Enum<E>> ConfigKey<E> ofEnum(String name, Class<E> type, E defaultValue, String doc) {
        return of(name, "enum", defaultValue, null, "", doc, raw -> parseEnum(type, raw), Enum::name);
    }

    /** The key's name as written in {@code broker.conf}. */
    public String name() {
        return name;
    }

    /** A short type description for the reference table. */
    public String typeName() {
        return typeName;
    }

    /** True when the key has a fixed default. */
    public boolean hasDefault() {
        return defaultValue != null;
    }

    /**
     * The fixed default.
     *
     * @throws IllegalStateException when the default depends on the environment or other keys
     */
    public T defaultValue() {
        if (defaultValue == null) {
            throw new IllegalStateException("key " + name + " has no fixed default: " + defaultDoc);
        }
        return defaultValue;
    }

    /** The default as documented (a value, or a description such as {@code ${user.home}/store}). */
    public String defaultDoc() {
        return defaultDoc;
    }

    /** The unit of the value ({@code ms}, {@code bytes}, {@code hours}, {@code %}), or empty. */
    public String unit() {
        return unit;
    }

    /** What the key means. */
    public String doc() {
        return doc;
    }

    /**
     * Parses and validates a text value (surrounding whitespace ignored).
     *
     * @throws IllegalArgumentException with the reason
     */
    public T parse(String raw) {
        return parser.apply(raw.trim());
    }

    /** Prints a value in the form {@link #parse} reads. */
    public String format(T value) {
        return formatter.apply(value);
    }

    @Override
    public String toString() {
        return name;
    }

    private static long parseLong(String raw) {
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer", e);
        }
    }

    private static Long checkRange(long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("out of range " + min + ".." + max);
        }
        return value;
    }

    private static Boolean parseBoolean(String raw) {
        return switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("expected true or false");
        };
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String raw) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(raw)) {
                return constant;
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : " | ").append(constant.name());
        }
        throw new IllegalArgumentException("expected " + allowed);
    }
}
