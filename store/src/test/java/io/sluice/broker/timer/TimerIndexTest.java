package io.sluice.broker.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The timer index on disk: what it holds survives a reopen, scans return the due timers in time order against a
 * model, and a directory holding another format or a damaged database is refused with an error naming it, never
 * read as an empty index.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimerIndexTest {

    @TempDir
    Path dir;

    @Test
    void shouldKeepTimersOffsetAndCountAcrossAReopen() {
        try (TimerIndex index = TimerIndex.open(dir)) {
            assertEquals(0, index.pendingCount());
            assertEquals(0, index.ingestedOffset());
            assertEquals(Optional.empty(), index.first());
            index.ingest(List.of(new TimerKey(300, 1), new TimerKey(100, 2), new TimerKey(200, 3)), 3);
            index.ingest(List.of(new TimerKey(100, 2)), 4); // the same record re-read: counted once
            assertEquals(3, index.pendingCount());
            index.remove(List.of(new TimerKey(100, 2)));
        }
        try (TimerIndex index = TimerIndex.open(dir)) {
            assertEquals(2, index.pendingCount());
            assertEquals(4, index.ingestedOffset());
            assertEquals(Optional.of(new TimerKey(200, 3)), index.first());
            assertEquals(List.of(new TimerKey(200, 3), new TimerKey(300, 1)), index.due(Long.MAX_VALUE, 10));
        }
    }

    @Test
    void shouldScanDueTimersInTimeOrderLikeASortedSet() {
        Random random = new Random(26);
        TreeSet<TimerKey> model = new TreeSet<>();
        try (TimerIndex index = TimerIndex.open(dir)) {
            long offset = 0;
            long now = 0;
            for (int round = 0; round < 300; round++) {
                List<TimerKey> added = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    // Some due before the scan start, so that it must move back.
                    added.add(new TimerKey(Math.max(0, now + random.nextInt(2_000) - 500), random.nextInt(1 << 20)));
                }
                added = added.stream().distinct().toList(); // one record is one timer
                offset += added.size();
                index.ingest(added, offset);
                model.addAll(added);
                now += random.nextInt(100);
                int max = 1 + random.nextInt(5);
                List<TimerKey> due = index.due(now, max);
                List<TimerKey> expected = model.headSet(new TimerKey(now, Long.MAX_VALUE), true).stream()
                        .limit(max).toList();
                assertEquals(expected, due, "round " + round + " at " + now);
                index.remove(due);
                due.forEach(model::remove);
                assertEquals(model.size(), index.pendingCount());
                assertEquals(model.isEmpty() ? Optional.empty() : Optional.of(model.first()), index.first());
            }
        }
    }

    @Test
    void shouldRefuseAnIndexOfAnotherFormatVersion() throws RocksDBException {
        TimerIndex.open(dir).close();
        writeProgress(TimerIndexDescriptor.FORMAT_KEY, TimerIndexDescriptor.FORMAT_VERSION + 1);
        UncheckedIOException refused = assertThrows(UncheckedIOException.class, () -> TimerIndex.open(dir));
        assertTrue(refused.getMessage().contains("format version " + (TimerIndexDescriptor.FORMAT_VERSION + 1)),
                refused.getMessage());
    }

    @Test
    void shouldRefuseADamagedDatabaseRatherThanStartEmpty() throws IOException {
        try (TimerIndex index = TimerIndex.open(dir)) {
            index.ingest(List.of(new TimerKey(100, 1)), 1);
        }
        Files.writeString(dir.resolve("CURRENT"), "no such manifest", StandardCharsets.US_ASCII);
        UncheckedIOException refused = assertThrows(UncheckedIOException.class, () -> TimerIndex.open(dir));
        assertTrue(refused.getMessage().contains(dir.toString()), refused.getMessage());
    }

    /** Writes a progress value with RocksDB itself, as another build of the index would have. */
    private void writeProgress(byte[] key, long value) throws RocksDBException {
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(TimerIndexDescriptor.ascii(TimerIndexDescriptor.CF_DEFAULT)),
                new ColumnFamilyDescriptor(TimerIndexDescriptor.ascii(TimerIndexDescriptor.CF_TIMERS)));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.open(options, dir.toString(), families, handles)) {
            try {
                db.put(handles.get(0), key, TimerIndexDescriptor.encodeLong(value));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
