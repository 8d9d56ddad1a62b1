package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.store.DispatchEntry;
import io.sluice.format.ConsumeQueueType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One queue of one type in a table under a root directory, plus the model of what was appended: the records
 * (offset, batch, position, size, tags, store time) and a fake CommitLog answering store-time lookups.
 */
final class QueueFixture implements AutoCloseable {

    static final String TOPIC = "TopicA";
    static final int QUEUE_ID = 3;

    /** A record of the model. */
    record Rec(long offset, int batch, long position, int size, long tags, long timeMs) {
        DispatchEntry entry() {
            return new DispatchEntry(TOPIC, QUEUE_ID, offset, batch, position, size, tags, timeMs, 0);
        }

        long next() {
            return offset + batch;
        }

        long end() {
            return position + size;
        }

        boolean holds(long queueOffset) {
            return queueOffset >= offset && queueOffset < next();
        }

        QueueSlot slot(ConsumeQueueType type) {
            return new QueueSlot(position, size, tags, offset, batch,
                    type == ConsumeQueueType.SIMPLE ? QueueSlot.UNKNOWN_STORE_TIME : timeMs);
        }
    }

    final Path root;
    final ConsumeQueueType type;
    final IndexSettings settings;
    final Map<Long, Long> timeByPosition = new ConcurrentHashMap<>();
    final List<Rec> records = new ArrayList<>();
    ConsumeQueueTable table;
    ConsumeQueue queue;
    /** How the table is told the previous run ended when it is (re)opened. */
    LastStop lastStop = LastStop.CRASH;

    QueueFixture(Path root, ConsumeQueueType type, int slotsPerFile) {
        this.root = root;
        this.type = type;
        this.settings = IndexSettings.defaults(root).withSimpleCqSlotsPerFile(slotsPerFile)
                .withBatchCqSlotsPerFile(slotsPerFile);
        open();
    }

    void open() {
        try {
            table = ConsumeQueueTable.open(settings, topic -> type, this::storeTime, lastStop);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        queue = table.getOrCreate(TOPIC, QUEUE_ID);
    }

    void reopen() {
        table.close();
        open();
    }

    long storeTime(long position, int sizeBytes) {
        return timeByPosition.getOrDefault(position, -1L);
    }

    int slotBytes() {
        return type == ConsumeQueueType.SIMPLE ? ConsumeQueueDescriptor.SLOT_BYTES : BatchConsumeQueueDescriptor.SLOT_BYTES;
    }

    /** The next record after the last one of the model (not appended). */
    Rec next(int batch, long timeMs) {
        if (records.isEmpty()) {
            return startAt(0, batch, timeMs);
        }
        Rec last = records.get(records.size() - 1);
        int n = records.size();
        return new Rec(last.next(), batch, last.end() + 7 * (n % 3), 100 + n % 13, 31L * n - 5, timeMs);
    }

    Rec startAt(long offset, int batch, long timeMs) {
        return new Rec(offset, batch, 1_000, 100, 17, timeMs);
    }

    /** Appends a record, expecting APPENDED, and adds it to the model. */
    Rec append(Rec rec) {
        assertEquals(SlotAppendStatus.APPENDED, queue.append(rec.entry()), () -> "append " + rec);
        records.add(rec);
        timeByPosition.put(rec.position(), rec.timeMs());
        return rec;
    }

    /** Appends {@code n} records; batch sizes cycle 1..3 for BatchCQ; store times 1000, 1010, 1020, ... */
    List<Rec> appendMany(int n) {
        List<Rec> added = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int batch = type == ConsumeQueueType.SIMPLE ? 1 : 1 + records.size() % 3;
            added.add(append(next(batch, 1_000 + 10L * records.size())));
        }
        return added;
    }

    Rec last() {
        return records.get(records.size() - 1);
    }

    Path queueDir() {
        Path base = type == ConsumeQueueType.SIMPLE ? settings.simpleCqDir() : settings.batchCqDir();
        return base.resolve(TOPIC).resolve(Integer.toString(QUEUE_ID));
    }

    List<Path> files() {
        if (!Files.isDirectory(queueDir())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(queueDir())) {
            return files.sorted(Comparator.comparing(Path::toString)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        table.close();
    }

    static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
