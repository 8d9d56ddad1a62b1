package io.sluice.store.index;

import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every consume queue of the store: loads them from disk at start, creates them on first use, deletes them
 * with their topic, and runs store-wide passes (flush, trim, truncate, offset table rebuild).
 *
 * <p>A topic's queue type comes from the {@code typeOfTopic} function (the topic's {@code queue.type} attribute),
 * asked once, when the topic's first queue is created or loaded. At load a topic whose files sit in the directory
 * of the other type aborts the load, as upstream does: the type of an existing topic cannot change.
 *
 * <p>Thread-safe. {@link #find} and {@link #getOrCreate} for an existing queue are lock-free and
 * allocation-free; creating a queue takes the topic's monitor (held only by creators). {@link #deleteTopic}
 * should follow removal of the topic from the topic configuration: a dispatch racing it gets
 * {@link SlotAppendStatus#CLOSED}.
 */
public final class ConsumeQueueTable implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueueTable.class);
    /** Longest topic accepted: one file-name component. */
    static final int MAX_TOPIC_LENGTH = 255;

    private final IndexSettings settings;
    private final Function<String, ConsumeQueueType> typeOfTopic;
    private final StoreTimeLookup storeTimes;
    /** Memory of recent records the BatchCQ queues may add beyond their first entries (shared by all). */
    private final RecentRecordsBudget recentBudget = new RecentRecordsBudget(RecentRecordsBudget.DEFAULT_ENTRIES);
    /** How the previous run ended: decides how much of each loaded queue's newest file recovery reads. */
    private final LastStop lastStop;
    private final ConcurrentHashMap<String, TopicQueues> topics = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** The queues of one topic, indexed by queue id. Copy-on-write array; creators hold the monitor. */
    private static final class TopicQueues {
        final String topic;
        final ConsumeQueueType type;
        volatile ConsumeQueue[] byId = new ConsumeQueue[0];

        TopicQueues(String topic, ConsumeQueueType type) {
            this.topic = topic;
            this.type = type;
        }

        ConsumeQueue get(int queueId) {
            ConsumeQueue[] queues = byId;
            return queueId < queues.length ? queues[queueId] : null;
        }

        /** Caller holds this object's monitor. */
        void put(int queueId, ConsumeQueue queue) {
            ConsumeQueue[] queues = byId;
            ConsumeQueue[] grown = queueId < queues.length ? queues.clone() : Arrays.copyOf(queues, queueId + 1);
            grown[queueId] = queue;
            byId = grown;
        }

        List<ConsumeQueue> all() {
            List<ConsumeQueue> list = new ArrayList<>();
            for (ConsumeQueue queue : byId) {
                if (queue != null) {
                    list.add(queue);
                }
            }
            return list;
        }
    }

    private ConsumeQueueTable(IndexSettings settings, Function<String, ConsumeQueueType> typeOfTopic,
                              StoreTimeLookup storeTimes, LastStop lastStop) {
        this.settings = settings;
        this.typeOfTopic = typeOfTopic;
        this.storeTimes = storeTimes;
        this.lastStop = lastStop;
    }

    /**
     * Opens the table and loads every queue found under {@code consumequeue/} and {@code batchconsumequeue/},
     * recovering each queue's tail as after a crash ({@link LastStop#CRASH}). Entries that are not
     * {@code <topic>/<queueId>/} directories are logged and skipped.
     *
     * @param typeOfTopic topic → queue type; must answer for every topic found on disk
     * @param storeTimes  reads a record's store time from the CommitLog (SimpleCQ time searches)
     * @throws IOException           if a queue's files cannot be loaded (naming the file)
     * @throws IllegalStateException if a topic's files are in the directory of the other queue type
     */
    public static ConsumeQueueTable open(IndexSettings settings, Function<String, ConsumeQueueType> typeOfTopic,
                                         StoreTimeLookup storeTimes) throws IOException {
        return open(settings, typeOfTopic, storeTimes, LastStop.CRASH);
    }

    /**
     * Opens the table as {@link #open(IndexSettings, Function, StoreTimeLookup)} does; after a
     * {@link LastStop#CLEAN} stop each queue's recovery reads only up to its last valid slot.
     */
    public static ConsumeQueueTable open(IndexSettings settings, Function<String, ConsumeQueueType> typeOfTopic,
                                         StoreTimeLookup storeTimes, LastStop lastStop) throws IOException {
        if (settings == null || typeOfTopic == null || storeTimes == null || lastStop == null) {
            throw new IllegalArgumentException("settings, typeOfTopic, storeTimes and lastStop must be set, were "
                    + settings + ", " + typeOfTopic + ", " + storeTimes + ", " + lastStop);
        }
        ConsumeQueueTable table = new ConsumeQueueTable(settings, typeOfTopic, storeTimes, lastStop);
        try {
            table.load(ConsumeQueueType.SIMPLE, settings.simpleCqDir());
            table.load(ConsumeQueueType.BATCH, settings.batchCqDir());
        } catch (IOException | RuntimeException e) {
            table.close();
            throw e;
        }
        LOG.info("loaded {} consume queues of {} topics from {}", table.queues().size(), table.topics.size(),
                settings.rootDir());
        return table;
    }

    private void load(ConsumeQueueType type, Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (DirectoryStream<Path> topicDirs = Files.newDirectoryStream(root)) {
            for (Path topicDir : topicDirs) {
                String topic = topicDir.getFileName().toString();
                if (!Files.isDirectory(topicDir) || !isValidTopic(topic)) {
                    LOG.warn("ignoring {}: not a topic directory", topicDir);
                    continue;
                }
                ConsumeQueueType configured = typeOf(topic);
                if (configured != type) {
                    throw new IllegalStateException("topic " + topic + " is configured as "
                            + configured.attributeValue() + " but has " + type.attributeValue() + " files in "
                            + topicDir + "; the queue type of an existing topic cannot change");
                }
                loadTopic(topic, type, topicDir);
            }
        }
    }

    private void loadTopic(String topic, ConsumeQueueType type, Path topicDir) throws IOException {
        try (DirectoryStream<Path> queueDirs = Files.newDirectoryStream(topicDir)) {
            for (Path queueDir : queueDirs) {
                int queueId = parseQueueId(queueDir.getFileName().toString());
                if (!Files.isDirectory(queueDir) || queueId < 0) {
                    LOG.warn("ignoring {}: not a queue directory with an id in [0, {})", queueDir,
                            settings.maxQueuesPerTopic());
                    continue;
                }
                TopicQueues queues = topics.computeIfAbsent(topic, t -> new TopicQueues(t, type));
                synchronized (queues) {
                    queues.put(queueId, openQueue(topic, queueId, type, lastStop));
                }
            }
        }
    }

    private int parseQueueId(String name) {
        if (name.isEmpty() || name.length() > 5) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        int id = Integer.parseInt(name);
        return id < settings.maxQueuesPerTopic() && name.equals(Integer.toString(id)) ? id : -1;
    }

    private ConsumeQueue openQueue(String topic, int queueId, ConsumeQueueType type, LastStop stop) throws IOException {
        Path directory = queueDirectory(type, topic, queueId);
        return switch (type) {
            case SIMPLE -> SimpleConsumeQueue.open(topic, queueId, directory, settings.simpleCqSlotsPerFile(),
                    settings.recoveryScanFiles(), storeTimes, stop);
            case BATCH -> BatchConsumeQueue.open(topic, queueId, directory, settings.batchCqSlotsPerFile(),
                    settings.recoveryScanFiles(), settings.slotSharing(), recentBudget, stop);
        };
    }

    private Path queueDirectory(ConsumeQueueType type, String topic, int queueId) {
        Path root = type == ConsumeQueueType.SIMPLE ? settings.simpleCqDir() : settings.batchCqDir();
        return root.resolve(topic).resolve(Integer.toString(queueId));
    }

    private ConsumeQueueType typeOf(String topic) {
        ConsumeQueueType type = typeOfTopic.apply(topic);
        if (type == null) {
            throw new IllegalStateException("no queue type known for topic " + topic);
        }
        return type;
    }

    /**
     * The queue, created (without files: they appear on the first append) if it does not exist yet.
     *
     * @throws IllegalArgumentException naming the value for an invalid topic name or a queue id outside
     *                                  {@code [0, maxQueuesPerTopic)}
     * @throws IllegalStateException    if the table is closed
     * @throws UncheckedIOException     if leftover files in the queue's directory cannot be loaded
     */
    public ConsumeQueue getOrCreate(String topic, int queueId) {
        TopicQueues queues = topic == null ? null : topics.get(topic);
        if (queues != null && queueId >= 0) {
            ConsumeQueue queue = queues.get(queueId);
            if (queue != null) {
                return queue;
            }
        }
        return create(topic, queueId);
    }

    private ConsumeQueue create(String topic, int queueId) {
        requireValid(topic, queueId);
        if (closed) {
            throw new IllegalStateException("consume queue table " + settings.rootDir() + " is closed");
        }
        TopicQueues queues = topics.computeIfAbsent(topic, t -> new TopicQueues(t, typeOf(t)));
        synchronized (queues) {
            ConsumeQueue queue = queues.get(queueId);
            if (queue == null) {
                try {
                    // Files left in a new queue's directory have no known history: read them as after a crash.
                    queue = openQueue(topic, queueId, queues.type, LastStop.CRASH);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open consume queue " + topic + "-" + queueId, e);
                }
                queues.put(queueId, queue);
            }
            return queue;
        }
    }

    /**
     * The queue if it exists.
     *
     * @throws IllegalArgumentException naming the value for a negative queue id
     */
    public Optional<ConsumeQueue> find(String topic, int queueId) {
        if (queueId < 0) {
            throw new IllegalArgumentException("queueId must be >= 0, was " + queueId);
        }
        TopicQueues queues = topic == null ? null : topics.get(topic);
        return queues == null ? Optional.empty() : Optional.ofNullable(queues.get(queueId));
    }

    /** The queue type of a topic that has queues, if any. */
    public Optional<ConsumeQueueType> typeOfExisting(String topic) {
        TopicQueues queues = topic == null ? null : topics.get(topic);
        return queues == null ? Optional.empty() : Optional.of(queues.type);
    }

    /**
     * Destroys every queue of {@code topic} and removes its directories.
     *
     * @return the number of queues destroyed
     * @throws UncheckedIOException if files cannot be deleted
     */
    public int deleteTopic(String topic) {
        TopicQueues queues = topic == null ? null : topics.remove(topic);
        int destroyed = 0;
        if (queues != null) {
            synchronized (queues) {
                for (ConsumeQueue queue : queues.all()) {
                    queue.destroy();
                    destroyed++;
                }
            }
        }
        if (isValidTopic(topic)) {
            deleteIfEmpty(settings.simpleCqDir().resolve(topic));
            deleteIfEmpty(settings.batchCqDir().resolve(topic));
        }
        LOG.info("deleted {} consume queues of topic {}", destroyed, topic);
        return destroyed;
    }

    private static void deleteIfEmpty(Path directory) {
        try {
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete topic directory " + directory, e);
        }
    }

    /** A snapshot of every queue, for store-wide passes (recovery, trim, flush). */
    public List<ConsumeQueue> queues() {
        List<ConsumeQueue> all = new ArrayList<>();
        for (TopicQueues queues : topics.values()) {
            all.addAll(queues.all());
        }
        return all;
    }

    /** Flushes every queue. */
    public void flushAll() {
        for (ConsumeQueue queue : queues()) {
            queue.flush();
        }
    }

    /** Next offset of every queue: rebuilds the CommitLog's queue offset table after recovery. */
    public Map<QueueKey, Long> maxOffsets() {
        Map<QueueKey, Long> offsets = new HashMap<>();
        for (ConsumeQueue queue : queues()) {
            offsets.put(new QueueKey(queue.topic(), queue.queueId()), queue.maxOffset());
        }
        return offsets;
    }

    /** The largest {@link ConsumeQueue#maxPhysicalEnd()} of all queues: everything below it was dispatched. */
    public long maxPhysicalEnd() {
        long end = 0;
        for (ConsumeQueue queue : queues()) {
            end = Math.max(end, queue.maxPhysicalEnd());
        }
        return end;
    }

    /**
     * The lowest {@link ConsumeQueue#startOfSlotReachingPast} of every queue: recovery re-dispatches from there at
     * the latest, since {@link #truncateFromPosition} drops those slots whole. Dispatch must be stopped.
     */
    public long startOfSlotsReachingPast(long commitLogPosition) {
        long start = Long.MAX_VALUE;
        for (ConsumeQueue queue : queues()) {
            start = Math.min(start, queue.startOfSlotReachingPast(commitLogPosition));
        }
        return start;
    }

    /**
     * {@link ConsumeQueue#truncateFromPosition} on every queue (the CommitLog was cut back). Dispatch must be
     * stopped.
     *
     * @return slots dropped in total
     */
    public long truncateFromPosition(long commitLogPosition) {
        long dropped = 0;
        for (ConsumeQueue queue : queues()) {
            dropped += queue.truncateFromPosition(commitLogPosition);
        }
        return dropped;
    }

    /**
     * {@link ConsumeQueue#trimBelowPosition} on every queue (the CommitLog's first file was deleted).
     *
     * @return files deleted in total
     */
    public int trimBelowPosition(long minCommitLogPosition) {
        int deleted = 0;
        for (ConsumeQueue queue : queues()) {
            deleted += queue.trimBelowPosition(minCommitLogPosition);
        }
        return deleted;
    }

    public IndexSettings settings() {
        return settings;
    }

    /**
     * Flushes and closes every queue. Idempotent. Every queue is closed even if a flush fails; the first
     * failure is then thrown.
     */
    @Override
    public void close() {
        closed = true;
        RuntimeException failure = null;
        for (ConsumeQueue queue : queues()) {
            try {
                queue.close();
            } catch (RuntimeException e) {
                LOG.error("consume queue {}-{}: flush at close failed", queue.topic(), queue.queueId(), e);
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void requireValid(String topic, int queueId) {
        if (!isValidTopic(topic)) {
            throw new IllegalArgumentException("invalid topic name '" + topic + "': need 1 to " + MAX_TOPIC_LENGTH
                    + " characters out of a-z A-Z 0-9 _ - % |");
        }
        if (queueId < 0 || queueId >= settings.maxQueuesPerTopic()) {
            throw new IllegalArgumentException("queueId " + queueId + " of topic " + topic + " is outside [0, "
                    + settings.maxQueuesPerTopic() + ")");
        }
    }

    /** The characters RocketMQ allows in a topic name; none of them can escape a directory. */
    static boolean isValidTopic(String topic) {
        if (topic == null || topic.isEmpty() || topic.length() > MAX_TOPIC_LENGTH) {
            return false;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '%' || c == '|';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
