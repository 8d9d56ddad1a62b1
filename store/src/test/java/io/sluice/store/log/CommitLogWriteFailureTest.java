package io.sluice.store.log;

import io.sluice.testing.Await;
import io.sluice.format.BatchBodyDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.store.DispatchEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records are written through the segment's file: a failed write (a full disk) is answered at the append, leaves
 * nothing that could later pass for a record, and is a storage failure only when the disk is not full.
 */
@Timeout(60)
class CommitLogWriteFailureTest {

    private static final long ROOMY_BYTES = 1L << 40;

    @TempDir
    Path dir;

    /**
     * Fails the write call numbered {@link #failCall} (counted from 1 after {@link #arm}), or every call while
     * {@link #failAll} is set.
     */
    private final AtomicInteger calls = new AtomicInteger(-1_000_000);
    private volatile int failCall;
    private volatile boolean failAll;
    private volatile RuntimeException unchecked;
    private final AtomicLong usableBytes = new AtomicLong(ROOMY_BYTES);

    private final WriteHook hook = (position, bytes) -> {
        if (calls.incrementAndGet() == failCall || failAll) {
            if (unchecked != null) {
                throw unchecked;
            }
            throw new IOException("No space left on device (simulated)");
        }
    };

    private void arm(int callToFail) {
        calls.set(0);
        failCall = callToFail;
    }

    private LogEnvironment env() {
        return LogEnvironment.system().withWriteHook(hook).withDiskSpace(d -> usableBytes.get());
    }

    private byte[] readFile(long position, int length) throws IOException {
        return LogFixture.fileBytes(dir, position, length);
    }

    private List<String> recoveredTopicsAndOffsets() throws IOException {
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            List<DispatchEntry> seen = new ArrayList<>();
            log.recover(0, true, seen::add);
            return seen.stream().map(e -> e.topic() + ":" + e.queueOffset()).toList();
        }
    }

    @Test
    void aFullDiskRefusesTheAppendWithDiskFullUntilThereIsRoomAgain() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env())) {
            AppendResult first = LogFixture.appendOk(log, LogFixture.draft("T", 0, "first"));
            usableBytes.set(CommitLog.FULL_DISK_USABLE_BYTES - 1);
            failAll = true;
            for (int i = 0; i < 3; i++) {
                AppendResult refused = Await.result(log.append(LogFixture.draft("T", 0, "refused" + i)));
                assertEquals(AppendStatus.DISK_FULL, refused.status(), "while the disk stays full");
                assertTrue(log.isWritable(), "a full disk is not a storage failure");
                assertEquals(first.nextPosition(), log.writtenPosition(), "nothing was published");
            }

            assertEquals(first.nextPosition(), log.writeLimitPosition(),
                    "after the first full-disk failure appends are refused without trying a write");

            failAll = false;
            usableBytes.set(ROOMY_BYTES);
            log.limitWritesTo(Long.MAX_VALUE); // what the store's disk check does once it finds room
            AppendResult second = LogFixture.appendOk(log, LogFixture.draft("T", 0, "second"));
            assertEquals(first.nextPosition(), second.position());
            assertEquals(1, second.queueOffset(), "the refused message took no queue offset");
        }
        assertEquals(List.of("T:0", "T:1"), recoveredTopicsAndOffsets());
    }

    @Test
    void aFailedWriteWithRoomOnTheDiskIsAStorageFailure() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env())) {
            LogFixture.appendOk(log, LogFixture.draft("T", 0, "first"));
            arm(1);
            assertEquals(AppendStatus.IO_ERROR, Await.result(log.append(LogFixture.draft("T", 0, "x"))).status());
            assertFalse(log.isWritable());
            assertEquals(AppendStatus.SERVICE_NOT_AVAILABLE,
                    Await.result(log.append(LogFixture.draft("T", 0, "y"))).status());
        }
        assertEquals(List.of("T:0"), recoveredTopicsAndOffsets());
    }

    /**
     * The records of an unpacked batch after the first carry their own TOTALSIZE. When the batch's bytes reached
     * the file but its first TOTALSIZE did not, and a message of the first record's size then takes the same
     * position, the batch's second record would start exactly where that message ends, at its own position:
     * recovery would take it for a record. The failed append therefore zeros what it wrote.
     */
    @Test
    void aFailedAppendLeavesNothingThatRecoveryCouldTakeForARecord() throws IOException {
        List<BatchBodyDescriptor.Message> messages = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            messages.add(new BatchBodyDescriptor.Message(0, LogFixture.filled(200, m), "UNIQ_KEY\u0001id" + m
                    + "\u0002"));
        }
        AppendResult before;
        AppendResult same;
        int firstRecordBytes;
        try (CommitLog elsewhere = LogFixture.openRecovered(dir.resolve("elsewhere"))) {
            AppendResult batch = LogFixture.appendOk(elsewhere, LogFixture.draft("B", 0,
                    BatchBodyDescriptor.encode(messages), "").withKind(AppendKind.UNPACKED_BATCH));
            firstRecordBytes = (int) (batch.recordPosition(1) - batch.recordPosition(0));
        }
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env())) {
            before = LogFixture.appendOk(log, LogFixture.draft("B", 0, "before"));
            usableBytes.set(0);
            arm(2); // the batch's bytes are written, its first TOTALSIZE is not
            assertEquals(AppendStatus.DISK_FULL, Await.result(log.append(LogFixture.draft("B", 0,
                    BatchBodyDescriptor.encode(messages), "").withKind(AppendKind.UNPACKED_BATCH))).status());
            assertArrayEquals(new byte[4096], readFile(before.nextPosition(), 4096), "the failed batch was zeroed");

            usableBytes.set(ROOMY_BYTES);
            log.limitWritesTo(Long.MAX_VALUE);
            // Same body and properties as the batch's first record, so the same record size.
            same = LogFixture.appendOk(log, LogFixture.draft("B", 0, LogFixture.filled(200, 0),
                    "UNIQ_KEY\u0001id0\u0002"));
            assertEquals(before.nextPosition(), same.position());
            assertEquals(firstRecordBytes, same.wroteBytes(), "the message is exactly as long as the batch's first"
                    + " record, so the second record would start where the message ends");
        }
        assertEquals(List.of("B:0", "B:1"), recoveredTopicsAndOffsets());
        try (CommitLog log = CommitLog.open(LogFixture.settings(dir).build())) {
            assertEquals(same.nextPosition(), log.recover(0, true, e -> { }));
        }
    }

    @Test
    void aFailedBlankRecordAtTheSegmentEndIsRetriedByTheNextAppend() throws IOException {
        byte[] body = new byte[30 * 1024];
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env())) {
            for (int i = 0; i < 4; i++) {
                LogFixture.appendOk(log, LogFixture.draft("S", 0, body, ""));
            }
            long end = log.writtenPosition();
            usableBytes.set(0);
            arm(1); // the blank record's first write
            assertEquals(AppendStatus.DISK_FULL, Await.result(log.append(LogFixture.draft("S", 0, body, "")))
                    .status());
            assertEquals(end, log.writtenPosition());

            usableBytes.set(ROOMY_BYTES);
            log.limitWritesTo(Long.MAX_VALUE);
            AppendResult next = LogFixture.appendOk(log, LogFixture.draft("S", 0, body, ""));
            assertEquals(LogFixture.SEGMENT_BYTES, next.position(), "rolled onto the next segment");
            assertEquals(4, next.queueOffset());
        }
        assertEquals(List.of("S:0", "S:1", "S:2", "S:3", "S:4"), recoveredTopicsAndOffsets());
    }

    @Test
    void anUncheckedFailureBetweenTheTwoWritesStillZerosWhatWasWritten() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(LogFixture.settings(dir).build(), env())) {
            AppendResult before = LogFixture.appendOk(log, LogFixture.draft("U", 0, "before"));
            unchecked = new IllegalStateException("simulated bug");
            arm(2);
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> log.append(LogFixture.draft("U", 0, LogFixture.filled(500, 3), "")));
            assertEquals("simulated bug", e.getMessage());
            assertArrayEquals(new byte[1024], readFile(before.nextPosition(), 1024));
            unchecked = null;
            assertEquals(before.nextPosition(), LogFixture.appendOk(log, LogFixture.draft("U", 0, "after"))
                    .position());
        }
        assertEquals(List.of("U:0", "U:1"), recoveredTopicsAndOffsets());
    }

    @Test
    void onlyTheActiveSegmentKeepsItsFileOpen() throws IOException {
        Path logDir = dir.resolve("commitlog");
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            byte[] body = new byte[30 * 1024];
            for (int i = 0; i < 14; i++) {
                LogFixture.appendOk(log, LogFixture.draft("F", 0, body, ""));
            }
            assertTrue(log.writtenPosition() > 3L * LogFixture.SEGMENT_BYTES, "wrote across several segments");
            // The zero fill holds the next segment's file open while it writes it (ZeroFillAhead); wait it out.
            long nextEnd = (log.writtenPosition() / LogFixture.SEGMENT_BYTES + 2) * LogFixture.SEGMENT_BYTES;
            Await.until("the next segment zero-filled", () -> log.zeroFillStats().filledTo() == nextEnd);
            assertEquals(1, openFilesUnder(logDir), "only the active segment's file is open");
        }
        assertEquals(0, openFilesUnder(logDir), "closing the log closes it");
    }

    /** How many of this process's file descriptors point under {@code dir} (Linux /proc). */
    private static long openFilesUnder(Path dir) throws IOException {
        Path real = dir.toRealPath();
        try (java.util.stream.Stream<Path> fds = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return java.nio.file.Files.readSymbolicLink(fd).startsWith(real);
                } catch (IOException e) {
                    return false; // the descriptor of the listing itself, closed meanwhile
                }
            }).count();
        }
    }

    @Test
    void anInterruptedAppenderStillWritesAndKeepsItsInterruptStatus() throws IOException {
        try (CommitLog log = LogFixture.openRecovered(dir)) {
            LogFixture.appendOk(log, LogFixture.draft("I", 0, "before"));
            Thread.currentThread().interrupt();
            AppendResult r;
            try {
                r = log.append(LogFixture.draft("I", 0, "while interrupted")).join();
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept (and cleared here)");
            }
            assertEquals(AppendStatus.PUT_OK, r.status());
            assertTrue(log.isWritable());
            LogFixture.appendOk(log, LogFixture.draft("I", 0, "after"));
        }
        assertEquals(List.of("I:0", "I:1", "I:2"), recoveredTopicsAndOffsets());
    }
}
