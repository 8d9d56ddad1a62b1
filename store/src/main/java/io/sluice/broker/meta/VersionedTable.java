package io.sluice.broker.meta;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One named, versioned metadata table (topics or groups): a RocksDB column family of name to JSON, a
 * {@link TableVersion} persisted in the {@code versions} family, and an in-memory copy that serves every read.
 *
 * <p>Threading: reads ({@link #get}, {@link #all}) use the {@link ConcurrentHashMap} without locking. Writers
 * ({@link #put}, {@link #delete}) and {@link #snapshot} hold {@code writeLock}, taken by whichever caller thread
 * changes or snapshots the table; under it a writer first persists the rows and the next version in one synced
 * write batch, then updates the map and publishes the version (volatile write). A snapshot therefore always pairs
 * a version with exactly the rows it describes. The owning {@link MetadataStore} guarantees the database is open
 * for the duration of each call.
 *
 * @param <V> the row type
 */
final class VersionedTable<V> {

    private final String rowKind;
    private final ColumnFamilyHandle cf;
    private final ColumnFamilyHandle versionsCf;
    private final byte[] versionKey;
    private final Function<V, String> nameOf;
    private final Function<V, String> encoder;
    private final Function<String, V> decoder;
    private final ConcurrentHashMap<String, V> rows = new ConcurrentHashMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile TableVersion version;

    VersionedTable(String rowKind, ColumnFamilyHandle cf, ColumnFamilyHandle versionsCf, byte[] versionKey,
                   Function<V, String> nameOf, Function<V, String> encoder, Function<String, V> decoder) {
        this.rowKind = rowKind;
        this.cf = cf;
        this.versionsCf = versionsCf;
        this.versionKey = versionKey;
        this.nameOf = nameOf;
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /**
     * Loads every row and the version; called once, before the table is shared.
     *
     * @throws IllegalArgumentException naming the row when a stored value cannot be decoded or does not match its
     *                                  key
     */
    void load(RocksDB db, long nowMs) throws RocksDBException {
        try (RocksIterator it = db.newIterator(cf)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                String name = MetadataJson.fromUtf8(it.key());
                V row;
                try {
                    row = decoder.apply(MetadataJson.fromUtf8(it.value()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("stored " + rowKind + " '" + name + "' is unreadable: "
                            + e.getMessage(), e);
                }
                if (!name.equals(nameOf.apply(row))) {
                    throw new IllegalArgumentException("stored " + rowKind + " under key '" + name + "' is named '"
                            + nameOf.apply(row) + "'");
                }
                rows.put(name, row);
            }
            it.status();
        }
        byte[] storedVersion = db.get(versionsCf, versionKey);
        version = storedVersion == null
                ? TableVersion.initial(nowMs)
                : MetadataJson.dataVersionFromJson(MetadataJson.fromUtf8(storedVersion));
    }

    Optional<V> get(String name) {
        return Optional.ofNullable(rows.get(name));
    }

    /** Every row, sorted by name. */
    List<V> all() {
        return new ArrayList<>(new TreeMap<>(rows).values());
    }

    int size() {
        return rows.size();
    }

    TableVersion version() {
        return version;
    }

    /** The version and every row as one consistent pair; rows sorted by name. */
    Map.Entry<TableVersion, Map<String, V>> snapshot() {
        writeLock.lock();
        try {
            return Map.entry(version, new TreeMap<>(rows));
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Writes the rows that differ from the stored ones, with the next version, in one synced batch. Rows equal to
     * the stored ones are skipped; when nothing changes nothing is written and the version stays.
     *
     * @return the table's version after the call
     */
    TableVersion put(RocksDB db, WriteOptions syncWrite, Collection<V> values, long nowMs) throws RocksDBException {
        writeLock.lock();
        try {
            Map<String, V> changed = new LinkedHashMap<>();
            for (V value : values) {
                String name = nameOf.apply(value);
                if (!value.equals(rows.get(name))) {
                    changed.put(name, value);
                }
            }
            if (changed.isEmpty()) {
                return version;
            }
            TableVersion next = version.next(nowMs);
            try (WriteBatch batch = new WriteBatch()) {
                for (Map.Entry<String, V> e : changed.entrySet()) {
                    batch.put(cf, MetadataKeyDescriptor.nameKey(e.getKey()),
                            MetadataJson.utf8(encoder.apply(e.getValue())));
                }
                batch.put(versionsCf, versionKey, MetadataJson.utf8(MetadataJson.dataVersionToJson(next)));
                db.write(syncWrite, batch);
            }
            rows.putAll(changed);
            version = next;
            return next;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Deletes one row with the next version, in one synced batch.
     *
     * @return false when the row did not exist (nothing written)
     */
    boolean delete(RocksDB db, WriteOptions syncWrite, String name, long nowMs) throws RocksDBException {
        writeLock.lock();
        try {
            if (!rows.containsKey(name)) {
                return false;
            }
            TableVersion next = version.next(nowMs);
            try (WriteBatch batch = new WriteBatch()) {
                batch.delete(cf, MetadataKeyDescriptor.nameKey(name));
                batch.put(versionsCf, versionKey, MetadataJson.utf8(MetadataJson.dataVersionToJson(next)));
                db.write(syncWrite, batch);
            }
            rows.remove(name);
            version = next;
            return true;
        } finally {
            writeLock.unlock();
        }
    }
}
