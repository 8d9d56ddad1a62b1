package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ZeroFillAhead}: zeros go ahead of the appender, inside the active segment, never over a byte it wrote or is
 * writing; an append whose range a fill is writing waits for it; a failed fill is counted and retried.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZeroFillAheadTest {

    private static final int SEGMENT_BYTES = 4 << 20;
    private static final int AHEAD_BYTES = 2 << 20;

    /** A zero write the fill thread made. */
    private record Fill(long position, int bytes) {
    }

    @Test
    void recordsWrittenBehindTheFillsReadBackIntactAndRecover(@TempDir Path dir) throws IOException {
        LogSettings settings = LogFixture.settings(dir).segmentBytes(SEGMENT_BYTES).zeroFillAheadBytes(AHEAD_BYTES)
                .build();
        List<AppendResult> results = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        Random random = new Random(42);
        CommitLog log = CommitLog.open(settings, LogEnvironment.system());
        log.recover(0, true, e -> { });
        try {
            // Over three segments, so that the fill follows two rolls; appends pause now and then so that the
            // fill gets ahead (and the appender then writes over its zeros) as well as being caught up with.
            while (log.writtenPosition() < 3L * SEGMENT_BYTES) {
                byte[] body = LogFixture.filled(1 + random.nextInt(LogFixture.MAX_MESSAGE_BYTES), bodies.size());
                bodies.add(body);
                results.add(LogFixture.appendOk(log, LogFixture.draft("ZeroFill", bodies.size() % 4, body, "")));
                if (bodies.size() % 64 == 0) {
                    long written = log.writtenPosition();
                    long segmentEnd = (written / SEGMENT_BYTES + 1) * SEGMENT_BYTES;
                    long lead = Math.min(segmentEnd, written + AHEAD_BYTES / 2);
                    if (segmentEnd - written > ZeroFillAhead.GAP_BYTES + 4096) {
                        Await.until("the fill " + AHEAD_BYTES / 2 + " bytes ahead of " + written,
                                () -> log.zeroFillStats().filledTo() >= lead);
                    }
                }
            }
            ZeroFillAhead.Stats stats = log.zeroFillStats();
            assertTrue(stats.filledBytes() > SEGMENT_BYTES, "zeros written ahead: " + stats);
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
    void fillsStayInsideTheActiveSegmentAndAheadOfTheClaim(@TempDir Path dir) throws IOException {
        SegmentChain chain = oneSparseSegment(dir);
        List<Fill> fills = new CopyOnWriteArrayList<>();
        ZeroFillAhead fill = new ZeroFillAhead(chain, AHEAD_BYTES, (position, bytes) ->
                fills.add(new Fill(position, bytes)));
        try {
            fill.start(1000);
            Await.until("the first lead filled", () -> coveredEnd(fills) >= 1000 + AHEAD_BYTES);
            assertTrue(fills.get(0).position() >= 1000 + ZeroFillAhead.GAP_BYTES, fills.toString());
            assertEquals(0, fills.get(0).position() % 4096, "fills start on a page");

            // A claim past everything filled: the next fill starts after it, never behind it.
            long claim = SEGMENT_BYTES - 100_000;
            int before = fills.size();
            fill.beforeWrite(claim);
            Await.until("a fill after the claim", () -> coveredEnd(fills) == SEGMENT_BYTES);
            for (Fill f : fills.subList(before, fills.size())) {
                assertTrue(f.position() >= claim + ZeroFillAhead.GAP_BYTES, f + " starts behind claim " + claim);
                assertTrue(f.position() + f.bytes() <= SEGMENT_BYTES, f + " crosses the segment end");
            }
            assertEquals(0, fill.stats().failures());
        } finally {
            fill.close();
            chain.last().delete();
        }
    }

    @Test
    void anAppendWaitsForAFillWritingItsRange(@TempDir Path dir) throws Exception {
        SegmentChain chain = oneSparseSegment(dir);
        CountDownLatch fillEntered = new CountDownLatch(1);
        CountDownLatch releaseFill = new CountDownLatch(1);
        ZeroFillAhead fill = new ZeroFillAhead(chain, AHEAD_BYTES, (position, bytes) -> {
            fillEntered.countDown();
            try {
                releaseFill.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            fill.start(0);
            assertTrue(fillEntered.await(10, TimeUnit.SECONDS), "the first fill started");
            // The fill covers [GAP, GAP + CHUNK); an append claiming up to inside it must wait.
            CompletableFuture<Void> append = CompletableFuture.runAsync(
                    () -> fill.beforeWrite(ZeroFillAhead.GAP_BYTES + 1));
            Await.until("the append waiting", () -> fill.stats().appenderWaits() == 1);
            assertFalse(append.isDone(), "the append went on while the fill wrote its range");
            releaseFill.countDown();
            append.get(10, TimeUnit.SECONDS);
            // An append below every fill does not wait.
            fill.beforeWrite(ZeroFillAhead.GAP_BYTES + 1);
            assertEquals(1, fill.stats().appenderWaits());
        } finally {
            releaseFill.countDown();
            fill.close();
            chain.last().delete();
        }
    }

    @Test
    void aFailedFillIsCountedAndRetried(@TempDir Path dir) throws IOException {
        SegmentChain chain = oneSparseSegment(dir);
        AtomicInteger calls = new AtomicInteger();
        ZeroFillAhead fill = new ZeroFillAhead(chain, AHEAD_BYTES, (position, bytes) -> {
            if (calls.getAndIncrement() == 0) {
                throw new IOException("injected: no space left on device");
            }
        });
        try {
            fill.start(0);
            Await.until("the retry after the failure", () -> fill.stats().filledBytes() > 0);
            assertEquals(1, fill.stats().failures());
        } finally {
            fill.close();
            chain.last().delete();
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
                assertEquals(new ZeroFillAhead.Stats(0, 0, 0, 0, 0), log.zeroFillStats());
            } finally {
                log.close();
            }
        }
    }

    private static SegmentChain oneSparseSegment(Path dir) throws IOException {
        SegmentChain chain = new SegmentChain(SEGMENT_BYTES);
        chain.append(MappedSegment.create(dir, 0, SEGMENT_BYTES, false));
        return chain;
    }

    private static long coveredEnd(List<Fill> fills) {
        long end = 0;
        for (Fill f : fills) {
            end = Math.max(end, f.position() + f.bytes());
        }
        return end;
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
