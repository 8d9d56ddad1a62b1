package io.sluice.store.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WriteBudgetTest {

    private static final long GIB = 1L << 30;

    @Test
    void shouldGrantHalfOfTheHeadroomLeftAfterTheBytesAllocatedAhead() {
        // 100 GiB at 80 %: 10 GiB below 90 %, 1 GiB allocated ahead, half of the remaining 9 GiB granted.
        assertEquals(1_000 + 9 * GIB / 2, WriteBudget.writeLimit(1_000, 0.80, 100 * GIB, 0.90, GIB), 1.0);
    }

    @Test
    void shouldGrantNothingAtOrAboveTheRatioOrWhenLittleIsLeft() {
        assertEquals(1_000, WriteBudget.writeLimit(1_000, 0.90, 100 * GIB, 0.90, 0));
        assertEquals(1_000, WriteBudget.writeLimit(1_000, 0.97, 100 * GIB, 0.90, 0));
        assertEquals(1_000, WriteBudget.writeLimit(1_000, 0.50, 100 * GIB, 0.90, 40 * GIB));
        assertEquals(1_000, WriteBudget.writeLimit(1_000, 0.89, 100L << 20, 0.90, 0));
    }
}
