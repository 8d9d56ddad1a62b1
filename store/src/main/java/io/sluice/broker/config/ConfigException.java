package io.sluice.broker.config;

/**
 * A configuration key or value is wrong. The message names the key, the value (when there is one) and the
 * source (a file path, or a description such as {@code "properties"}).
 *
 * <p>Immutable; thread-safe.
 */
public final class ConfigException extends IllegalArgumentException {

    private final String key;
    private final String source;

    /**
     * @param key     the offending key
     * @param source  where the key came from
     * @param message the full message
     * @param cause   the parse or validation failure, or null
     */
    ConfigException(String key, String source, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.source = source;
    }

    static ConfigException unknownKey(String key, String source) {
        return new ConfigException(key, source, "unknown key '" + key + "' in " + source, null);
    }

    static ConfigException duplicateKey(String key, String source) {
        return new ConfigException(key, source, "key '" + key + "' is set more than once in " + source, null);
    }

    static ConfigException badValue(String key, String value, String source, String reason, Throwable cause) {
        return new ConfigException(key, source, "bad value '" + value + "' for key '" + key + "' in " + source + ": "
                + reason, cause);
    }

    static ConfigException inconsistent(String key, String source, String reason) {
        return new ConfigException(key, source, "key '" + key + "' in " + source + ": " + reason, null);
    }

    /** The offending key. */
    public String key() {
        return key;
    }

    /** Where the key came from: a file path or a description. */
    public String source() {
        return source;
    }
}
