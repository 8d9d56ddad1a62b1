package io.sluice.broker.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The broker's settings as UPDATE_BROKER_CONFIG (25) changes them while it runs.
 *
 * <p>Only the keys in {@link #CHANGEABLE} change at run time; the component that reads each one registers how to
 * apply a new value ({@link #onChange}). An update is all or nothing: every key must be known, changeable and
 * valid (the whole configuration is validated again), else nothing changes and the {@link ConfigException} names
 * the first offending key. Accepted values are persisted in {@value #FILE_NAME} under
 * {@code <storePathRootDir>/config} (written to a temporary file, forced, then renamed over the old one) and
 * applied again over {@code broker.conf} when the broker starts ({@link #withPersisted}).
 *
 * <p>Thread-safe: {@link #update} is serialised on this object (the admin thread calls it); {@link #current} is a
 * volatile read.
 */
public final class RuntimeSettings {

    /** The file of persisted runtime changes, Java-properties text. */
    public static final String FILE_NAME = "runtime.properties";

    /** Keys that may change while the broker runs. */
    public static final Set<String> CHANGEABLE = Set.of(
            BrokerConfigKeys.AUTO_CREATE_SUBSCRIPTION_GROUP.name(),
            BrokerConfigKeys.CLIENT_CHANNEL_EXPIRED_TIMEOUT_MS.name());

    private final Path file;
    private final Map<String, Consumer<BrokerSettings>> appliers = new LinkedHashMap<>();
    /** Guarded by this object's monitor. */
    private final Map<String, String> persisted;
    private volatile BrokerSettings current;
    private volatile long changes;
    private volatile long lastChangeMs;

    private RuntimeSettings(BrokerSettings boot, Map<String, String> persisted, long bootMs) {
        this.file = fileOf(boot);
        this.persisted = new TreeMap<>(persisted);
        this.current = boot;
        this.lastChangeMs = bootMs;
    }

    /**
     * The settings of a starting broker: {@code boot} with the persisted runtime changes applied over it.
     *
     * @throws IOException     when the file exists and cannot be read
     * @throws ConfigException when the file names a key that is not changeable or holds an invalid value
     */
    public static RuntimeSettings withPersisted(BrokerSettings boot, long bootMs) throws IOException {
        Path file = fileOf(boot);
        Map<String, String> saved = new TreeMap<>();
        if (Files.exists(file)) {
            Properties properties = new Properties();
            properties.load(new StringReader(Files.readString(file, StandardCharsets.ISO_8859_1)));
            properties.forEach((k, v) -> saved.put(k.toString(), v.toString()));
        }
        RuntimeSettings settings = new RuntimeSettings(boot, Map.of(), bootMs);
        settings.current = settings.merged(saved, file.toString());
        settings.persisted.putAll(saved);
        return settings;
    }

    /** The settings in force. */
    public BrokerSettings current() {
        return current;
    }

    /** Updates accepted since the broker started. */
    public long changes() {
        return changes;
    }

    /** When the settings last changed (the boot time before any update), epoch ms. */
    public long lastChangeMs() {
        return lastChangeMs;
    }

    /** Registers how to apply a new value of {@code key} (one of {@link #CHANGEABLE}); called before updates. */
    public synchronized void onChange(ConfigKey<?> key, Consumer<BrokerSettings> applier) {
        if (!CHANGEABLE.contains(key.name())) {
            throw new IllegalArgumentException(key.name() + " is not changeable at run time");
        }
        appliers.put(key.name(), applier);
    }

    /**
     * Validates, persists and applies {@code changes} (key to text value).
     *
     * @param nowMs when the update happens
     * @throws ConfigException naming the key that is unknown, not changeable at run time, or invalid
     * @throws IOException     when the file cannot be written (nothing changed)
     */
    public synchronized void update(Map<String, String> changes, long nowMs) throws IOException {
        for (String key : changes.keySet()) {
            BrokerConfigKeys.find(key).orElseThrow(() -> ConfigException.unknownKey(key, "UPDATE_BROKER_CONFIG"));
            if (!CHANGEABLE.contains(key)) {
                throw new ConfigException(key, "UPDATE_BROKER_CONFIG", "key '" + key + "' cannot change while the"
                        + " broker runs (changeable: " + new TreeSet<>(CHANGEABLE)
                        + "); set it in broker.conf and restart", null);
            }
        }
        BrokerSettings next = merged(changes, "UPDATE_BROKER_CONFIG");
        Map<String, String> toPersist = new TreeMap<>(persisted);
        toPersist.putAll(changes);
        write(toPersist);
        persisted.clear();
        persisted.putAll(toPersist);
        current = next;
        this.changes++;
        lastChangeMs = nowMs;
        for (String key : changes.keySet()) {
            Consumer<BrokerSettings> applier = appliers.get(key);
            if (applier != null) {
                applier.accept(next);
            }
        }
    }

    private BrokerSettings merged(Map<String, String> overrides, String source) {
        BrokerSettings.Builder builder = BrokerSettings.builder(source);
        current.toProperties().forEach(builder::setText);
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            if (!CHANGEABLE.contains(e.getKey())) {
                throw new ConfigException(e.getKey(), source, "key '" + e.getKey() + "' in " + source
                        + " cannot change at run time", null);
            }
            builder.setText(e.getKey(), e.getValue().trim());
        }
        return builder.build();
    }

    private void write(Map<String, String> values) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder text = new StringBuilder("# Broker settings changed at run time (UPDATE_BROKER_CONFIG);"
                + " applied over broker.conf at start.\n");
        values.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.ISO_8859_1);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path fileOf(BrokerSettings settings) {
        return settings.storePathRootDir().resolve("config").resolve(FILE_NAME);
    }
}
