package io.sluice.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class CheckpointPacerTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theFirstCheckpointIsDueAtOnce() {
        assertTrue(new CheckpointPacer().due(-5 * MS));
    }

    @Test
    void aCheckpointThatTookLongSpacesTheNextByTheDutyFactor() {
        CheckpointPacer pacer = new CheckpointPacer();
        pacer.ran(1_000 * MS, 1_100 * MS); // took 100 ms: the next is due 10 s after it started

        assertFalse(pacer.due(1_100 * MS));
        assertFalse(pacer.due(10_999 * MS));
        assertTrue(pacer.due(11_000 * MS));
    }

    @Test
    void aQuickCheckpointLeavesTheNextDueAtTheNextPeriodicRun() {
        CheckpointPacer pacer = new CheckpointPacer();
        pacer.ran(0, MS); // took 1 ms: due 100 ms after it started, before any sensible period

        assertTrue(pacer.due(100 * MS));
    }

    @Test
    void theSpacingIsCappedSoThatRecoveryStaysBounded() {
        CheckpointPacer pacer = new CheckpointPacer();
        long start = Long.MAX_VALUE - 10 * MS; // nanoTime may be anywhere, even close to wrapping
        pacer.ran(start, start + TimeUnit.SECONDS.toNanos(1));

        assertFalse(pacer.due(start + CheckpointPacer.MAX_SPACING_NS - 1));
        assertTrue(pacer.due(start + CheckpointPacer.MAX_SPACING_NS));
    }

    @Test
    void aClockThatStepsBackCountsAsNoTimeTaken() {
        CheckpointPacer pacer = new CheckpointPacer();
        pacer.ran(500 * MS, 400 * MS);

        assertTrue(pacer.due(500 * MS));
    }
}
