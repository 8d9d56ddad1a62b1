package io.sluice.broker.config;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Reads broker configuration: the only code that reads configuration files or the environment.
 *
 * <p>Format: Java properties ({@code key=value} lines, {@code #} or {@code !} comments, UTF-8); surrounding
 * whitespace of values is ignored. Every key must be one of {@link BrokerConfigKeys}: an unknown key (a typo, or
 * an Apache feature Sluice does not have) is an error naming the key and the file, as is a key set twice or a
 * bad value. Unset keys take their defaults; {@code storePathRootDir} defaults to {@code ${user.home}/store}.
 *
 * <p>Stateless; thread-safe.
 */
public final class BrokerConfigLoader {

    private BrokerConfigLoader() {
    }

    /**
     * The settings of an embedded standalone broker: every default.
     *
     * @throws ConfigException never in practice (the defaults are consistent)
     */
    public static BrokerSettings defaults() {
        return parse(new Properties(), "defaults");
    }

    /**
     * Loads a {@code broker.conf} file.
     *
     * @throws ConfigException naming the key, the value and the file when a key is unknown, repeated or invalid
     * @throws IOException     when the file cannot be read
     */
    public static BrokerSettings load(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return parseText(text, file.toString());
    }

    /**
     * Parses properties text.
     *
     * @throws ConfigException naming the key and the value when a key is unknown, repeated or invalid
     */
    public static BrokerSettings parse(String text) {
        return parseText(text, "properties text");
    }

    /**
     * Parses properties already loaded (e.g. from command-line {@code -Dkey=value}).
     *
     * @param source what to name in error messages
     * @throws ConfigException naming the key, the value and the source when a key is unknown or invalid
     */
    public static BrokerSettings parse(Properties properties, String source) {
        BrokerSettings.Builder builder = BrokerSettings.builder(source);
        for (String name : properties.stringPropertyNames()) {
            builder.setText(name, properties.getProperty(name));
        }
        if (!builder.isSet(BrokerConfigKeys.STORE_PATH_ROOT_DIR)) {
            builder.set(BrokerConfigKeys.STORE_PATH_ROOT_DIR, Path.of(System.getProperty("user.home"), "store"));
        }
        return builder.build();
    }

    private static BrokerSettings parseText(String text, String source) {
        DuplicateRejectingProperties properties = new DuplicateRejectingProperties(source);
        try (Reader reader = new StringReader(text)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalStateException("reading from a string failed", e);
        } catch (IllegalArgumentException e) {
            if (e instanceof ConfigException) {
                throw e;
            }
            throw new ConfigException(null, source, "malformed properties in " + source + ": " + e.getMessage(), e);
        }
        return parse(properties, source);
    }

    /** Properties that refuse a second value for a key while loading. Confined to the loading thread. */
    private static final class DuplicateRejectingProperties extends Properties {
        private final String source;

        DuplicateRejectingProperties(String source) {
            this.source = source;
        }

        @Override
        public synchronized Object put(Object key, Object value) {
            if (containsKey(key)) {
                throw ConfigException.duplicateKey(String.valueOf(key), source);
            }
            return super.put(key, value);
        }
    }
}
