package io.sluice.store.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A loop's unhandled errors are counted and logged ever more rarely; the agent's own way to end its loop is neither;
 * the interval idle strategy refuses a period it could not keep.
 */
@Timeout(10)
class CountingErrorHandlerTest {

    @Test
    void errorsAreCountedButATerminationIsNot() {
        CountingErrorHandler handler = new CountingErrorHandler("sluice-test-loop");
        handler.onError(new IllegalStateException("one"));
        handler.onError(new AgentTerminationException("the agent is done"));
        handler.onError(new RuntimeException("two"));
        handler.onError(new AssertionError("three"));
        assertEquals(3, handler.errorCount());
    }

    @Test
    void theFirstErrorAndEachPowerOfTwoAreLogged() {
        List<Long> logged = new ArrayList<>();
        for (long n = 1; n <= 1_100; n++) {
            if (CountingErrorHandler.shouldLog(n)) {
                logged.add(n);
            }
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L), logged);
    }

    @Test
    void anIntervalIdleNeedsAPositivePeriod() {
        assertThrows(IllegalArgumentException.class, () -> new IntervalIdleStrategy(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IntervalIdleStrategy(-5));
        assertEquals("periodNs must be > 0, was -5", e.getMessage());
        assertEquals("interval", new IntervalIdleStrategy(1).alias());
    }

    @Test
    void anIntervalIdleEndsEarlyWhenTheThreadIsUnparked() throws InterruptedException {
        IntervalIdleStrategy idle = new IntervalIdleStrategy(60_000_000_000L);
        Thread waiter = new Thread(() -> idle.idle(0), "sluice-test-idle");
        waiter.start();
        // Unpark until the waiter has left its minute-long park; the test's timeout bounds it.
        while (waiter.isAlive()) {
            LockSupport.unpark(waiter);
            waiter.join(10);
        }
        assertEquals(Thread.State.TERMINATED, waiter.getState());
    }
}
