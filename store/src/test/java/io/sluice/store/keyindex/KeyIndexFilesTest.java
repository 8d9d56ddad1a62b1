package io.sluice.store.keyindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key-index file table: rolls to a new file when the newest is full, looks keys up newest file first, and on
 * open resumes at the newest checkpoint, re-indexes from a damaged or unsealed file on (deleting what follows it),
 * keeps the resume position inside the log and deletes files wholly below the log's first position.
 */
@Timeout(30)
class KeyIndexFilesTest {

    private static final int SLOTS = 16;
    /** The smallest file: 127 usable entries (entry 0 is never used). */
    private static final int ENTRIES = KeyIndexDescriptor.MIN_ENTRIES;
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path root;

    private final List<KeyIndexFiles> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(files -> files.close(false));
    }

    @Test
    void anEmptyDirectoryResumesAtTheLogsFirstPosition() throws IOException {
        KeyIndexFiles files = open(4096, 9000);
        assertEquals(4096, files.resumePosition());
        assertEquals(0, files.fileCount());
        assertEquals(0, files.damagedFilesAtOpen());
        files.coverTo(5000);
        files.checkpoint();
        assertEquals(0, files.fileCount(), "covering and checkpointing without a file create none");
    }

    @Test
    void aFullFileIsSealedAtTheNextRecordAndANewOneStartsThere() throws IOException {
        KeyIndexFiles files = open(0, 0);
        KeyIndexFile first = files.writable(1, 0);
        assertEquals(0, first.beginPosition());
        for (int i = 0; i < ENTRIES - 3; i++) {
            files.writable(1, i * 100L).add(hash("k"), i * 100L, T0 + i);
        }
        assertEquals(2, first.freeEntries());
        assertSame(first, files.writable(2, 12_500), "two keys still fit");
        KeyIndexFile second = files.writable(3, 12_500);
        assertTrue(first.isSealed());
        assertEquals(12_500, first.endPosition(), "the sealed file covers the log up to the new record");
        assertEquals(12_500, second.beginPosition());
        assertFalse(second.isSealed());
        assertEquals(2, files.fileCount());
        assertTrue(Files.exists(root.resolve("index").resolve(KeyIndexDescriptor.fileName(12_500))));
    }

    @Test
    void lookupsReadTheNewestFileFirstUntilTheMatchesAreFull() throws IOException {
        KeyIndexFiles files = filledWithThreeFiles();
        KeyMatches all = new KeyMatches(position -> true, 1_000);
        files.lookup(hash("even"), 0, Long.MAX_VALUE, all);
        List<Long> positions = new ArrayList<>(all.positions());
        assertEquals(150, positions.size());
        assertEquals(29_800L, positions.get(0), "the newest entry of the newest file first");
        assertEquals(0L, positions.get(positions.size() - 1));
        for (int i = 1; i < positions.size(); i++) {
            assertTrue(positions.get(i) < positions.get(i - 1), "newest first across files at " + i);
        }

        KeyMatches three = new KeyMatches(position -> true, 3);
        files.lookup(hash("even"), 0, Long.MAX_VALUE, three);
        assertEquals(List.of(29_800L, 29_600L, 29_400L), new ArrayList<>(three.positions()));

        KeyMatches ranged = new KeyMatches(position -> true, 1_000);
        files.lookup(hash("odd"), T0 + 101, T0 + 105, ranged);
        assertEquals(List.of(10_500L, 10_300L, 10_100L), new ArrayList<>(ranged.positions()),
                "only the entries stored within the time range");
    }

    @Test
    void reopeningResumesAtTheNewestFilesCheckpoint() throws IOException {
        KeyIndexFiles files = filledWithThreeFiles();
        closeCovering(files, 30_000);

        KeyIndexFiles reopened = open(0, 40_000);
        assertEquals(3, reopened.fileCount());
        assertEquals(30_000, reopened.resumePosition());
        assertEquals(0, reopened.damagedFilesAtOpen());
        KeyMatches all = new KeyMatches(position -> true, 1_000);
        reopened.lookup(hash("odd"), 0, Long.MAX_VALUE, all);
        assertEquals(150, all.positions().size(), "every checkpointed entry is found again");
    }

    @Test
    void theResumePositionStaysInsideTheLog() throws IOException {
        KeyIndexFiles files = filledWithThreeFiles();
        closeCovering(files, 30_000);
        assertEquals(20_000, open(0, 20_000).resumePosition(), "not beyond the recovered log's end");
    }

    @Test
    void aDamagedFileIsDeletedWithEveryLaterOneAndIndexedAgain() throws IOException {
        List<Long> begins = new ArrayList<>();
        KeyIndexFiles reopened = reopenedWithDamagedFile(1, begins);
        assertEquals(1, reopened.damagedFilesAtOpen());
        assertEquals(1, reopened.fileCount());
        assertEquals(List.of(begins.get(0)), beginsOnDisk(), "the damaged file and the one after it are gone");
        assertEquals(begins.get(1), reopened.resumePosition(), "indexing resumes where the first file ends");
    }

    @Test
    void aDamagedOldestFileResumesAtItsBeginning() throws IOException {
        List<Long> begins = new ArrayList<>();
        KeyIndexFiles reopened = reopenedWithDamagedFile(0, begins);
        assertEquals(0, reopened.fileCount());
        assertEquals(List.of(), beginsOnDisk());
        assertEquals(begins.get(0), reopened.resumePosition());
    }

    @Test
    void filesAfterAnUnsealedOneAreDeleted() throws IOException {
        KeyIndexFiles files = open(0, 0);
        files.writable(1, 0).add(hash("k"), 0, T0);
        files.coverTo(500);
        files.checkpoint();
        files.close(false);
        opened.remove(files); // as a crash leaves it: the checkpoint of 500 is the last
        // A later file next to an unsealed one: left by an interrupted roll.
        KeyIndexFile stray = KeyIndexFile.create(root.resolve("index"), 900, SLOTS, ENTRIES);
        stray.add(hash("k"), 900, T0 + 1);
        stray.coverTo(1000);
        stray.seal();
        stray.unmap();

        KeyIndexFiles reopened = open(0, 2000);
        assertEquals(1, reopened.fileCount());
        assertEquals(500, reopened.resumePosition(), "the unsealed file's checkpoint");
        assertEquals(List.of(0L), beginsOnDisk());
        assertEquals(0, reopened.damagedFilesAtOpen(), "a deleted later file is not a damaged one");
    }

    @Test
    void filesWhollyBelowTheLogsFirstPositionAreDeletedButNeverTheNewest() throws IOException {
        KeyIndexFiles files = filledWithThreeFiles();
        List<Long> begins = beginsOnDisk();
        assertEquals(0, files.deleteCoveredBelow(begins.get(1) - 1), "the oldest still holds a record");
        assertEquals(1, files.deleteCoveredBelow(begins.get(1)));
        assertEquals(begins.subList(1, 3), beginsOnDisk());
        assertEquals(1, files.deleteCoveredBelow(Long.MAX_VALUE), "the newest file is kept");
        assertEquals(List.of(begins.get(2)), beginsOnDisk());
        assertEquals(1, files.fileCount());
        KeyMatches all = new KeyMatches(position -> true, 1_000);
        files.lookup(hash("even"), 0, Long.MAX_VALUE, all);
        assertEquals(23, all.positions().size(), "the even records 254 to 298 of the newest file");
        assertTrue(all.positions().stream().allMatch(p -> p >= begins.get(2)));
    }

    @Test
    void openingDeletesFilesBelowTheLogsFirstPositionAndIgnoresOtherNames() throws IOException {
        KeyIndexFiles files = filledWithThreeFiles();
        List<Long> begins = beginsOnDisk();
        closeCovering(files, 30_000);
        Files.writeString(root.resolve("index").resolve("notes.txt"), "not an index file");

        KeyIndexFiles reopened = open(begins.get(2) + 100, 40_000);
        assertEquals(1, reopened.fileCount());
        assertEquals(30_000, reopened.resumePosition());
        assertEquals(List.of(begins.get(2)), beginsOnDisk());
        assertTrue(Files.exists(root.resolve("index").resolve("notes.txt")));
    }

    /** 300 records of one key each ("even" or "odd"), 100 bytes apart, one store-time ms apart: three files. */
    private KeyIndexFiles filledWithThreeFiles() throws IOException {
        KeyIndexFiles files = open(0, 0);
        for (int i = 0; i < 300; i++) {
            long position = i * 100L;
            files.writable(1, position).add(hash(i % 2 == 0 ? "even" : "odd"), position, T0 + i);
            files.coverTo(position + 100);
        }
        files.flush(); // the sealed files were flushed as they were sealed
        assertEquals(3, files.fileCount());
        return files;
    }

    /** Three files closed cleanly, the one at {@code index} then damaged, opened again; their begins go in. */
    private KeyIndexFiles reopenedWithDamagedFile(int index, List<Long> begins) throws IOException {
        closeCovering(filledWithThreeFiles(), 30_000);
        begins.addAll(beginsOnDisk());
        damageHeader(begins.get(index));
        return open(0, 40_000);
    }

    /** Covers the log up to {@code position}, checkpoints and closes, as a clean stop does. */
    private void closeCovering(KeyIndexFiles files, long position) {
        files.coverTo(position);
        files.close(true);
        opened.remove(files);
    }

    private KeyIndexFiles open(long logMinPosition, long logEndPosition) throws IOException {
        KeyIndexFiles files = KeyIndexFiles.open(new KeyIndexSettings(root.resolve("index"), true, SLOTS, ENTRIES,
                1_000), logMinPosition, logEndPosition);
        opened.add(files);
        return files;
    }

    private List<Long> beginsOnDisk() throws IOException {
        try (Stream<Path> listing = Files.list(root.resolve("index"))) {
            return listing.map(p -> KeyIndexDescriptor.parseFileName(p.getFileName().toString()))
                    .filter(begin -> begin >= 0).sorted().toList();
        }
    }

    private void damageHeader(long begin) throws IOException {
        Path file = root.resolve("index").resolve(KeyIndexDescriptor.fileName(begin));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(KeyIndexDescriptor.END_POSITION_OFFSET);
            raf.write(new byte[] {9, 9, 9});
        }
    }

    private static long hash(String key) {
        return KeyHash.of("T", KeyHash.KIND_KEY, key);
    }
}
