package io.sluice.broker.meta;

import io.sluice.store.TopicNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
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
 * The broker's metadata: topic configs, subscription groups, consumer offsets and small named {@code long} values, in
 * one RocksDB database laid out by {@link MetadataKeyDescriptor} (docs/storage.md#metadata-store).
 *
 * <p>Durability: topic and group changes are written with {@code sync=true}, row and {@link TableVersion} in one
 * batch, so they survive a power loss once the call returns. Offsets ({@link #commitOffset}) and kv values
 * ({@link #putLong}) go to the write-ahead log without fsync (a process crash keeps them; a power loss may lose those
 * since the last {@link #flush()}); {@link #commitOffsetDeferred} keeps an offset in memory until the next flush. A
 * lost offset only means messages consumed again (at-least-once).
 *
 * <p>Topics and groups are loaded at {@link #open} and served from memory, cheap enough for the send and pull paths;
 * offsets and kv values are read from RocksDB.
 *
 * <p>Threading: thread-safe; owned by the broker's composition root. Every database call holds the read side of
 * {@code lifecycle}, {@link #close()} its write side, so native handles are never used after release. Topic and group
 * writers also serialise on their table's lock ({@link VersionedTable}); concurrent offset commits are
 * last-writer-wins. A RocksDB failure or undecodable value throws {@link MetadataStoreException} naming the directory;
 * the failed write changed nothing.
 */
public final class MetadataStore implements AutoCloseable {

    /** What {@link #queryOffset} returns when no offset was committed. */
    public static final long NO_OFFSET = -1L;

    private static final Logger LOG = LoggerFactory.getLogger(MetadataStore.class);

    /** Memtable size per column family: metadata is small, so keep RocksDB's 64 MiB default from reserving RAM. */
    private static final long WRITE_BUFFER_BYTES = 8L << 20;

    private final Path dir;
    private final EpochClock clock;
    private final NativeResources resources;
    private final RocksDB db;
    private final ColumnFamilyHandle offsetsCf;
    private final ColumnFamilyHandle kvCf;
    private final WriteOptions syncWrite;
    private final WriteOptions walWrite;
    private final VersionedTable<TopicConfig> topics;
    private final VersionedTable<SubscriptionGroupConfig> groups;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    /**
     * Offsets committed with {@link #commitOffsetDeferred} and not yet written: a later eager commit or a delete
     * removes the entry, {@link #flush()} writes and removes it. Any thread.
     */
    private final ConcurrentHashMap<ConsumerOffset.QueueRef, Long> deferredOffsets = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private MetadataStore(Path dir, EpochClock clock, NativeResources resources, RocksDB db,
                          List<ColumnFamilyHandle> handles, WriteOptions syncWrite, WriteOptions walWrite) {
        this.dir = dir;
        this.clock = clock;
        this.resources = resources;
        this.db = db;
        this.syncWrite = syncWrite;
        this.walWrite = walWrite;
        ColumnFamilyHandle versionsCf = handles.get(3);
        this.offsetsCf = handles.get(4);
        this.kvCf = handles.get(5);
        this.topics = new VersionedTable<>("topic", handles.get(1), versionsCf,
                MetadataKeyDescriptor.TOPICS_VERSION_KEY, TopicConfig::topicName, MetadataJson::topicToJson,
                MetadataJson::topicFromJson);
        this.groups = new VersionedTable<>("group", handles.get(2), versionsCf,
                MetadataKeyDescriptor.GROUPS_VERSION_KEY, SubscriptionGroupConfig::groupName, MetadataJson::groupToJson,
                MetadataJson::groupFromJson);
    }

    /** Opens (creating if needed) the store in {@code settings.dir()}, stamping versions with the system clock. */
    public static MetadataStore open(MetadataSettings settings) {
        return open(settings, SystemEpochClock.INSTANCE);
    }

    /**
     * Opens (creating if needed) the store in {@code settings.dir()} and loads the topic and group tables.
     *
     * @param clock source of the {@link TableVersion} timestamps
     * @throws MetadataStoreException when the directory cannot be created, RocksDB cannot open it, it holds an
     *                                unknown format version, or a stored topic or group cannot be decoded
     */
    public static MetadataStore open(MetadataSettings settings, EpochClock clock) {
        Path dir = settings.dir();
        RocksDB.loadLibrary();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new MetadataStoreException("cannot create metadata directory " + dir, e);
        }
        NativeResources resources = new NativeResources();
        try {
            DBOptions dbOptions = resources.add(new DBOptions()
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setMaxTotalWalSize(settings.maxTotalWalBytes())
                    .setKeepLogFileNum(2)
                    .setInfoLogLevel(InfoLogLevel.WARN_LEVEL));
            ColumnFamilyOptions cfOptions = resources.add(new ColumnFamilyOptions()
                    .setWriteBufferSize(WRITE_BUFFER_BYTES));
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            for (String name : MetadataKeyDescriptor.COLUMN_FAMILIES) {
                descriptors.add(new ColumnFamilyDescriptor(MetadataJson.utf8(name), cfOptions));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = resources.add(RocksDB.open(dbOptions, dir.toString(), descriptors, handles));
            // Handles are pushed after the database so that close() releases them first.
            handles.forEach(resources::add);
            WriteOptions syncWrite = resources.add(new WriteOptions().setSync(true));
            WriteOptions walWrite = resources.add(new WriteOptions().setSync(false));
            checkFormat(db, handles.get(0), syncWrite, dir);
            MetadataStore store = new MetadataStore(dir, clock, resources, db, handles, syncWrite, walWrite);
            long nowMs = clock.time();
            store.topics.load(db, nowMs);
            store.groups.load(db, nowMs);
            LOG.info("metadata store {} opened: {} topics (version {}), {} groups", dir, store.topics.size(),
                    store.topics.version().counter(), store.groups.size());
            return store;
        } catch (RocksDBException | IllegalArgumentException e) {
            resources.close();
            throw new MetadataStoreException("cannot open metadata store " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            resources.close();
            throw e;
        }
    }

    /** The database directory. */
    public Path dir() {
        return dir;
    }

    // ------------------------------------------------------------------------------------------------ topics

    /**
     * Creates or replaces a topic (synced). Writing a config equal to the stored one changes nothing.
     *
     * @return the topic table's version after the call
     */
    public TableVersion putTopic(TopicConfig topic) {
        return putTopics(List.of(topic));
    }

    /**
     * Creates or replaces several topics in one synced batch with one version bump (e.g. the system topics at
     * start-up). Configs equal to the stored ones are skipped.
     *
     * @return the topic table's version after the call
     */
    public TableVersion putTopics(Collection<TopicConfig> configs) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return topics.put(db, syncWrite, configs, clock.time());
        } catch (RocksDBException e) {
            throw failure("write topics", e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** The topic, or empty. Served from memory. */
    public Optional<TopicConfig> getTopic(String topic) {
        ensureOpen();
        return topics.get(topic);
    }

    /**
     * Deletes a topic config (synced). Its consumer offsets stay; see {@link #deleteOffsetsOfTopic}.
     *
     * @return false when the topic did not exist
     */
    public boolean deleteTopic(String topic) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return topics.delete(db, syncWrite, topic, clock.time());
        } catch (RocksDBException e) {
            throw failure("delete topic " + topic, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Every topic, sorted by name. */
    public List<TopicConfig> allTopics() {
        ensureOpen();
        return topics.all();
    }

    /** Every topic with the version describing exactly this set (what the broker registers). */
    public TopicTable topicTable() {
        ensureOpen();
        Map.Entry<TableVersion, Map<String, TopicConfig>> snapshot = topics.snapshot();
        return new TopicTable(snapshot.getKey(), snapshot.getValue());
    }

    /** The topic table's current version. */
    public TableVersion topicDataVersion() {
        ensureOpen();
        return topics.version();
    }

    // ------------------------------------------------------------------------------------------------ groups

    /**
     * Creates or replaces a subscription group (synced). Writing a config equal to the stored one changes nothing.
     *
     * @return the group table's version after the call
     */
    public TableVersion putGroup(SubscriptionGroupConfig group) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return groups.put(db, syncWrite, List.of(group), clock.time());
        } catch (RocksDBException e) {
            throw failure("write group " + group.groupName(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** The group, or empty. Served from memory. */
    public Optional<SubscriptionGroupConfig> getGroup(String group) {
        ensureOpen();
        return groups.get(group);
    }

    /**
     * Deletes a subscription group config (synced). Its offsets stay; see {@link #deleteOffsetsOfGroup}.
     *
     * @return false when the group did not exist
     */
    public boolean deleteGroup(String group) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            return groups.delete(db, syncWrite, group, clock.time());
        } catch (RocksDBException e) {
            throw failure("delete group " + group, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Every group, sorted by name. */
    public List<SubscriptionGroupConfig> allGroups() {
        ensureOpen();
        return groups.all();
    }

    /** The group table's current version. */
    public TableVersion groupDataVersion() {
        ensureOpen();
        return groups.version();
    }

    // ------------------------------------------------------------------------------------------------ offsets

    /**
     * Stores {@code offset} as the next offset {@code group} consumes from the queue (write-ahead log, no fsync;
     * see the class comment). Any non-negative value is accepted, including one below the previous commit
     * (offset resets).
     *
     * @throws IllegalArgumentException naming the group, topic, queue id or offset that is invalid
     */
    public void commitOffset(String group, String topic, int queueId, long offset) {
        byte[] key = offsetKey(group, topic, queueId);
        if (offset < 0) {
            throw new IllegalArgumentException("offset " + offset + " for " + group + "/" + topic + "/" + queueId
                    + " must be >= 0");
        }
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            deferredOffsets.remove(new ConsumerOffset.QueueRef(group, topic, queueId));
            db.put(offsetsCf, walWrite, key, MetadataKeyDescriptor.encodeLong(offset));
        } catch (RocksDBException e) {
            throw failure("commit offset " + group + "/" + topic + "/" + queueId, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * {@link #commitOffset}, kept in memory until the next {@link #flush()} (or {@link #close()}): for the offset
     * every pull carries, which would otherwise cost a database write per pull. Queries see it at once; a process
     * crash loses what came since the last flush, so consumers re-consume at most that much (at-least-once, as
     * Apache keeps offsets in memory and persists them every 5 s).
     *
     * @throws IllegalArgumentException naming the group, topic, queue id or offset that is invalid
     */
    public void commitOffsetDeferred(String group, String topic, int queueId, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset " + offset + " for " + group + "/" + topic + "/" + queueId
                    + " must be >= 0");
        }
        ensureOpen();
        ConsumerOffset.QueueRef queue = new ConsumerOffset.QueueRef(group, topic, queueId);
        if (deferredOffsets.replace(queue, offset) == null) {
            offsetKey(group, topic, queueId); // validates the names once per queue, not once per pull
            deferredOffsets.put(queue, offset);
        }
    }

    /**
     * The committed offset of {@code group} for the queue, or {@link #NO_OFFSET} (-1) when none was committed.
     * (QUERY_CONSUMER_OFFSET then decides between answering 0 and QUERY_NOT_FOUND.)
     *
     * @throws IllegalArgumentException naming the group, topic or queue id that is invalid
     */
    public long queryOffset(String group, String topic, int queueId) {
        byte[] key = offsetKey(group, topic, queueId);
        Long deferred = deferredOffsets.get(new ConsumerOffset.QueueRef(group, topic, queueId));
        if (deferred != null) {
            return deferred;
        }
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            byte[] value = db.get(offsetsCf, key);
            return value == null ? NO_OFFSET : MetadataKeyDescriptor.decodeLong(value);
        } catch (RocksDBException | IllegalArgumentException e) {
            throw failure("read offset " + group + "/" + topic + "/" + queueId, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Every offset {@code group} committed, sorted by topic, then queue id. */
    public List<ConsumerOffset> offsetsOf(String group) {
        TopicNames.validateGroup(group);
        byte[] prefix = MetadataKeyDescriptor.groupOffsetsStart(group);
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            List<ConsumerOffset> result = new ArrayList<>();
            try (RocksIterator it = db.newIterator(offsetsCf)) {
                for (it.seek(prefix); it.isValid() && MetadataKeyDescriptor.startsWith(it.key(), prefix); it.next()) {
                    result.add(MetadataKeyDescriptor.decodeOffset(it.key(), it.value()));
                }
                it.status();
            }
            return withDeferred(result, q -> q.group().equals(group));
        } catch (RocksDBException | IllegalArgumentException e) {
            throw failure("read offsets of group " + group, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Every offset committed for {@code topic} by any group, sorted by group, then queue id. Scans all offsets:
     * meant for admin requests, not for the pull path.
     */
    public List<ConsumerOffset> offsetsForTopic(String topic) {
        List<ConsumerOffset> result = new ArrayList<>();
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            try (RocksIterator it = db.newIterator(offsetsCf)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    ConsumerOffset offset = MetadataKeyDescriptor.decodeOffset(it.key(), it.value());
                    if (offset.topic().equals(topic)) {
                        result.add(offset);
                    }
                }
                it.status();
            }
            return withDeferred(result, q -> q.topic().equals(topic));
        } catch (RocksDBException | IllegalArgumentException e) {
            throw failure("read offsets of topic " + topic, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Deletes every offset of {@code group} (synced, atomic). An offset committed while this call runs may
     * survive it; stop the group's consumers first (the admin path deletes groups that are offline).
     *
     * @return how many offsets were deleted
     */
    public int deleteOffsetsOfGroup(String group) {
        List<ConsumerOffset> doomed = offsetsOf(group);
        return deleteOffsets(doomed, "group " + group);
    }

    /**
     * Deletes every offset any group committed for {@code topic} (synced, atomic). Scans all offsets. An offset
     * committed while this call runs may survive it.
     *
     * @return how many offsets were deleted
     */
    public int deleteOffsetsOfTopic(String topic) {
        List<ConsumerOffset> doomed = offsetsForTopic(topic);
        return deleteOffsets(doomed, "topic " + topic);
    }

    // ------------------------------------------------------------------------------------------------ kv

    /**
     * Stores a named {@code long} (write-ahead log, no fsync; the durability of offsets).
     *
     * @param key non-empty, at most 255 UTF-8 bytes
     */
    public void putLong(String key, long value) {
        byte[] k = MetadataKeyDescriptor.kvKey(key);
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            db.put(kvCf, walWrite, k, MetadataKeyDescriptor.encodeLong(value));
        } catch (RocksDBException e) {
            throw failure("write kv " + key, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** The named {@code long}, or empty. */
    public OptionalLong getLong(String key) {
        byte[] k = MetadataKeyDescriptor.kvKey(key);
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            byte[] value = db.get(kvCf, k);
            return value == null ? OptionalLong.empty() : OptionalLong.of(MetadataKeyDescriptor.decodeLong(value));
        } catch (RocksDBException | IllegalArgumentException e) {
            throw failure("read kv " + key, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Deletes a named {@code long} (write-ahead log, no fsync); deleting an absent key does nothing. */
    public void deleteLong(String key) {
        byte[] k = MetadataKeyDescriptor.kvKey(key);
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            db.delete(kvCf, walWrite, k);
        } catch (RocksDBException e) {
            throw failure("delete kv " + key, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Every named {@code long} whose key starts with {@code prefix} (empty prefix = all), sorted by key bytes. */
    public SortedMap<String, Long> longsWithPrefix(String prefix) {
        byte[] p = MetadataJson.utf8(prefix);
        SortedMap<String, Long> result = new TreeMap<>();
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            try (RocksIterator it = db.newIterator(kvCf)) {
                for (it.seek(p); it.isValid() && MetadataKeyDescriptor.startsWith(it.key(), p); it.next()) {
                    result.put(MetadataKeyDescriptor.decodeKvKey(it.key()),
                            MetadataKeyDescriptor.decodeLong(it.value()));
                }
                it.status();
            }
            return result;
        } catch (RocksDBException | IllegalArgumentException e) {
            throw failure("read kv prefix " + prefix, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    /**
     * Makes every offset and kv write so far durable against power loss (fsyncs the write-ahead log).
     * Topic and group writes need no flush.
     */
    public void flush() {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            writeDeferredOffsets();
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Flushes, then releases every native resource. Idempotent. Waits for calls in progress to finish; later
     * calls throw {@link IllegalStateException}.
     *
     * @throws MetadataStoreException when the final flush failed (resources are released anyway)
     */
    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            RocksDBException flushFailure = null;
            try {
                writeDeferredOffsets();
                db.flushWal(true);
            } catch (RocksDBException e) {
                flushFailure = e;
            }
            resources.close();
            LOG.info("metadata store {} closed", dir);
            if (flushFailure != null) {
                throw failure("flush at close", flushFailure);
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------ internals

    private int deleteOffsets(List<ConsumerOffset> doomed, String what) {
        if (doomed.isEmpty()) {
            return 0;
        }
        for (ConsumerOffset o : doomed) {
            deferredOffsets.remove(new ConsumerOffset.QueueRef(o.group(), o.topic(), o.queueId()));
        }
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            try (WriteBatch batch = new WriteBatch()) {
                for (ConsumerOffset o : doomed) {
                    batch.delete(offsetsCf, MetadataKeyDescriptor.offsetKey(o.group(), o.topic(), o.queueId()));
                }
                db.write(syncWrite, batch);
            }
            return doomed.size();
        } catch (RocksDBException e) {
            throw failure("delete offsets of " + what, e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Writes the deferred offsets (one batch, write-ahead log) and forgets those not changed meanwhile. */
    private void writeDeferredOffsets() throws RocksDBException {
        if (deferredOffsets.isEmpty()) {
            return;
        }
        List<Map.Entry<ConsumerOffset.QueueRef, Long>> written = new ArrayList<>(deferredOffsets.size());
        try (WriteBatch batch = new WriteBatch()) {
            for (Map.Entry<ConsumerOffset.QueueRef, Long> e : deferredOffsets.entrySet()) {
                ConsumerOffset.QueueRef q = e.getKey();
                batch.put(offsetsCf, MetadataKeyDescriptor.offsetKey(q.group(), q.topic(), q.queueId()),
                        MetadataKeyDescriptor.encodeLong(e.getValue()));
                written.add(Map.entry(q, e.getValue()));
            }
            db.write(walWrite, batch);
        }
        for (Map.Entry<ConsumerOffset.QueueRef, Long> e : written) {
            deferredOffsets.remove(e.getKey(), e.getValue());
        }
    }

    /** {@code stored} with the deferred offsets of the queues {@code wanted} accepts put over it, re-sorted. */
    private List<ConsumerOffset> withDeferred(List<ConsumerOffset> stored,
                                              Predicate<ConsumerOffset.QueueRef> wanted) {
        if (deferredOffsets.isEmpty()) {
            return stored;
        }
        Map<ConsumerOffset.QueueRef, ConsumerOffset> merged = new HashMap<>();
        for (ConsumerOffset o : stored) {
            merged.put(new ConsumerOffset.QueueRef(o.group(), o.topic(), o.queueId()), o);
        }
        deferredOffsets.forEach((q, offset) -> {
            if (wanted.test(q)) {
                merged.put(q, new ConsumerOffset(q.group(), q.topic(), q.queueId(), offset));
            }
        });
        List<ConsumerOffset> result = new ArrayList<>(merged.values());
        result.sort(Comparator.comparing(ConsumerOffset::group).thenComparing(ConsumerOffset::topic)
                .thenComparingInt(ConsumerOffset::queueId));
        return result;
    }

    private static byte[] offsetKey(String group, String topic, int queueId) {
        if (!TopicNames.isValidGroup(group)) {
            TopicNames.validateGroup(group);
        }
        if (!TopicNames.isValid(topic)) {
            TopicNames.validate(topic);
        }
        if (queueId < 0 || queueId >= TopicConfig.MAX_QUEUE_NUMS) {
            throw new IllegalArgumentException("queueId " + queueId + " is out of range 0.."
                    + (TopicConfig.MAX_QUEUE_NUMS - 1));
        }
        return MetadataKeyDescriptor.offsetKey(group, topic, queueId);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("metadata store " + dir + " is closed");
        }
    }

    private MetadataStoreException failure(String what, Exception e) {
        return new MetadataStoreException("metadata store " + dir + ": " + what + " failed: " + e.getMessage(), e);
    }

    private static void checkFormat(RocksDB db, ColumnFamilyHandle defaultCf, WriteOptions syncWrite, Path dir)
            throws RocksDBException {
        byte[] stored = db.get(defaultCf, MetadataKeyDescriptor.FORMAT_KEY);
        if (stored == null) {
            db.put(defaultCf, syncWrite, MetadataKeyDescriptor.FORMAT_KEY,
                    MetadataKeyDescriptor.encodeInt(MetadataKeyDescriptor.FORMAT_VERSION));
            return;
        }
        int format = MetadataKeyDescriptor.decodeInt(stored);
        if (format != MetadataKeyDescriptor.FORMAT_VERSION) {
            throw new IllegalArgumentException("metadata store " + dir + " has format version " + format
                    + ", this build reads version " + MetadataKeyDescriptor.FORMAT_VERSION);
        }
    }
}
