package io.sluice.store.dispatch;

import java.util.Locale;

/**
 * Which dispatcher a store runs after recovery ({@link DispatchSettings#mode()}); the broker's
 * {@code dispatchMode} setting.
 *
 * <p>Immutable; thread-safe.
 */
public enum DispatchMode {
    /** {@link SerialDispatcher}: one thread parses and indexes every record in order. */
    SERIAL,
    /**
     * {@link io.sluice.store.dispatch.pipeline.PipelinedDispatcher}: record-aligned chunks parsed in parallel,
     * indexed in order by one writer; same consume queues as SERIAL.
     */
    PIPELINED;

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
