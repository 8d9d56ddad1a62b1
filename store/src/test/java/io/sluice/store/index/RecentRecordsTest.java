package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RecentRecords} answers exactly what a walk of the slot's records would find, or nothing: checked against a
 * model that keeps every record, for random records, queries and clears, and while a writer keeps adding.
 */
class RecentRecordsTest {

    /** A record: messages [base, base + count) at [position, position + size). */
    private record Rec(long base, int count, long position, int size) {
    }

    /** What the walk gives: ranges (records back to back joined) and the first offset; -1 and none when empty. */
    private record Answer(long first, List<long[]> ranges) {
        boolean sameAs(Answer o) {
            if (first != o.first || ranges.size() != o.ranges.size()) {
                return false;
            }
            for (int i = 0; i < ranges.size(); i++) {
                if (ranges.get(i)[0] != o.ranges.get(i)[0] || ranges.get(i)[1] != o.ranges.get(i)[1]) {
                    return false;
                }
            }
            return true;
        }
    }

    private static Answer model(List<Rec> all, long from, long endOffset) {
        List<long[]> ranges = new ArrayList<>();
        long first = -1;
        for (Rec r : all) {
            boolean holdsFrom = r.base <= from && from < r.base + r.count;
            if (first < 0 && !holdsFrom) {
                continue;
            }
            if (first >= 0 && r.base >= endOffset) {
                break;
            }
            if (first < 0) {
                first = r.base;
            }
            long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last[0] + last[1] == r.position) {
                last[1] += r.size;
            } else {
                ranges.add(new long[] {r.position, r.size});
            }
        }
        return new Answer(first, ranges);
    }

    private static Answer ask(RecentRecords recent, long from, long endOffset, long rangeStart, long rangeEnd) {
        List<long[]> ranges = new ArrayList<>();
        long first = recent.find(from, endOffset, rangeStart, rangeEnd,
                (position, bytes) -> ranges.add(new long[] {position, bytes}), new long[4 * recent.capacity()]);
        return new Answer(first, first < 0 ? List.of() : ranges);
    }

    private static List<Rec> records(Random random, int n) {
        List<Rec> all = new ArrayList<>();
        long base = random.nextInt(100);
        long position = random.nextInt(1000);
        for (int i = 0; i < n; i++) {
            int count = 1 + random.nextInt(40);
            int size = 100 + random.nextInt(4000);
            all.add(new Rec(base, count, position, size));
            base += count;
            position += size + (random.nextInt(3) == 0 ? 0 : random.nextInt(5000)); // others' records between
        }
        return all;
    }

    @Property(tries = 300)
    void answersAsTheWalkOrNotAtAll(@ForAll @IntRange(min = 1, max = 20) int capacity,
                                    @ForAll @IntRange(min = 1, max = 60) int n, @ForAll long seed) {
        Random random = new Random(seed);
        List<Rec> all = records(random, n);
        RecentRecords recent = new RecentRecords(capacity);
        int clearedBelow = 0;
        for (int i = 0; i < all.size(); i++) {
            if (random.nextInt(15) == 0) {
                recent.clear();
                clearedBelow = i;
            }
            Rec r = all.get(i);
            recent.add(r.base, r.count, r.position, r.size);
        }
        List<Rec> known = all.subList(Math.max(clearedBelow, all.size() - capacity), all.size());
        for (int q = 0; q < 40; q++) {
            Rec a = all.get(random.nextInt(all.size()));
            Rec b = all.get(Math.min(all.size() - 1, all.indexOf(a) + random.nextInt(4)));
            long from = a.base + random.nextInt(a.count);
            long endOffset = b.base + b.count; // a slot's end lies on a record's end
            long rangeStart = a.position - (random.nextInt(4) == 0 ? 0 : random.nextInt(100));
            long rangeEnd = b.position + b.size + (random.nextInt(4) == 0 ? -1 : random.nextInt(100));
            Answer expected = model(all, from, endOffset);
            boolean inRange = expected.ranges.get(0)[0] >= rangeStart
                    && b.position + b.size <= rangeEnd;
            boolean answerable = inRange && known.contains(a);
            Answer actual = ask(recent, from, endOffset, rangeStart, rangeEnd);
            if (answerable) {
                assertTrue(expected.sameAs(actual), "from " + from + " to " + endOffset + ": " + actual.first);
            } else {
                assertEquals(-1, actual.first, "unanswerable: from " + from + " to " + endOffset);
            }
        }
    }

    @Property(tries = 300)
    void aGrownCopyAnswersForWhatWasKeptAndKeepsMore(@ForAll @IntRange(min = 1, max = 12) int capacity,
                                                     @ForAll @IntRange(min = 1, max = 60) int n,
                                                     @ForAll @IntRange(min = 0, max = 60) int growAt,
                                                     @ForAll long seed) {
        Random random = new Random(seed);
        List<Rec> all = records(random, n);
        RecentRecords recent = new RecentRecords(capacity);
        int knownFrom = 0;
        int grownAt = Math.min(growAt, n);
        for (int i = 0; i < n; i++) {
            if (i == grownAt) {
                recent = recent.grownTo(2 * capacity);
                knownFrom = Math.max(knownFrom, i - capacity); // only what was kept is copied
            }
            Rec r = all.get(i);
            recent.add(r.base, r.count, r.position, r.size);
        }
        int kept = grownAt < n ? 2 * capacity : capacity;
        knownFrom = Math.max(knownFrom, n - kept);
        for (int q = 0; q < 40; q++) {
            int ai = random.nextInt(n);
            Rec a = all.get(ai);
            Rec b = all.get(Math.min(n - 1, ai + random.nextInt(4)));
            long from = a.base + random.nextInt(a.count);
            Answer actual = ask(recent, from, b.base + b.count, 0, Long.MAX_VALUE);
            if (ai >= knownFrom) {
                assertTrue(model(all, from, b.base + b.count).sameAs(actual), "from " + from + ": " + actual.first);
            } else {
                assertEquals(-1, actual.first, "record " + ai + " was not kept (kept from " + knownFrom + ")");
            }
            assertEquals(ai < knownFrom && n - knownFrom == kept, recent.isBelowKept(a.base),
                    "record " + ai + " below what a full memory keeps");
        }
    }

    @Test
    void afterAClearOnlyWhatWasAddedSinceIsKnown() {
        RecentRecords recent = new RecentRecords(8);
        recent.add(0, 10, 0, 1000);
        recent.add(10, 10, 1000, 1000);
        recent.clear();
        assertEquals(-1, ask(recent, 0, 10, 0, 2000).first);
        recent.add(10, 5, 5000, 100);
        assertEquals(-1, ask(recent, 10, 20, 0, 10_000).first, "the old record at 10 is forgotten");
        assertEquals(10, ask(recent, 10, 15, 5000, 5100).first);
    }

    @Test
    @Timeout(60)
    void readersRacingTheWriterGetRightAnswersOrNone() throws Exception {
        RecentRecords recent = new RecentRecords(4);
        AtomicLong added = new AtomicLong(); // records 0..added-1 are in; record k: base 10k, 10 messages, at 100k
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        AtomicLong answered = new AtomicLong();
        Thread writer = new Thread(() -> {
            for (long k = 0; !stop.get() && k < 5_000_000; k++) {
                recent.add(10 * k, 10, 100 * k, k % 2 == 0 ? 100 : 60); // odd records leave a gap after them
                added.set(k + 1);
            }
        });
        Thread reader = new Thread(() -> {
            Random random = new Random(1);
            while (!stop.get() && wrong.get() == null) {
                long k = Math.max(0, added.get() - 1 - random.nextInt(6));
                long j = k + random.nextInt(2);
                Answer a = ask(recent, 10 * k, 10 * (j + 1), 0, Long.MAX_VALUE);
                if (a.first < 0) {
                    continue;
                }
                answered.incrementAndGet();
                List<Rec> wanted = new ArrayList<>();
                for (long r = k; r <= j; r++) {
                    wanted.add(new Rec(10 * r, 10, 100 * r, r % 2 == 0 ? 100 : 60));
                }
                if (!model(wanted, 10 * k, 10 * (j + 1)).sameAs(a)) {
                    wrong.set("records " + k + ".." + j + " answered with first " + a.first);
                }
            }
        });
        writer.start();
        reader.start();
        writer.join();
        stop.set(true);
        reader.join();
        assertEquals(null, wrong.get());
        assertTrue(answered.get() > 0, "some queries were answered");
    }
}
