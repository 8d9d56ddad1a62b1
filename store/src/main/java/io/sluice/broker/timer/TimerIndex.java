package io.sluice.broker.timer;

import io.sluice.broker.meta.NativeResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pending timers, on disk in time order ({@link TimerIndexDescriptor}): the heap holds none of them.
 *
 * <p>Writes go to RocksDB's write-ahead log without fsync: they survive a kill of the broker process; a power
 * loss may lose the latest, and since the ingested offset is written in the same batch as the keys, the index then
 * re-reads those timer records (nothing lost; a removal lost re-delivers, at-least-once).
 *
 * <p>Not thread-safe: one owner thread (the timer thread) calls everything but {@link #pendingCount} and
 * {@link #ingestedOffset}, which read volatile copies. {@link #close} after that thread stopped.
 */
final class TimerIndex implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimerIndex.class);

    /** Memtable size: keys are 16 bytes, so 8 MiB holds about 200,000 timers before a flush to disk. */
    private static final long WRITE_BUFFER_BYTES = 8L << 20;
    private static final long MAX_TOTAL_WAL_BYTES = 64L << 20;

    private final Path dir;
    private final NativeResources resources;
    private final RocksDB db;
    private final ColumnFamilyHandle progressCf;
    private final ColumnFamilyHandle timersCf;
    private final WriteOptions walWrite;
    private volatile long ingestedOffset;
    private volatile long pendingCount;
    /**
     * Where scans start: no pending key sorts before it. Null: from the first key. Owner thread only. Removed keys
     * stay as tombstones until RocksDB compacts them; starting after them keeps a scan from stepping over every
     * timer delivered since the last compaction.
     */
    private byte[] scanStart;

    private TimerIndex(Path dir, NativeResources resources, RocksDB db, List<ColumnFamilyHandle> handles,
                       WriteOptions walWrite) throws RocksDBException {
        this.dir = dir;
        this.resources = resources;
        this.db = db;
        this.progressCf = handles.get(0);
        this.timersCf = handles.get(1);
        this.walWrite = walWrite;
        this.ingestedOffset = readLong(TimerIndexDescriptor.INGESTED_OFFSET_KEY);
        this.pendingCount = readLong(TimerIndexDescriptor.PENDING_COUNT_KEY);
    }

    /**
     * Opens (creating if needed) the index in {@code dir}.
     *
     * @throws UncheckedIOException when the directory cannot be created or RocksDB cannot open it, or it holds
     *                              another format version
     */
    static TimerIndex open(Path dir) {
        RocksDB.loadLibrary();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the timer index directory " + dir, e);
        }
        NativeResources resources = new NativeResources();
        try {
            DBOptions dbOptions = resources.add(new DBOptions()
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setMaxTotalWalSize(MAX_TOTAL_WAL_BYTES)
                    .setKeepLogFileNum(2)
                    .setInfoLogLevel(InfoLogLevel.WARN_LEVEL));
            ColumnFamilyOptions cfOptions = resources.add(new ColumnFamilyOptions()
                    .setWriteBufferSize(WRITE_BUFFER_BYTES));
            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(TimerIndexDescriptor.ascii(TimerIndexDescriptor.CF_DEFAULT), cfOptions),
                    new ColumnFamilyDescriptor(TimerIndexDescriptor.ascii(TimerIndexDescriptor.CF_TIMERS), cfOptions));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = resources.add(RocksDB.open(dbOptions, dir.toString(), descriptors, handles));
            // Handles are pushed after the database so that close() releases them first.
            handles.forEach(resources::add);
            WriteOptions walWrite = resources.add(new WriteOptions().setSync(false));
            checkFormat(db, handles.get(0), dir);
            TimerIndex index = new TimerIndex(dir, resources, db, handles, walWrite);
            LOG.info("timer index {} opened: {} pending, ingested up to offset {}", dir, index.pendingCount,
                    index.ingestedOffset);
            return index;
        } catch (RocksDBException | IllegalArgumentException e) {
            resources.close();
            throw new UncheckedIOException(new IOException("cannot open the timer index " + dir + ": "
                    + e.getMessage(), e));
        } catch (RuntimeException | Error e) {
            resources.close();
            throw e;
        }
    }

    /** The next timer-topic queue offset to index. */
    long ingestedOffset() {
        return ingestedOffset;
    }

    /** Timers indexed and not yet removed. */
    long pendingCount() {
        return pendingCount;
    }

    /**
     * Adds {@code keys} and moves the ingested offset to {@code nextOffset}, in one atomic batch.
     *
     * @throws UncheckedIOException when RocksDB fails; the index is then unchanged
     */
    void ingest(List<TimerKey> keys, long nextOffset) {
        try (WriteBatch batch = new WriteBatch()) {
            long added = 0;
            for (TimerKey key : keys) {
                byte[] encoded = key.encode();
                // A re-ingested key (the same record twice) must not count twice.
                if (db.get(timersCf, encoded) == null) {
                    added++;
                }
                batch.put(timersCf, encoded, TimerIndexDescriptor.EMPTY_VALUE);
            }
            batch.put(progressCf, TimerIndexDescriptor.INGESTED_OFFSET_KEY,
                    TimerIndexDescriptor.encodeLong(nextOffset));
            batch.put(progressCf, TimerIndexDescriptor.PENDING_COUNT_KEY,
                    TimerIndexDescriptor.encodeLong(pendingCount + added));
            db.write(walWrite, batch);
            ingestedOffset = nextOffset;
            pendingCount += added;
            for (TimerKey key : keys) {
                lowerScanStart(key);
            }
        } catch (RocksDBException e) {
            throw failure("index " + keys.size() + " timers", e);
        }
    }

    /**
     * Removes delivered (or undeliverable) timers, with the count, in one atomic batch. Every key given must be
     * pending and come from {@link #due}.
     *
     * @throws UncheckedIOException when RocksDB fails; the index is then unchanged
     */
    void remove(List<TimerKey> keys) {
        if (keys.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            for (TimerKey key : keys) {
                batch.delete(timersCf, key.encode());
            }
            long count = Math.max(0, pendingCount - keys.size());
            batch.put(progressCf, TimerIndexDescriptor.PENDING_COUNT_KEY, TimerIndexDescriptor.encodeLong(count));
            db.write(walWrite, batch);
            pendingCount = count;
        } catch (RocksDBException e) {
            throw failure("remove " + keys.size() + " timers", e);
        }
    }

    /**
     * Up to {@code max} timers due at or before {@code nowMs}, earliest first. Afterwards the scan starts at the
     * earliest of them still pending ({@link #remove} is called before the next scan).
     */
    List<TimerKey> due(long nowMs, int max) {
        List<TimerKey> due = new ArrayList<>();
        try (RocksIterator it = db.newIterator(timersCf)) {
            for (seekScanStart(it); it.isValid() && due.size() < max; it.next()) {
                TimerKey key = TimerKey.decode(it.key());
                if (key.deliverMs() > nowMs) {
                    break;
                }
                due.add(key);
            }
            checkIterator(it);
        }
        return due;
    }

    /** The earliest pending timer, or empty when none is pending. */
    Optional<TimerKey> first() {
        try (RocksIterator it = db.newIterator(timersCf)) {
            seekScanStart(it);
            if (it.isValid()) {
                TimerKey first = TimerKey.decode(it.key());
                // Later scans start here: the removed keys before it (tombstones until a compaction) are skipped.
                scanStart = first.encode();
                return Optional.of(first);
            }
            checkIterator(it);
            return Optional.empty();
        }
    }

    private void seekScanStart(RocksIterator it) {
        if (scanStart == null) {
            it.seekToFirst();
        } else {
            it.seek(scanStart);
        }
    }

    /** A key added below the scan start (due earlier than every key pending so far) moves the start to it. */
    private void lowerScanStart(TimerKey key) {
        if (scanStart != null && key.compareTo(TimerKey.decode(scanStart)) < 0) {
            scanStart = key.encode();
        }
    }

    private void checkIterator(RocksIterator it) {
        try {
            it.status();
        } catch (RocksDBException e) {
            throw failure("scan the timers", e);
        }
    }

    private long readLong(byte[] key) throws RocksDBException {
        byte[] value = db.get(progressCf, key);
        return value == null ? 0 : TimerIndexDescriptor.decodeLong(value, 0);
    }

    private UncheckedIOException failure(String what, RocksDBException e) {
        return new UncheckedIOException(new IOException("the timer index " + dir + " cannot " + what + ": "
                + e.getMessage(), e));
    }

    @Override
    public void close() {
        resources.close();
    }

    private static void checkFormat(RocksDB db, ColumnFamilyHandle progressCf, Path dir) throws RocksDBException {
        byte[] stored = db.get(progressCf, TimerIndexDescriptor.FORMAT_KEY);
        if (stored == null) {
            try (WriteOptions sync = new WriteOptions().setSync(true)) {
                db.put(progressCf, sync, TimerIndexDescriptor.FORMAT_KEY,
                        TimerIndexDescriptor.encodeLong(TimerIndexDescriptor.FORMAT_VERSION));
            }
            return;
        }
        long format = TimerIndexDescriptor.decodeLong(stored, 0);
        if (format != TimerIndexDescriptor.FORMAT_VERSION) {
            throw new IllegalArgumentException("timer index " + dir + " has format version " + format
                    + ", this build reads version " + TimerIndexDescriptor.FORMAT_VERSION);
        }
    }
}
