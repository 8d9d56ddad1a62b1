package io.sluice.broker.config;

import java.util.Locale;

/**
 * How index entries are built from the CommitLog ({@code dispatchMode}).
 *
 * <p>Immutable; thread-safe.
 */
public enum DispatchMode {
    /** Parsing of new CommitLog data overlaps with index writes; each queue's entries stay in CommitLog order. */
    PIPELINED,
    /** One thread parses and indexes every record in order (Apache's default reput). */
    SERIAL;

    /** The spelling in {@code broker.conf}: {@code pipelined} or {@code serial}. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code pipelined} or {@code serial}, case-insensitively.
     *
     * @throws IllegalArgumentException when the value is neither
     */
    public static DispatchMode fromConfig(String value) {
        for (DispatchMode mode : values()) {
            if (mode.configValue().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("expected pipelined | serial");
    }
}
