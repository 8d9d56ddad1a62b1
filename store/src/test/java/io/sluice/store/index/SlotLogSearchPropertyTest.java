package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The slot search (file by cached first values, then interpolation with a bisection fallback) against a linear
 * scan, on values that are far from linear: long flat runs and huge jumps.
 */
class SlotLogSearchPropertyTest {

    private static final int SLOT_BYTES = 8;

    @Provide
    Arbitrary<List<Long>> skewedSteps() {
        Arbitrary<Long> small = Arbitraries.longs().between(0, 3);
        Arbitrary<Long> huge = Arbitraries.longs().between(1_000, 1_000_000_000_000L);
        return Arbitraries.frequencyOf(Tuple.of(9, small), Tuple.of(1, huge)).list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 200)
    void lowerBoundMatchesALinearScan(@ForAll("skewedSteps") List<Long> steps,
                                      @ForAll @IntRange(min = 3, max = 40) int slotsPerFile,
                                      @ForAll @IntRange(min = 0, max = 299) int loSeed,
                                      @ForAll @IntRange(min = 0, max = 299) int hiSeed) throws IOException {
        Path dir = Files.createTempDirectory("slotlog-search");
        SlotLog log = SlotLog.open(dir, SLOT_BYTES, slotsPerFile, new int[] {0});
        try {
            long[] values = new long[steps.size()];
            long value = 0;
            log.startAt(0);
            for (int i = 0; i < values.length; i++) {
                value += steps.get(i);
                values[i] = value;
                SlotSegment segment = log.segmentForAppend(i);
                segment.buffer().putLong(segment.byteIndex(i), value, SlotLog.ORDER);
                log.publish(i + 1);
            }
            int lo = Math.min(loSeed, values.length - 1);
            int hi = Math.max(lo, Math.min(hiSeed, values.length));
            for (int i = 0; i < values.length; i++) {
                for (long key : new long[] {values[i] - 1, values[i], values[i] + 1}) {
                    assertEquals(linear(values, lo, hi, key, false), log.lowerBound(lo, hi, 0, key, false),
                            "key " + key + " in [" + lo + ", " + hi + ")");
                    assertEquals(linear(values, lo, hi, key, true), log.lowerBound(lo, hi, 0, key, true),
                            "strict key " + key + " in [" + lo + ", " + hi + ")");
                }
            }
            assertEquals(hi, log.lowerBound(lo, hi, 0, Long.MAX_VALUE, true));
        } finally {
            log.destroy();
            QueueFixture.deleteRecursively(dir);
        }
    }

    private static long linear(long[] values, int lo, int hi, long key, boolean strict) {
        for (int i = lo; i < hi; i++) {
            if (strict ? values[i] > key : values[i] >= key) {
                return i;
            }
        }
        return hi;
    }
}
