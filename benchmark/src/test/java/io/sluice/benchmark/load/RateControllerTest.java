package io.sluice.benchmark.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class RateControllerTest {

    @Test
    void aFixedRateNeverChanges() {
        RateController rate = new RateController(10_000);
        rate.observe(100, 1_000_000, true);
        assertEquals(10_000, rate.ratePerSecond());
        assertEquals(0, rate.generation());
        assertFalse(rate.adaptive());
    }

    @Test
    void theSearchGrowsWhileEveryoneKeepsUpThenBacksOffHoldsAndCreeps() {
        RateController rate = new RateController(0);
        assertEquals(5_000, rate.ratePerSecond());
        rate.observe(5_000, 0, true);
        assertEquals(7_500, rate.ratePerSecond());
        rate.observe(7_000, 0, true);
        assertEquals(11_250, rate.ratePerSecond());
        rate.observe(6_000, 0, true);
        assertEquals(4_800, rate.ratePerSecond(), 1e-9);
        long generation = rate.generation();
        for (int i = 0; i < 3; i++) {
            rate.observe(4_800, 0, true);
        }
        assertEquals(generation, rate.generation(), "held for 3 s");
        rate.observe(4_800, 0, true);
        assertEquals(5_280, rate.ratePerSecond(), 1e-9);
    }

    @Test
    void aGrowingConsumerBacklogCountsAsFallingBehind() {
        RateController rate = new RateController(0);
        rate.observe(5_000, 2_000, true);
        assertEquals(4_000, rate.ratePerSecond(), 1e-9);
        RateController building = new RateController(0);
        building.observe(5_000, 5_000, false);
        assertEquals(7_500, building.ratePerSecond(), "no consumers: the backlog is not a signal");
    }
}
