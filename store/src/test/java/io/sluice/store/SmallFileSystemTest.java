package io.sluice.store;

import static io.sluice.store.StoreFixture.SIMPLE_TOPIC;
import static io.sluice.store.StoreFixture.awaitMaxOffset;
import static io.sluice.store.StoreFixture.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.log.AppendResult;
import io.sluice.store.log.AppendStatus;
import io.sluice.testing.Await;
import io.sluice.store.retention.RetentionSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * On a real small file system (opt-in: {@code -Dsluice.smallFs=DIR}, an empty directory on a file system of a
 * few MiB, e.g. {@code mount -t tmpfs -o size=16m tmpfs DIR}; mounting needs root, so CI does not run this): a
 * store into a hole of a mapped sparse file on a full disk faults (the JVM's InternalError for SIGBUS), which is
 * why the CommitLog writes through the file; the store itself answers DISK_FULL from the first failed write on,
 * stops at the refuse ratio before the disk is full, loses nothing it accepted and resumes when space frees.
 */
@EnabledIfSystemProperty(named = "sluice.smallFs", matches = ".+")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SmallFileSystemTest {

    private final Path fs = Path.of(System.getProperty("sluice.smallFs", "."));
    private Path root;
    private MessageStore store;

    @BeforeEach
    void clean() throws IOException {
        root = fs.resolve("store");
        deleteAll(fs);
    }

    @AfterEach
    void close() throws IOException {
        if (store != null) {
            store.close();
        }
        deleteAll(fs);
    }

    private static void deleteAll(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                try (Stream<Path> tree = Files.walk(p)) {
                    for (Path f : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(f);
                    }
                }
            }
        }
    }

    /** Writes zeros into {@code file} until the file system refuses; returns the bytes written. */
    private static long fill(Path file) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(64 * 1024);
        long written = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            while (true) {
                zeros.clear();
                written += ch.write(zeros, written);
            }
        } catch (IOException full) {
            return written;
        }
    }

    @Test
    void aStoreIntoAHoleOfAMappedFileFaultsOnAFullDisk() throws IOException {
        Path sparse = fs.resolve("sparse");
        try (FileChannel ch = FileChannel.open(sparse, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1), (4 << 20) - 1);
            MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, 4 << 20);
            fill(fs.resolve("filler"));
            // The JVM reports the fault later, at its next safepoint, not at the store: here at the native call.
            InternalError fault = assertThrows(InternalError.class, () -> {
                mapped.put(1 << 20, (byte) 1);
                Thread.yield();
            }, "SIGBUS, as the issue saw it");
            assertTrue(fault.getMessage().contains("unsafe memory access"), fault.getMessage());
        }
    }

    @Test
    void theStoreAnswersDiskFullFromTheFirstFailedWriteAndResumesWhenSpaceFrees() throws IOException {
        store = openStore(1.0);
        int before = 50;
        for (int i = 0; i < before; i++) {
            StoreFixture.appendOk(store, draft(SIMPLE_TOPIC, 0, "x".repeat(4_000) + i));
        }
        fill(fs.resolve("other")); // another writer takes the rest between two disk checks
        int stored = before + appendUntilRefused(false);
        for (int i = 0; i < 3; i++) {
            assertEquals(AppendStatus.DISK_FULL, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "again"))).status());
        }
        assertTrue(store.stats().writable(), "a full disk is not a storage failure");
        awaitMaxOffset(store, SIMPLE_TOPIC, 0, stored);
        assertEquals(stored, store.getMessages(SIMPLE_TOPIC, 0, 0, stored, Integer.MAX_VALUE, null).messageCount());

        Files.delete(fs.resolve("other"));
        store.runRetention();
        assertEquals(AppendStatus.PUT_OK, Await.result(store.append(draft(SIMPLE_TOPIC, 0, "after"))).status());
    }

    @Test
    void theStoreStopsAtTheRefuseRatioBeforeTheDiskIsFull() throws IOException {
        store = openStore(0.90);
        appendUntilRefused(true);
        long total = Files.getFileStore(fs).getTotalSpace();
        long usable = Files.getFileStore(fs).getUsableSpace();
        assertTrue(usable > total / 20, "stopped with " + usable + " of " + total + " bytes left");
    }

    private MessageStore openStore(double refuseRatio) throws IOException {
        // Another writer leaves the store 12 MiB (at most half the file system).
        StoreSettings.Builder b = StoreSettings.builder(root, StoreFixture.STORE_HOST)
                .retention(RetentionSettings.defaults().withRatios(0.75, 0.85, refuseRatio)
                        .withCheckIntervalMs(3_600_000))
                .index(io.sluice.store.index.IndexSettings.defaults(root).withSimpleCqSlotsPerFile(10_000));
        b.log().segmentBytes(1 << 20).maxMessageBytes(64 * 1024).zeroFillAheadBytes(0);
        MessageStore s = MessageStore.open(b.build(), StoreFixture.TYPES);
        long total = Files.getFileStore(fs).getTotalSpace();
        try (FileChannel ch = FileChannel.open(fs.resolve("filler"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(64 * 1024);
            long keep = Math.min(total / 2, 12L << 20);
            for (long at = 0; Files.getFileStore(fs).getUsableSpace() > keep; at += zeros.capacity()) {
                zeros.clear();
                ch.write(zeros, at);
            }
        }
        s.runRetention();
        return s;
    }

    /** Appends until refused; with {@code checks}, runs the disk check every 256 appends. */
    private int appendUntilRefused(boolean checks) {
        int stored = 0;
        while (true) {
            AppendResult r = Await.result(store.append(draft(SIMPLE_TOPIC, 0, "x".repeat(4_000) + stored)));
            if (r.status() != AppendStatus.PUT_OK) {
                assertEquals(AppendStatus.DISK_FULL, r.status(), "refused with " + r);
                return stored;
            }
            stored++;
            if (checks && stored % 256 == 0) {
                store.runRetention();
            }
        }
    }
}
