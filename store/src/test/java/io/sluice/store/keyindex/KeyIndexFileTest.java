package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeyIndexFileTest {

    private static final int SLOTS = 16;
    private static final int ENTRIES = 256;
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldFindEveryEntryOfAKeyNewestFirstWithinTheTimeRange() throws IOException {
        KeyIndexFile file = KeyIndexFile.create(dir, 1000, SLOTS, ENTRIES);
        for (int i = 0; i < 200; i++) {
            file.add(hash("k" + (i % 7)), 1000 + i * 100L, T0 + i);
        }
        assertEquals(List.of(), lookup(file, "k3", 0, Long.MAX_VALUE), "entries wait for the flush");
        file.flush();
        List<Long> all = lookup(file, "k3", 0, Long.MAX_VALUE);
        assertEquals(29, all.size());
        assertEquals(1000 + 199 / 7 * 7 * 100L + 300, all.get(0), "newest first");
        assertEquals(1300, all.get(all.size() - 1));
        List<Long> ranged = lookup(file, "k3", T0 + 10, T0 + 24);
        assertEquals(List.of(1000 + 24 * 100L, 1000 + 17 * 100L, 1000 + 10 * 100L), ranged);
        assertEquals(List.of(), lookup(file, "k3", T0 + 500, Long.MAX_VALUE), "after the file's last entry");
        assertEquals(List.of(), lookup(file, "absent", 0, Long.MAX_VALUE));
        assertEquals(ENTRIES - 201, file.freeEntries());
        file.unmap();
    }

    @Test
    void shouldDropWhatWasWrittenAfterTheCheckpointWhenReopenedAfterACrash() throws IOException {
        KeyIndexFile file = KeyIndexFile.create(dir, 0, SLOTS, ENTRIES);
        for (int i = 0; i < 50; i++) {
            file.add(hash("k" + (i % 5)), i * 10L, T0 + i);
        }
        file.coverTo(500);
        file.checkpoint();
        for (int i = 50; i < 80; i++) {
            file.add(hash("k" + (i % 5)), i * 10L, T0 + i);
        }
        file.coverTo(800);
        file.flush(); // written to the file, and then
        file.unmap(); // a crash: no checkpoint of the last 30 entries

        KeyIndexFile reopened = KeyIndexFile.open(dir.resolve(KeyIndexDescriptor.fileName(0)));
        assertEquals(500, reopened.endPosition(), "indexing resumes at the checkpoint");
        assertEquals(50, reopened.entryCount());
        List<Long> k2 = lookup(reopened, "k2", 0, Long.MAX_VALUE);
        assertEquals(10, k2.size());
        assertEquals(470L, k2.get(0), "entries past the checkpoint are no longer reachable");
        reopened.add(hash("k2"), 520, T0 + 52);
        reopened.flush();
        assertEquals(List.of(520L, 470L), lookup(reopened, "k2", 0, Long.MAX_VALUE).subList(0, 2));
        reopened.unmap();
    }

    @Test
    void shouldRefuseAFileWhoseHeaderIsDamaged() throws IOException {
        KeyIndexFile file = KeyIndexFile.create(dir, 0, SLOTS, ENTRIES);
        file.add(hash("k"), 0, T0);
        file.checkpoint();
        file.unmap();
        Path path = dir.resolve(KeyIndexDescriptor.fileName(0));
        overwrite(path, KeyIndexDescriptor.END_POSITION_OFFSET, new byte[] {1, 2, 3});
        KeyIndexDamagedException e = assertThrows(KeyIndexDamagedException.class, () -> KeyIndexFile.open(path));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void shouldRefuseAFileWhoseEntriesAfterTheCheckpointAreNotWhole() throws IOException {
        KeyIndexFile file = KeyIndexFile.create(dir, 0, SLOTS, ENTRIES);
        file.add(hash("k"), 0, T0);
        file.checkpoint();
        file.add(hash("k"), 10, T0 + 1);
        file.flush();
        file.unmap();
        Path path = dir.resolve(KeyIndexDescriptor.fileName(0));
        // The slot reached the disk, the entry's page did not.
        overwrite(path, KeyIndexDescriptor.entryByte(SLOTS, 2), new byte[KeyIndexDescriptor.ENTRY_BYTES]);
        assertThrows(KeyIndexDamagedException.class, () -> KeyIndexFile.open(path));
    }

    @Test
    void shouldKeepASealedFileAsItWas() throws IOException {
        KeyIndexFile file = KeyIndexFile.create(dir, 0, SLOTS, ENTRIES);
        file.add(hash("k"), 40, T0); // pending until the seal writes it
        file.coverTo(100);
        file.seal();
        file.unmap();
        KeyIndexFile reopened = KeyIndexFile.open(dir.resolve(KeyIndexDescriptor.fileName(0)));
        assertTrue(reopened.isSealed());
        assertEquals(100, reopened.endPosition());
        assertEquals(List.of(40L), lookup(reopened, "k", 0, Long.MAX_VALUE));
        reopened.unmap();
    }

    private static long hash(String key) {
        return KeyHash.of("T", KeyHash.KIND_KEY, key);
    }

    /**
     * Entries and slots are written through the channel, in batches, while a reader walks chains through the
     * mapping: a reader that sees a slot sees the whole entry it names, so every position found belongs to the key
     * looked up.
     */
    @Test
    void aConcurrentReaderSeesOnlyWholeEntries() throws Exception {
        int keys = 40;
        int adds = 20_000;
        KeyIndexFile file = KeyIndexFile.create(dir, 0, 64, adds + 1);
        AtomicInteger added = new AtomicInteger();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            int round = 0;
            while (added.get() < adds && wrong.get() == null) {
                int known = added.get();
                String key = "k" + (round++ % keys);
                KeyMatches matches = new KeyMatches(position -> true, adds / keys + 1);
                file.lookup(hash(key), 0, Long.MAX_VALUE, matches);
                int expectedAtLeast = known / keys;
                for (long position : matches.positions()) {
                    // Entry i holds position i * 10 under key "k" + (i % keys).
                    if (position % 10 != 0 || !("k" + (position / 10 % keys)).equals(key)) {
                        wrong.set(key + " found position " + position);
                    }
                }
                if (matches.positions().size() < expectedAtLeast) {
                    wrong.set(key + " found " + matches.positions().size() + " entries, " + expectedAtLeast
                            + " were added before the lookup");
                }
            }
        }, "key-index-reader");
        reader.start();
        for (int i = 0; i < adds; i++) {
            file.add(hash("k" + (i % keys)), i * 10L, T0 + i);
            // Flushes every 100 adds, and the file itself when 256 wait: both kinds of write race the reader.
            if ((i + 1) % 100 == 0 || i + 1 == adds) {
                file.flush();
                added.set(i + 1);
            }
        }
        reader.join(20_000);
        assertEquals(null, wrong.get());
        file.unmap();
    }

    private static List<Long> lookup(KeyIndexFile file, String key, long beginMs, long endMs) {
        KeyMatches matches = new KeyMatches(position -> true, 1000);
        file.lookup(hash(key), beginMs, endMs, matches);
        return new ArrayList<>(matches.positions());
    }

    /** Writes {@code bytes} at {@code at} through the file, as a torn or damaged write would leave it. */
    private static void overwrite(Path file, long at, byte[] bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            raf.write(bytes);
        }
    }
}
