package io.sluice.store;

import io.sluice.store.dispatch.DispatchSettings;
import io.sluice.store.index.IndexSettings;
import io.sluice.store.keyindex.KeyIndexSettings;
import io.sluice.store.log.LogSettings;
import io.sluice.store.retention.RetentionSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of a {@link MessageStore}: the slices of each component plus the checkpoint period. Validated on
 * construction; the exception names the bad value.
 *
 * <p>Directory layout under {@code rootDir}: {@code commitlog/} (unless {@code log.commitLogDir} points elsewhere),
 * {@code consumequeue/}, {@code batchconsumequeue/}, {@code index/} (the key index), {@code checkpoint}, {@code abort},
 * {@code lock}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param rootDir              the store directory
 * @param log                  the CommitLog (segment size, max message size, flush mode, store host, ...)
 * @param index                the consume queues; {@code index.rootDir} must be {@code rootDir}
 * @param retention            retention and disk protection
 * @param dispatch             dispatch
 * @param keyIndex             the key index (message keys and unique keys to CommitLog positions)
 * @param checkpointIntervalMs period of "flush every consume queue, then persist the dispatched position"
 *                             (Apache {@code flushIntervalConsumeQueue}, 1000 ms): bounds how much a crash
 *                             recovery re-dispatches
 */
public record StoreSettings(Path rootDir, LogSettings log, IndexSettings index, RetentionSettings retention,
                            DispatchSettings dispatch, KeyIndexSettings keyIndex, int checkpointIntervalMs) {

    public static final int DEFAULT_CHECKPOINT_INTERVAL_MS = 1_000;
    /** Name of the CommitLog directory under the root, by default. */
    public static final String COMMIT_LOG_DIR = "commitlog";

    public StoreSettings {
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(dispatch, "dispatch");
        Objects.requireNonNull(keyIndex, "keyIndex");
        if (!index.rootDir().equals(rootDir)) {
            throw new IllegalArgumentException("index.rootDir " + index.rootDir() + " must be the store rootDir "
                    + rootDir);
        }
        if (index.logSegmentBytes() != 0 && index.logSegmentBytes() != log.segmentBytes()) {
            throw new IllegalArgumentException("index.logSegmentBytes " + index.logSegmentBytes()
                    + " must be the CommitLog's segmentBytes " + log.segmentBytes());
        }
        if (checkpointIntervalMs < 1) {
            throw new IllegalArgumentException("checkpointIntervalMs must be >= 1, was " + checkpointIntervalMs);
        }
    }

    /** Defaults everywhere: CommitLog in {@code <rootDir>/commitlog}, Apache's sizes and periods. */
    public static StoreSettings defaults(Path rootDir, InetSocketAddress storeHost) {
        return builder(rootDir, storeHost).build();
    }

    /** A builder starting from {@link #defaults}. */
    public static Builder builder(Path rootDir, InetSocketAddress storeHost) {
        return new Builder(rootDir, storeHost);
    }

    public StoreSettings withLog(LogSettings value) {
        return new StoreSettings(rootDir, value, index, retention, dispatch, keyIndex, checkpointIntervalMs);
    }

    public StoreSettings withIndex(IndexSettings value) {
        return new StoreSettings(rootDir, log, value, retention, dispatch, keyIndex, checkpointIntervalMs);
    }

    public StoreSettings withRetention(RetentionSettings value) {
        return new StoreSettings(rootDir, log, index, value, dispatch, keyIndex, checkpointIntervalMs);
    }

    public StoreSettings withDispatch(DispatchSettings value) {
        return new StoreSettings(rootDir, log, index, retention, value, keyIndex, checkpointIntervalMs);
    }

    public StoreSettings withKeyIndex(KeyIndexSettings value) {
        return new StoreSettings(rootDir, log, index, retention, dispatch, value, checkpointIntervalMs);
    }

    public StoreSettings withCheckpointIntervalMs(int value) {
        return new StoreSettings(rootDir, log, index, retention, dispatch, keyIndex, value);
    }

    /**
     * Builds {@link StoreSettings}; the CommitLog slice is built from {@link #log()}, a
     * {@link LogSettings.Builder} pre-set to {@code <rootDir>/commitlog} and the store host. Not thread-safe.
     */
    public static final class Builder {
        private final Path rootDir;
        private final LogSettings.Builder log;
        private IndexSettings index;
        private RetentionSettings retention = RetentionSettings.defaults();
        private DispatchSettings dispatch = DispatchSettings.defaults();
        private KeyIndexSettings keyIndex;
        private int checkpointIntervalMs = DEFAULT_CHECKPOINT_INTERVAL_MS;

        private Builder(Path rootDir, InetSocketAddress storeHost) {
            this.rootDir = Objects.requireNonNull(rootDir, "rootDir");
            this.log = LogSettings.builder(rootDir.resolve(COMMIT_LOG_DIR), storeHost);
            this.index = IndexSettings.defaults(rootDir);
            this.keyIndex = KeyIndexSettings.defaults(rootDir);
        }

        /** The CommitLog settings builder, to adjust in place. */
        /** The store root the settings are built for. */
        public Path rootDir() {
            return rootDir;
        }

        public LogSettings.Builder log() {
            return log;
        }

        public Builder index(IndexSettings value) {
            this.index = value;
            return this;
        }

        public Builder retention(RetentionSettings value) {
            this.retention = value;
            return this;
        }

        public Builder dispatch(DispatchSettings value) {
            this.dispatch = value;
            return this;
        }

        public Builder keyIndex(KeyIndexSettings value) {
            this.keyIndex = value;
            return this;
        }

        public Builder checkpointIntervalMs(int value) {
            this.checkpointIntervalMs = value;
            return this;
        }

        public StoreSettings build() {
            return new StoreSettings(rootDir, log.build(), index, retention, dispatch, keyIndex, checkpointIntervalMs);
        }
    }
}
