package io.sluice.store.log;

import io.sluice.testing.Await;
import io.sluice.format.RecordDescriptor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ZeroFillAhead}: once the appender is within the lead of the end of the active segment, zeros go through the
 * whole next segment and nowhere else, never over a byte the appender wrote or is writing; an append that reaches a
 * range being filled waits for it; a failed fill is counted and retried.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZeroFillAheadTest {

    private static final int SEGMENT_BYTES = 4 << 20;
    private static final int AHEAD_BYTES = 2 << 20;
    private static final ZeroFillAhead.FreeSpace PLENTY = () -> Long.MAX_VALUE;
    /** Every byte of a reused file before it is reused. */
    private static final byte OLD_BYTE = 0x5A;

    /** A zero write the fill thread made. */
    private record Fill(long position, int bytes) {
    }

    @Test
    void recordsWrittenOverTheZerosReadBackIntactAndRecover(@TempDir Path dir) throws IOException {
        LogSettings settings = LogFixture.settings(dir).segmentBytes(SEGMENT_BYTES).zeroFillAheadBytes(AHEAD_BYTES)
                .build();
        List<AppendResult> results = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        Random random = new Random(42);
        CommitLog log = CommitLog.open(settings, LogEnvironment.system());
        log.recover(0, true, e -> { });
        try {
            // Over four segments; once in every segment's last half the appends pause until the next segment is
            // filled, so that the appender writes over zeros from the second segment on.
            long waitedFor = 0;
            while (log.writtenPosition() < 4L * SEGMENT_BYTES) {
                byte[] body = LogFixture.filled(1 + random.nextInt(LogFixture.MAX_MESSAGE_BYTES), bodies.size());
                bodies.add(body);
                results.add(LogFixture.appendOk(log, LogFixture.draft("ZeroFill", bodies.size() % 4, body, "")));
                long written = log.writtenPosition();
                long nextStart = (written / SEGMENT_BYTES + 1) * SEGMENT_BYTES;
                if (written >= nextStart - AHEAD_BYTES + 64 * 1024 && nextStart > waitedFor) {
                    waitedFor = nextStart;
                    Await.until("the segment at " + nextStart + " filled",
                            () -> log.zeroFillStats().filledTo() == nextStart + SEGMENT_BYTES);
                }
            }
            ZeroFillAhead.Stats stats = log.zeroFillStats();
            assertTrue(stats.filledBytes() >= 4L * SEGMENT_BYTES, "zeros written ahead: " + stats);
            assertEquals(0, stats.failures(), stats.toString());
            for (int i = 0; i < bodies.size(); i++) {
                assertBody(log, results.get(i), bodies.get(i), i);
            }
        } finally {
            log.close();
        }
        long end = log.writtenPosition();
        List<Long> recovered = new ArrayList<>();
        CommitLog reopened = CommitLog.open(settings, LogEnvironment.system());
        try {
            assertEquals(end, reopened.recover(0, true, e -> recovered.add(e.position())),
                    "recovery ends where the appends ended, not in the zeros after them");
            assertEquals(bodies.size(), recovered.size());
            for (int i = 0; i < bodies.size(); i++) {
                assertEquals(results.get(i).position(), recovered.get(i));
                assertBody(reopened, results.get(i), bodies.get(i), i);
            }
        } finally {
            reopened.close();
        }
    }

    @Test
    void theNextSegmentIsFilledWholeOnceTheClaimIsWithinTheLead(@TempDir Path dir) throws IOException {
        Segments segments = Segments.create(dir);
        List<Fill> fills = new CopyOnWriteArrayList<>();
        ZeroFillAhead fill = segments.fill((position, bytes) -> fills.add(new Fill(position, bytes)));
        try {
            fill.start(1000);
            fill.beforeWrite(SEGMENT_BYTES - AHEAD_BYTES - 1);
            assertTrue(fills.isEmpty(), "filled before the appender came within the lead: " + fills);
            fill.beforeWrite(SEGMENT_BYTES - AHEAD_BYTES);
            Await.until("the next segment filled", () -> fill.stats().filledTo() == 2L * SEGMENT_BYTES);
            long expected = SEGMENT_BYTES;
            for (Fill f : fills) {
                assertEquals(expected, f.position(), "fills go through the next segment in order: " + fills);
                expected += f.bytes();
            }
            assertEquals(2L * SEGMENT_BYTES, expected);
            assertEquals(new ZeroFillAhead.Stats(SEGMENT_BYTES, 2L * SEGMENT_BYTES, 0, 0, 0, 0, 0), fill.stats());
        } finally {
            segments.close(fill);
        }
    }

    @Test
    void onALargeSegmentTheFillKeepsInStepWithTheAppender(@TempDir Path dir) throws IOException {
        int segmentBytes = 64 << 20;
        int leadBytes = 32 << 20; // the next segment is filled at twice the appender's pace
        SegmentChain chain = new SegmentChain(segmentBytes);
        chain.append(MappedSegment.create(dir, 0, segmentBytes, false));
        MappedSegment next = MappedSegment.create(dir, segmentBytes, segmentBytes, false);
        ZeroFillAhead fill = new ZeroFillAhead(chain, nextOnly(next), leadBytes, PLENTY, 0, WriteHook.NONE,
                ZeroFillAhead.PageCache.SYSTEM);
        long paceLead = ZeroFillAhead.PACE_LEAD_BYTES;
        try {
            fill.start(0);
            long leadStart = segmentBytes - leadBytes;
            fill.beforeWrite(leadStart);
            Await.until("the fill at its lead", () -> fill.stats().filledTo() == segmentBytes + paceLead);
            // A quarter of the way through the lead: a quarter of the next segment, plus the pace's slack.
            fill.beforeWrite(leadStart + leadBytes / 4);
            long quarter = segmentBytes + segmentBytes / 4 + paceLead;
            Await.until("the fill a quarter in", () -> fill.stats().filledTo() >= quarter);
            assertEquals(quarter, fill.stats().filledTo(), "the fill ran ahead of its pace");
            fill.beforeWrite(segmentBytes - 1); // about to roll: the next segment whole
            Await.until("the next segment whole", () -> fill.stats().filledTo() == 2L * segmentBytes);
            assertEquals(segmentBytes, fill.stats().filledBytes());
            assertEquals(0, fill.stats().withdrawals());
        } finally {
            fill.close();
            chain.snapshot()[0].delete();
            next.delete();
        }
    }

    @Test
    void anAppendWaitsForAFillWritingItsRange(@TempDir Path dir) throws Exception {
        Segments segments = Segments.create(dir);
        Gate fillGate = new Gate();
        ZeroFillAhead fill = segments.fill((position, bytes) -> fillGate.pass());
        try {
            fill.start(SEGMENT_BYTES - 1000);
            fillGate.awaitArrival("the first fill");
            // An append up to the end of the active segment does not wait ...
            fill.beforeWrite(SEGMENT_BYTES);
            assertEquals(0, fill.stats().appenderWaits());
            // ... one that rolled onto the next and claims into the chunk being filled does.
            segments.chain().append(segments.next());
            CompletableFuture<Void> append = CompletableFuture.runAsync(() -> fill.beforeWrite(SEGMENT_BYTES + 1));
            Await.until("the append waiting", () -> fill.stats().appenderWaits() == 1);
            assertFalse(append.isDone(), "the append went on while the fill wrote its range");
            fillGate.open();
            append.get(10, TimeUnit.SECONDS);
            // The fill saw the claim in its segment and stopped there.
            Await.until("the fill thread idle",
                    () -> fill.stats().filledTo() == SEGMENT_BYTES + ZeroFillAhead.CHUNK_BYTES);
            assertEquals(ZeroFillAhead.CHUNK_BYTES, fill.stats().filledBytes());
        } finally {
            fillGate.open();
            segments.close(fill);
        }
    }

    @Test
    void aFailedFillIsCountedAndRetried(@TempDir Path dir) throws IOException {
        Segments segments = Segments.create(dir);
        AtomicInteger calls = new AtomicInteger();
        ZeroFillAhead fill = segments.fill((position, bytes) -> {
            if (calls.getAndIncrement() == 0) {
                throw new IOException("injected: no space left on device");
            }
        });
        try {
            fill.start(SEGMENT_BYTES - 1000);
            Await.until("the retry after the failure", () -> fill.stats().filledTo() == 2L * SEGMENT_BYTES);
            assertEquals(1, fill.stats().failures());
            assertEquals(SEGMENT_BYTES, fill.stats().filledBytes());
        } finally {
            segments.close(fill);
        }
    }

    @Test
    void bytesTheAppenderWroteAfterARollAreNeverZeroed(@TempDir Path dir) throws Exception {
        Segments segments = Segments.create(dir);
        SegmentChain chain = segments.chain();
        MappedSegment next = segments.next();
        Gate lookupGate = new Gate();
        ZeroFillAhead.PreparedSegments slowLookup = start -> {
            lookupGate.pass();
            return nextOnly(next).ready(start);
        };
        ZeroFillAhead fill = new ZeroFillAhead(chain, slowLookup, AHEAD_BYTES, PLENTY, 0, WriteHook.NONE,
                ZeroFillAhead.PageCache.SYSTEM);
        try {
            fill.start(SEGMENT_BYTES - 1000);
            lookupGate.awaitArrival("the fill thread's lookup of the next segment");
            // While it holds the segment it decided to fill, the appender rolls onto it and writes there.
            chain.append(next);
            byte[] record = LogFixture.filled(100_000, 7);
            fill.beforeWrite(SEGMENT_BYTES + record.length);
            next.write(ByteBuffer.wrap(record), 0);
            lookupGate.open();
            Await.until("the fill given up", () -> fill.stats().withdrawals() == 1);
            byte[] stored = new byte[record.length];
            next.view(0, record.length).get(stored);
            assertArrayEquals(record, stored, "the appender's bytes after the fill thread's lookup");
            assertEquals(0, fill.stats().filledBytes(), "nothing filled in a segment the appender is in");
        } finally {
            lookupGate.open();
            segments.close(fill);
        }
    }

    @Test
    void aSegmentIsLeftSparseWhenTheDiskIsNearlyFull(@TempDir Path dir) throws IOException {
        Segments segments = Segments.create(dir);
        SegmentChain chain = segments.chain();
        MappedSegment next = segments.next();
        long minUsableBytes = 64L << 20;
        ZeroFillAhead fill = new ZeroFillAhead(chain, nextOnly(next), AHEAD_BYTES,
                () -> minUsableBytes + SEGMENT_BYTES - 1, minUsableBytes, WriteHook.NONE,
                ZeroFillAhead.PageCache.SYSTEM);
        try {
            fill.start(SEGMENT_BYTES - 1000);
            Await.until("the segment skipped", () -> fill.stats().skippedSegments() == 1);
            assertEquals(0, fill.stats().filledBytes());
        } finally {
            segments.close(fill);
        }
    }

    @Test
    void aReusedFilesCachedPagesAreNotFilled(@TempDir Path dir) throws IOException {
        Segments segments = Segments.createReused(dir);
        List<Fill> fills = new CopyOnWriteArrayList<>();
        ZeroFillAhead fill = segments.fill((position, bytes) -> fills.add(new Fill(position, bytes)));
        try {
            assertTrue(segments.next().reusedFile());
            fill.start(SEGMENT_BYTES - AHEAD_BYTES);
            Await.until("the next segment passed over", () -> fill.stats().residentBytes() == SEGMENT_BYTES);
            assertTrue(fills.isEmpty(), "zeros written over cached pages: " + fills);
            assertEquals(0, fill.stats().filledBytes());
            assertOldBytes(segments.next(), 0, SEGMENT_BYTES);
        } finally {
            segments.close(fill);
        }
    }

    @Test
    void aReusedFileIsFilledWhereItsPagesAreNotCached(@TempDir Path dir) throws IOException {
        Segments segments = Segments.createReused(dir);
        List<Fill> fills = new CopyOnWriteArrayList<>();
        int cachedBytes = SEGMENT_BYTES / 2;
        List<Integer> asked = new CopyOnWriteArrayList<>();
        ZeroFillAhead fill = segments.fill((position, bytes) -> fills.add(new Fill(position, bytes)),
                (segment, offset, bytes) -> {
                    asked.add(offset);
                    return offset + bytes <= cachedBytes;
                });
        try {
            fill.start(SEGMENT_BYTES - AHEAD_BYTES);
            Await.until("the next segment filled", () -> fill.stats().filledTo() == 2L * SEGMENT_BYTES);
            assertEquals(new ZeroFillAhead.Stats(SEGMENT_BYTES - cachedBytes, 2L * SEGMENT_BYTES, 0, 0, 0, 0,
                    cachedBytes), fill.stats());
            long expected = SEGMENT_BYTES + cachedBytes;
            for (Fill f : fills) {
                assertEquals(expected, f.position(), "only the uncached half is filled, in order: " + fills);
                expected += f.bytes();
            }
            assertEquals(2L * SEGMENT_BYTES, expected);
            assertEquals(SEGMENT_BYTES / ZeroFillAhead.CHUNK_BYTES, asked.size(), "asked once per chunk");
            assertOldBytes(segments.next(), 0, cachedBytes);
            UnsafeBuffer bytes = segments.next().buffer();
            for (int i = cachedBytes; i < SEGMENT_BYTES; i += 4093) {
                assertEquals(0, bytes.getByte(i), "byte " + i + " of the uncached half");
            }
        } finally {
            segments.close(fill);
        }
    }

    @Test
    void aNegativeLeadIsRefusedWithItsValue(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogFixture.settings(dir).zeroFillAheadBytes(-1).build());
        assertTrue(e.getMessage().contains("zeroFillAheadBytes must be >= 0, was -1"), e.getMessage());
    }

    @Test
    void preallocatedSegmentsAndAZeroLeadRunNoFill(@TempDir Path dir) throws IOException {
        for (LogSettings settings : List.of(
                LogFixture.settings(dir.resolve("off")).zeroFillAheadBytes(0).build(),
                LogFixture.settings(dir.resolve("prealloc")).preallocateSegments(true).build())) {
            CommitLog log = LogFixture.openRecovered(settings, LogEnvironment.system());
            try {
                LogFixture.appendOk(log, LogFixture.draft("ZeroFill", 0, "body"));
                assertEquals(new ZeroFillAhead.Stats(0, 0, 0, 0, 0, 0, 0), log.zeroFillStats());
            } finally {
                log.close();
            }
        }
    }

    private static void assertOldBytes(MappedSegment segment, int from, int to) {
        UnsafeBuffer bytes = segment.buffer();
        for (int i = from; i < to; i += 4093) {
            assertEquals(OLD_BYTE, bytes.getByte(i), "byte " + i + " of the reused file");
        }
    }

    private static ZeroFillAhead.PreparedSegments nextOnly(MappedSegment next) {
        return start -> start == next.startPosition() ? Optional.of(next) : Optional.empty();
    }

    /** Holds the fill thread at a point until the test opens it. */
    private static final class Gate {
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);

        /** Fill thread: arrives and waits for the test. */
        void pass() {
            arrived.countDown();
            try {
                opened.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitArrival(String what) throws InterruptedException {
            assertTrue(arrived.await(10, TimeUnit.SECONDS), what + " did not happen");
        }

        void open() {
            opened.countDown();
        }
    }

    /** The active segment {@code [0, S)} in a chain, and the next one {@code [S, 2S)}, prepared (sparse). */
    private record Segments(SegmentChain chain, MappedSegment next) {
        static Segments create(Path dir) throws IOException {
            SegmentChain chain = new SegmentChain(SEGMENT_BYTES);
            chain.append(MappedSegment.create(dir, 0, SEGMENT_BYTES, false));
            return new Segments(chain, MappedSegment.create(dir, SEGMENT_BYTES, SEGMENT_BYTES, false));
        }

        /**
         * The same, but the next segment is made from a reused file whose every byte is {@link #OLD_BYTE} (just
         * written, so its pages are cached).
         */
        static Segments createReused(Path dir) throws IOException {
            SegmentChain chain = new SegmentChain(SEGMENT_BYTES);
            chain.append(MappedSegment.create(dir, 0, SEGMENT_BYTES, false));
            byte[] old = new byte[SEGMENT_BYTES];
            Arrays.fill(old, OLD_BYTE);
            Path recycled = Files.write(dir.resolve(SegmentRecycler.FILE_PREFIX + "0"), old);
            return new Segments(chain, MappedSegment.create(dir, SEGMENT_BYTES, SEGMENT_BYTES, false,
                    Optional.of(recycled)));
        }

        /** A fill over these segments with a lead of {@link #AHEAD_BYTES}, all the disk space it wants, and a hook. */
        ZeroFillAhead fill(WriteHook beforeFill) {
            return fill(beforeFill, ZeroFillAhead.PageCache.SYSTEM);
        }

        ZeroFillAhead fill(WriteHook beforeFill, ZeroFillAhead.PageCache pageCache) {
            return new ZeroFillAhead(chain, nextOnly(next), AHEAD_BYTES, PLENTY, 0, beforeFill, pageCache);
        }

        /** Stops the fill thread, then deletes both files. */
        void close(ZeroFillAhead fill) throws IOException {
            fill.close();
            chain.snapshot()[0].delete();
            next.delete();
        }
    }

    private static void assertBody(CommitLog log, AppendResult result, byte[] body, int index) {
        ReadResult read = log.readRecord(result.position(), result.wroteBytes());
        assertTrue(read.isFound(), "record " + index + " at " + result.position() + ": " + read);
        ByteBuffer record = read.buffer();
        int lengthAt = record.position() + RecordDescriptor.bodyLengthOffset(0);
        assertEquals(body.length, record.getInt(lengthAt), "body length of record " + index);
        byte[] stored = new byte[body.length];
        record.get(lengthAt + Integer.BYTES, stored);
        assertArrayEquals(body, stored, "body of record " + index);
    }
}
