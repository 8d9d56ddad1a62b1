package io.sluice.store.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The appender's record boundary hints against the true boundaries of simulated logs. */
class RecordBoundaryIndexTest {

    /** A simulated log: the true record boundaries, in order, fed to an index as the appender would. */
    private static final class Log {
        final RecordBoundaryIndex index;
        final List<Long> boundaries = new ArrayList<>();

        Log(int granuleBytes, long start) {
            index = new RecordBoundaryIndex(granuleBytes);
            index.noteStart(start);
            boundaries.add(start);
        }

        long end() {
            return boundaries.get(boundaries.size() - 1);
        }

        void append(int sizeBytes) {
            long start = end();
            index.noteRecord(start, start + sizeBytes);
            boundaries.add(start + sizeBytes);
        }

        void truncateTo(int boundaryIndex) {
            long position = boundaries.get(boundaryIndex);
            boundaries.subList(boundaryIndex + 1, boundaries.size()).clear();
            index.forgetAfter(position);
            index.noteStart(position);
        }

        /** Records in [from, to), both boundaries. */
        int recordsBetween(long from, long to) {
            return Collections.binarySearch(boundaries, to) - Collections.binarySearch(boundaries, from);
        }
    }

    @Property(tries = 300)
    void everyAnswerIsATrueBoundaryWithinTheBounds(@ForAll("granules") int granuleBytes,
                                                    @ForAll @LongRange(max = 1L << 40) long startSeed,
                                                    @ForAll boolean alignedStart,
                                                    @ForAll @Size(min = 1, max = 300) List<@IntRange(min = 1,
                                                            max = 5_000) Integer> sizes,
                                                    @ForAll @Size(max = 200) List<@IntRange(min = 1,
                                                            max = 5_000) Integer> afterTruncation,
                                                    @ForAll long querySeed) {
        long start = alignedStart ? startSeed & -granuleBytes : startSeed;
        Log log = new Log(granuleBytes, start);
        sizes.forEach(log::append);
        Random random = new Random(querySeed);
        if (!afterTruncation.isEmpty()) {
            log.truncateTo(random.nextInt(log.boundaries.size()));
            afterTruncation.forEach(log::append);
        }
        int n = log.boundaries.size();
        for (int q = 0; q < 200; q++) {
            int a = random.nextInt(n);
            long from = log.boundaries.get(a);
            long limit = log.boundaries.get(a + random.nextInt(n - a));
            int maxBytes = 1 + random.nextInt(4 * granuleBytes + 10_000);
            int maxRecords = 1 + random.nextInt(random.nextBoolean() ? 5 : 500);
            long e = log.index.chunkEnd(from, limit, maxBytes, maxRecords);
            if (e == -1) {
                continue;
            }
            String at = "from " + from + " limit " + limit + " maxBytes " + maxBytes + " maxRecords " + maxRecords
                    + ": " + e;
            assertTrue(Collections.binarySearch(log.boundaries, e) >= 0, "not a record boundary, " + at);
            assertTrue(e > from && e <= Math.min(limit, from + maxBytes), "out of range, " + at);
            assertTrue(log.recordsBetween(from, e) <= maxRecords, "too many records, " + at);
        }
    }

    @Provide
    Arbitrary<Integer> granules() {
        return Arbitraries.of(256, 1024, 4096);
    }

    @Test
    @Timeout(10)
    void shouldFindTheLastHintedBoundaryBeforeTheByteLimit() {
        Log log = new Log(1024, 0);
        for (int i = 0; i < 100; i++) {
            log.append(300); // boundaries at multiples of 300
        }
        // Granule 3 (3072) starts inside the record [3000, 3300): its first boundary is 3300.
        assertEquals(3300, log.index.chunkEnd(0, log.end(), 3500, 1000));
        // A boundary exactly at the byte limit is taken.
        assertEquals(3300, log.index.chunkEnd(0, log.end(), 3300, 1000));
        // Within 11 records at most (counted from the first granule's start): the hint of granule 3 has 11 records
        // before it, so 11 is enough and 10 makes it fall back to granule 2's (2100, 7 records).
        assertEquals(3300, log.index.chunkEnd(0, log.end(), 3500, 11));
        assertEquals(2100, log.index.chunkEnd(0, log.end(), 3500, 10));
        // The limit bounds it too.
        assertEquals(2100, log.index.chunkEnd(0, 3000, 3500, 1000));
        // No granule begins after `from` within the range: unknown.
        assertEquals(-1, log.index.chunkEnd(3300, log.end(), 600, 1000));
    }

    @Test
    @Timeout(10)
    void shouldNotKnowAnythingBeforeItsFirstNotedGranule() {
        Log log = new Log(1024, 500); // a recovered log ending at 500: granule 0 has no hint
        for (int i = 0; i < 100; i++) {
            log.append(300);
        }
        assertEquals(-1, log.index.chunkEnd(500, log.end(), 10_000, 1000));
        // From granule 1 on (its first boundary is 1100) the hints are known.
        // Granule 5 (5120) starts inside [5000, 5300).
        assertEquals(5300, log.index.chunkEnd(1100, log.end(), 4600, 1000));
    }

    @Test
    @Timeout(10)
    void shouldKeepHintsTrueAcrossATruncation() {
        Log log = new Log(1024, 0);
        for (int i = 0; i < 20; i++) {
            log.append(300);
        }
        log.truncateTo(5); // 1500: granule 1's boundary (1200) stays, granule 2's (2100) is gone
        assertEquals(1200, log.index.chunkEnd(0, 1500, 10_000, 1000));
        log.append(1000); // [1500, 2500): granule 2 (2048) now begins at 2500
        assertEquals(2500, log.index.chunkEnd(0, 2500, 10_000, 1000));
        assertEquals(1200, log.index.chunkEnd(0, 2500, 2400, 1000));
    }

    @Test
    @Timeout(30)
    void shouldRefuseGranulesThatTheRingHasOverwritten() {
        int granule = 256;
        Log log = new Log(granule, 0);
        long laps = (long) RecordBoundaryIndex.SLOTS * granule + 10 * granule;
        while (log.end() < laps) {
            log.index.noteRecord(log.end(), log.end() + granule);
            log.boundaries.add(log.end() + granule);
        }
        // Granules 0..9 were overwritten by granules SLOTS..SLOTS+9.
        assertEquals(-1, log.index.chunkEnd(0, log.end(), 4 * granule, 1000));
        long recent = log.end() - 8L * granule;
        assertEquals(recent + 4L * granule, log.index.chunkEnd(recent, log.end(), 4 * granule, 1000));
    }

    /**
     * Readers racing the appender, around the ring several times: every answer is a true boundary at or below the
     * published end (the seqlock never hands out a slot being rewritten, nor one from another lap).
     */
    @Test
    @Timeout(60)
    void concurrentReadersOnlyEverSeeTrueBoundaries() throws Exception {
        int granule = 256;
        int records = 3 * RecordBoundaryIndex.SLOTS * granule / 150; // three laps of the ring
        long[] boundaries = new long[records + 1];
        for (int i = 0; i < records; i++) {
            boundaries[i + 1] = boundaries[i] + 40 + (i * 37) % 230; // 40 to 269 bytes
        }
        RecordBoundaryIndex index = new RecordBoundaryIndex(granule);
        index.noteStart(0);
        AtomicLong published = new AtomicLong();
        AtomicInteger publishedRecords = new AtomicInteger();
        AtomicLong answers = new AtomicLong();
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicLong queries = new AtomicLong();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < records; i++) {
                index.noteRecord(boundaries[i], boundaries[i + 1]);
                publishedRecords.setRelease(i + 1);
                published.setRelease(boundaries[i + 1]);
                if (i % 1024 == 1023) {
                    // Let the readers in between blocks, however the threads are scheduled (bounded wait).
                    long enough = queries.get() + 50;
                    long deadline = System.nanoTime() + 50_000_000L;
                    while (queries.get() < enough && System.nanoTime() - deadline < 0) {
                        Thread.onSpinWait();
                    }
                }
            }
        });
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Random random = new Random(r);
            readers.add(new Thread(() -> {
                while (publishedRecords.getAcquire() < records && failure.get() == null) {
                    int n = publishedRecords.getAcquire();
                    long limit = boundaries[n];
                    int a = Math.max(0, n - random.nextInt(20_000));
                    long from = boundaries[a];
                    int maxRecords = 1 + random.nextInt(200);
                    long e = index.chunkEnd(from, limit, 1 + random.nextInt(16_384), maxRecords);
                    queries.incrementAndGet();
                    if (e == -1) {
                        continue;
                    }
                    answers.incrementAndGet();
                    int at = Arrays.binarySearch(boundaries, e);
                    if (at < 0 || e <= from || e > limit || at - a > maxRecords) {
                        failure.compareAndSet(null, "from " + from + " limit " + limit + " maxRecords " + maxRecords
                                + ": " + e + (at < 0 ? " is not a boundary" : " (" + (at - a) + " records)"));
                    }
                }
            }));
        }
        readers.forEach(Thread::start);
        writer.start();
        writer.join();
        for (Thread t : readers) {
            t.join();
        }
        assertEquals(null, failure.get());
        assertTrue(answers.get() > 1000, "answers while the appender wrote: " + answers.get());
        assertTrue(published.get() > 2L * RecordBoundaryIndex.SLOTS * granule, "laps: " + published.get());
    }

    @Test
    @Timeout(10)
    void shouldRefuseABadGranuleInTheLogSettings() {
        for (int bad : new int[] {0, 128, 3000, -4096}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LogFixture.settings(Path.of("unused")).boundaryGranuleBytes(bad).build());
            assertTrue(e.getMessage().contains("boundaryGranuleBytes") && e.getMessage().contains("was " + bad),
                    e.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void shouldRefuseAGranuleThatIsNotAPowerOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RecordBoundaryIndex(3000));
        assertTrue(e.getMessage().contains("3000"), e.getMessage());
    }
}
