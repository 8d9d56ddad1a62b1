package io.sluice.store.keyindex;

import io.sluice.store.log.CommitLog;
import io.sluice.store.log.ReadResult;
import io.sluice.store.log.ScanResult;
import io.sluice.store.log.ScanStatus;
import io.sluice.store.thread.AgentHost;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.agrona.concurrent.EpochClock;

/**
 * The store's key index: finds the records carrying a message key or a unique key within a store-time range,
 * through hash-slot files ({@link KeyIndexDescriptor}) written by {@code sluice-key-index} ({@link KeyIndexAgent}),
 * which follows dispatch and is woken by it ({@link #onDispatched()}). A lookup reads one slot and its chain per
 * file, then checks each candidate record, so its cost grows with the number of files (one per
 * {@code entriesPerFile} keys), not with the messages stored.
 *
 * <p>Lifecycle: {@link #open} (recovers the files), {@link #start}, then {@link #close} (final checkpoint) or
 * {@link #halt} (as a crash leaves it). {@link #find}, {@link #stats} and {@link #onDispatched()} from any
 * thread.
 */
public final class KeyIndex implements AutoCloseable {

    private final KeyIndexSettings settings;
    private final CommitLog log;
    private final KeyIndexFiles files;
    private final KeyIndexAgent agent;
    /** Runs {@link #agent}; null when the index is disabled. */
    private final AgentHost thread;
    private final KeyIndexCounters counters;

    private KeyIndex(KeyIndexSettings settings, CommitLog log, KeyIndexFiles files, KeyIndexAgent agent,
                     KeyIndexCounters counters) {
        this.settings = settings;
        this.log = log;
        this.files = files;
        this.agent = agent;
        this.thread = agent == null ? null : new AgentHost(agent, agent.idleStrategy());
        this.counters = counters;
    }

    /**
     * Opens the index files of {@code settings.dir()} and prepares indexing from their checkpoint (nothing is
     * opened when the index is disabled).
     *
     * @param log                the recovered CommitLog
     * @param dispatchedPosition how far dispatch has gone: records below it are indexed
     * @throws IOException when the directory cannot be read or a damaged file cannot be deleted
     */
    public static KeyIndex open(KeyIndexSettings settings, CommitLog log, LongSupplier dispatchedPosition,
                                EpochClock clock) throws IOException {
        KeyIndexCounters counters = new KeyIndexCounters();
        if (!settings.enabled()) {
            return new KeyIndex(settings, log, null, null, counters);
        }
        KeyIndexFiles files = KeyIndexFiles.open(settings, log.minPosition(), log.writtenPosition());
        KeyIndexAgent agent = new KeyIndexAgent(files, log, dispatchedPosition, clock,
                settings.checkpointIntervalMs(), counters);
        return new KeyIndex(settings, log, files, agent, counters);
    }

    /** Starts the index thread. */
    public void start() {
        if (thread != null) {
            thread.start();
        }
    }

    /**
     * Dispatch has written records: wakes the index thread if it idles. For the store's arrival listener; any
     * thread, cheap (a fence and a flag).
     */
    public void onDispatched() {
        if (agent != null && agent.onDispatched()) {
            thread.wakeUp();
        }
    }

    /**
     * The records of {@code topic} carrying {@code key} (its {@code UNIQ_KEY} when {@code unique}, else one of its
     * {@code KEYS}) stored within {@code [beginMs, endMs]}, newest file first, at most {@code maxRecords}; each a
     * read-only view of the whole record. Empty when none (or the index is disabled).
     */
    public List<ByteBuffer> find(String topic, String key, boolean unique, long beginMs, long endMs,
                                 int maxRecords) {
        List<ByteBuffer> records = new ArrayList<>();
        if (files == null || key.isEmpty() || maxRecords < 1) {
            return records;
        }
        char kind = unique ? KeyHash.KIND_UNIQUE : KeyHash.KIND_KEY;
        KeyMatches matches = new KeyMatches(position -> {
            Optional<ByteBuffer> record = recordOf(topic, position);
            return record.isPresent() && RecordKeys.carries(RecordKeys.properties(record.get()), kind, key);
        }, maxRecords);
        files.lookup(KeyHash.of(topic, kind, key), beginMs, endMs, matches);
        for (long position : matches.positions()) {
            recordOf(topic, position).ifPresent(records::add);
        }
        return records;
    }

    /** The whole record of {@code topic} at {@code position}; empty when no record of that topic starts there. */
    private Optional<ByteBuffer> recordOf(String topic, long position) {
        ScanResult scan = log.scan(position, false);
        if (scan.status() != ScanStatus.VALID || !scan.entry().topic().equals(topic)) {
            return Optional.empty();
        }
        ReadResult read = log.readRecord(position, scan.sizeBytes());
        return read.isFound() ? Optional.of(read.buffer()) : Optional.empty();
    }

    /** Position after the last record whose keys are indexed; the log's end when disabled. */
    public long indexedPosition() {
        return agent == null ? log.writtenPosition() : agent.indexedPosition();
    }

    public boolean isEnabled() {
        return settings.enabled();
    }

    public KeyIndexStats stats() {
        return counters.snapshot(indexedPosition(), files == null ? 0 : files.fileCount(),
                files == null ? 0 : files.damagedFilesAtOpen());
    }

    /** Stops the thread, checkpoints and unmaps the files. Idempotent. */
    @Override
    public void close() {
        stop(true);
    }

    /** Stops the thread and unmaps the files without a final checkpoint, as a crash would leave them. */
    public void halt() {
        stop(false);
    }

    private void stop(boolean checkpoint) {
        if (thread != null) {
            thread.close(); // logs a thread that does not stop in time
            files.close(checkpoint);
        }
    }
}
