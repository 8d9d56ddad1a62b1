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
        rate.observe(8_000, 0, true);
        assertEquals(6_400, rate.ratePerSecond(), 1e-9, "80% of what was achieved at the ceiling 11,250");
        long generation = rate.generation();
        for (int i = 0; i < 3; i++) {
            rate.observe(6_400, 0, true);
        }
        assertEquals(generation, rate.generation(), "held for 3 s");
        rate.observe(6_400, 0, true);
        assertEquals(7_040, rate.ratePerSecond(), 1e-9, "above half the ceiling: 10% steps");
    }

    @Test
    void oneStalledSecondHalvesTheTargetAtMostAndTheSearchClimbsBackFast() {
        RateController rate = new RateController(0);
        for (int i = 0; i < 6; i++) {
            rate.observe(rate.ratePerSecond(), 0, true);
        }
        double before = rate.ratePerSecond();
        assertEquals(5_000 * Math.pow(1.5, 6), before, 1e-6);
        rate.observe(0, 0, true);
        assertEquals(before / 2, rate.ratePerSecond(), 1e-6, "a stall halves the target, no more");
        for (int i = 0; i < 3; i++) {
            rate.observe(rate.ratePerSecond(), 0, true);
        }
        rate.observe(rate.ratePerSecond(), 0, true);
        assertEquals(before * 0.75, rate.ratePerSecond(), 1e-6, "at half the ceiling it grows by half again");
        rate.observe(rate.ratePerSecond(), 0, true);
        assertEquals(before * 0.75 * 1.1, rate.ratePerSecond(), 1e-6, "then creeps by 10%");
        rate.observe(rate.ratePerSecond(), 0, true);
        rate.observe(rate.ratePerSecond(), 0, true);
        assertEquals(before * 0.75 * 1.1 * 1.1 * 1.1, rate.ratePerSecond(), 1e-6, "still creeping");
        rate.observe(rate.ratePerSecond(), 0, true);
        assertEquals(before * 0.75 * Math.pow(1.1, 4), rate.ratePerSecond(), 1e-6, "past the old ceiling");
        rate.observe(rate.ratePerSecond(), 0, true);
        assertEquals(before * 0.75 * Math.pow(1.1, 4) * 1.5, rate.ratePerSecond(), 1e-6,
                "holding above the old ceiling lifts it: growth by half again");
    }

    @Test
    void secondsBeforeTheFirstAcknowledgementAreNotObservations() {
        RateController rate = new RateController(0);
        rate.observe(0, 0, true);
        rate.observe(0, 0, true);
        assertEquals(5_000, rate.ratePerSecond(), "still starting");
        assertEquals(0, rate.generation());
        rate.observe(5_000, 0, true);
        assertEquals(7_500, rate.ratePerSecond());
        rate.observe(0, 0, true);
        assertEquals(3_750, rate.ratePerSecond(), "after the first acknowledgement a stall counts");
    }

    @Test
    void aGrowingConsumerBacklogCountsAsFallingBehind() {
        RateController rate = new RateController(0);
        rate.observe(5_000, 2_000, true);
        assertEquals(4_000, rate.ratePerSecond(), 1e-9, "80% of the achieved 5,000");
        RateController building = new RateController(0);
        building.observe(5_000, 5_000, false);
        assertEquals(7_500, building.ratePerSecond(), "no consumers: the backlog is not a signal");
    }
}
