package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HalfWindowTest {

    @Test
    void theFloorIsTheOldestUndecidedOffsetAndChecksAreKeptUntilDecided() {
        HalfWindow window = new HalfWindow(10);
        assertTrue(window.isDecided(9));
        assertFalse(window.isDecided(10));
        window.decide(12);
        window.setChecks(11, 3);
        assertEquals(10, window.floor());
        assertTrue(window.isDecided(12));
        assertEquals(3, window.checks(11));
        window.decide(10);
        assertEquals(11, window.floor());
        window.decide(11);
        assertEquals(13, window.floor(), "11 and the already decided 12 are passed");
        assertEquals(0, window.checks(11));
        window.setChecks(11, 5);
        assertEquals(0, window.checks(11), "a decided half message takes no check count");
    }

    @Test
    void aLongRunOfDecisionsKeepsTheWindowSmallAndOutOfOrderDecisionsWait() {
        HalfWindow window = new HalfWindow(0);
        window.setChecks(0, 1); // the oldest stays pending
        for (long h = 1; h < 100_000; h++) {
            window.decide(h);
        }
        assertEquals(0, window.floor());
        assertEquals(1, window.checks(0));
        window.decide(0);
        assertEquals(100_000, window.floor());
        for (long h = 100_000; h < 300_000; h++) {
            window.decide(h);
            assertEquals(h + 1, window.floor());
        }
        window.raiseFloor(300_010);
        assertEquals(300_010, window.floor());
        window.setChecks(300_015, 2);
        window.raiseFloor(300_020);
        assertEquals(300_020, window.floor());
        assertEquals(0, window.checks(300_015));
    }
}
