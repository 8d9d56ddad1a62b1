package io.sluice.broker.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * The broker's rates against the plain definition, for any capacity, sampling steps and window: the increase per
 * second from the oldest kept sample within the window to the newest, 0 with fewer than two samples or no time
 * between them.
 */
class RateSamplerPropertyTest {

    @Property(tries = 400)
    void aRateIsTheIncreasePerSecondOverTheKeptSamplesInTheWindow(
            @ForAll @IntRange(min = 2, max = 12) int capacity,
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 2_000) Integer> stepsMs,
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 500) Integer> increases,
            @ForAll @LongRange(min = 0, max = 20_000) long windowMs) {
        RateSampler sampler = new RateSampler(capacity);
        List<long[]> samples = new ArrayList<>();
        long nowMs = 1_000_000;
        long total = 0;
        int n = Math.min(stepsMs.size(), increases.size());
        for (int i = 0; i < n; i++) {
            nowMs += stepsMs.get(i);
            total += increases.get(i);
            sampler.sample(nowMs, total);
            samples.add(new long[] {nowMs, total});
            assertEquals(expected(samples, capacity, windowMs), sampler.perSecond(windowMs), 1e-9,
                    "after sample " + i);
        }
    }

    private static double expected(List<long[]> samples, int capacity, long windowMs) {
        List<long[]> kept = samples.subList(Math.max(0, samples.size() - capacity), samples.size());
        if (kept.size() < 2) {
            return 0;
        }
        long[] newest = kept.get(kept.size() - 1);
        long[] oldest = newest;
        for (int i = kept.size() - 2; i >= 0 && newest[0] - kept.get(i)[0] <= windowMs; i--) {
            oldest = kept.get(i);
        }
        long elapsedMs = newest[0] - oldest[0];
        return elapsedMs <= 0 ? 0 : (newest[1] - oldest[1]) * 1000.0 / elapsedMs;
    }
}
