package io.sluice.broker.meta;

import java.nio.file.Path;

/**
 * Settings of a {@link MetadataStore}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param dir                directory of the RocksDB database (created if missing); the broker uses
 *                           {@code <storePathRootDir>/config/metadata}
 * @param maxTotalWalBytes   once the write-ahead log exceeds this many bytes, RocksDB flushes the column
 *                           families that pin old log files (the rarely written topic table would otherwise keep
 *                           every log file alive); at least 1 MiB
 */
public record MetadataSettings(Path dir, long maxTotalWalBytes) {

    /** Default {@code maxTotalWalBytes}: 64 MiB bounds both the log's disk use and the replay time at open. */
    public static final long DEFAULT_MAX_TOTAL_WAL_BYTES = 64L << 20;

    /** Validates the components. */
    public MetadataSettings {
        if (dir == null) {
            throw new IllegalArgumentException("metadata dir must not be null");
        }
        if (maxTotalWalBytes < (1L << 20)) {
            throw new IllegalArgumentException("maxTotalWalBytes " + maxTotalWalBytes + " is below 1 MiB");
        }
    }

    /** Settings with the default WAL limit. */
    public static MetadataSettings of(Path dir) {
        return new MetadataSettings(dir, DEFAULT_MAX_TOTAL_WAL_BYTES);
    }
}
