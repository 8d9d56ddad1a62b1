package io.sluice.broker.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RateSamplerTest {

    @Test
    void shouldBeZeroUntilTwoSamplesExist() {
        RateSampler sampler = new RateSampler(5);
        assertEquals(0, sampler.perSecond(10_000));
        sampler.sample(1_000, 100);
        assertEquals(0, sampler.perSecond(10_000));
    }

    @Test
    void shouldAverageOverTheWindow() {
        RateSampler sampler = new RateSampler(11);
        for (int i = 0; i <= 10; i++) {
            sampler.sample(1_000L * i, i < 5 ? 0 : 100L * (i - 4));
        }
        assertEquals(100, sampler.perSecond(5_000), 1e-9);
        assertEquals(60, sampler.perSecond(10_000), 1e-9);
        assertEquals(60, sampler.perSecond(60_000), 1e-9, "a window longer than the ring uses the oldest sample");
    }

    @Test
    void shouldWrapAroundTheRing() {
        RateSampler sampler = new RateSampler(3);
        for (int i = 0; i < 10; i++) {
            sampler.sample(1_000L * i, 10L * i * i);
        }
        assertEquals((810 - 490) / 2.0, sampler.perSecond(10_000), 1e-9);
    }

    @Test
    void shouldRefuseATinyRing() {
        assertThrows(IllegalArgumentException.class, () -> new RateSampler(1));
    }
}
