package io.sluice.store;

import static io.sluice.store.StoreFixture.SEGMENT_BYTES;
import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.appendOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.keyindex.KeyIndexSettings;
import io.sluice.store.log.AppendResult;
import io.sluice.testing.Await;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import io.sluice.format.RecordDescriptor;
import io.sluice.store.retention.RetentionSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The key index through the façade: lookups, crash recovery, damaged files, retention. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageStoreKeyIndexTest {

    /** Small files, so that a few thousand messages span several. */
    private static final int SLOTS = 64;
    private static final int ENTRIES = 1_000;

    @TempDir
    Path root;

    private MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private void open() throws IOException {
        store = MessageStore.open(settings().build(), StoreFixture.TYPES);
    }

    private StoreSettings.Builder settings() {
        return StoreFixture.settings(root).keyIndex(KeyIndexSettings.defaults(root).withSizes(SLOTS, ENTRIES)
                .withCheckpointIntervalMs(50));
    }

    private static MessageDraft keyed(int i) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.KEYS, "order-" + i + " customer-" + (i % 10));
        properties.put(MessageProperties.UNIQ_KEY, "U" + i);
        return StoreFixture.draft(SIMPLE_TOPIC, i % 4, ("m" + i).getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(properties));
    }

    private List<AppendResult> append(int from, int to) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = from; i < to; i++) {
            results.add(appendOk(store, keyed(i)));
        }
        return results;
    }

    private void awaitIndexed() {
        Await.until("key index caught up", () ->
                store.keyIndexStats().indexedPosition() >= store.stats().writtenPosition());
    }

    private List<String> bodies(String key, boolean unique) {
        List<String> out = new ArrayList<>();
        for (ByteBuffer record : store.findByKey(SIMPLE_TOPIC, key, unique, 0, Long.MAX_VALUE, 64)) {
            int sysFlag = record.getInt(RecordDescriptor.SYS_FLAG_OFFSET);
            int at = RecordDescriptor.bodyLengthOffset(sysFlag);
            byte[] body = new byte[record.getInt(at)];
            record.get(at + Integer.BYTES, body);
            out.add(new String(body, StandardCharsets.UTF_8));
        }
        return out;
    }

    private long indexFiles() throws IOException {
        try (Stream<Path> files = Files.list(root.resolve(KeyIndexSettings.DIR_NAME))) {
            return files.count();
        }
    }

    @Test
    void shouldFindTheOldestMessageByKeyAndByUniqueKeyAcrossFiles() throws IOException {
        open();
        append(0, 2_000);
        awaitIndexed();
        assertTrue(indexFiles() >= 5, "three keys a message, 1,000 entries a file: " + indexFiles());
        assertEquals(List.of("m0"), bodies("order-0", false));
        assertEquals(List.of("m0"), bodies("U0", true));
        assertEquals(List.of("m1999"), bodies("U1999", true));
        assertEquals(List.of(), bodies("U0", false), "a unique key is not a key");
        assertEquals(List.of(), bodies("order-0", true), "a key is not a unique key");
        assertEquals(List.of(), store.findByKey("other", "order-0", false, 0, Long.MAX_VALUE, 64), "other topic");
        List<String> customer = bodies("customer-3", false);
        assertEquals(64, customer.size(), "maxRecords");
        assertEquals("m1993", customer.get(0), "newest first");
    }

    @Test
    void shouldHonourTheStoreTimeRange() throws IOException {
        open();
        append(0, 10);
        awaitIndexed();
        ByteBuffer record = store.findByKey(SIMPLE_TOPIC, "U5", true, 0, Long.MAX_VALUE, 1).get(0);
        long stored = record.getLong(RecordDescriptor.storeTimestampOffset(record.getInt(
                RecordDescriptor.SYS_FLAG_OFFSET)));
        assertEquals(1, store.findByKey(SIMPLE_TOPIC, "U5", true, stored, stored, 1).size());
        assertEquals(0, store.findByKey(SIMPLE_TOPIC, "U5", true, stored + 1, Long.MAX_VALUE, 1).size());
        assertEquals(0, store.findByKey(SIMPLE_TOPIC, "U5", true, 0, stored - 1, 1).size());
    }

    @Test
    void shouldIndexAgainWhatACrashLeftUncheckpointed() throws IOException {
        open();
        append(0, 1_500);
        awaitIndexed();
        store.haltWithoutCleanShutdown();
        store = null;
        open();
        awaitIndexed();
        for (int i = 0; i < 1_500; i += 7) {
            assertEquals(List.of("m" + i), bodies("U" + i, true), "U" + i);
        }
        assertEquals(List.of("m1499"), bodies("order-1499", false));
        append(1_500, 1_600);
        awaitIndexed();
        assertEquals(List.of("m1599"), bodies("U1599", true));
    }

    @Test
    void shouldRebuildADamagedFileFromTheCommitLog() throws IOException {
        open();
        append(0, 1_000);
        awaitIndexed();
        store.close();
        store = null;
        Path oldest;
        try (Stream<Path> files = Files.list(root.resolve(KeyIndexSettings.DIR_NAME))) {
            oldest = files.sorted().findFirst().orElseThrow();
        }
        StoreFixture.overwrite(oldest, 20, new byte[] {9, 9, 9, 9});
        open();
        awaitIndexed();
        assertEquals(1, store.keyIndexStats().damagedFilesAtOpen());
        for (int i = 0; i < 1_000; i += 3) {
            assertEquals(List.of("m" + i), bodies("U" + i, true), "U" + i);
        }
    }

    @Test
    void shouldDeleteIndexFilesWithTheSegmentsTheyCover() throws IOException {
        CachedEpochClock clock = new CachedEpochClock();
        long t0 = Instant.parse("2024-01-10T04:30:00Z").toEpochMilli();
        clock.update(t0);
        store = MessageStore.open(settings().retention(RetentionSettings.defaults().withCheckIntervalMs(3_600_000))
                .build(), StoreFixture.TYPES, StoreFixture.environment(clock, new double[] {0.1}));
        int n = 0;
        while (store.stats().writtenPosition() < 3L * SEGMENT_BYTES + SEGMENT_BYTES / 2) {
            appendOk(store, keyed(n++));
        }
        awaitIndexed();
        long before = indexFiles();
        clock.update(t0 + TimeUnit.HOURS.toMillis(96));
        assertEquals(3, store.runRetention().deletedSegments());
        long min = store.logStartPosition();
        Await.until("index files of deleted segments deleted", () -> store.keyIndexStats().filesDeleted() > 0);
        assertTrue(indexFiles() < before, before + " files before, " + indexFiles() + " after");
        assertEquals(List.of(), bodies("U0", true), "its segment is gone");
        assertEquals(List.of("m" + (n - 1)), bodies("U" + (n - 1), true));
        assertTrue(min > 0);
    }
}
