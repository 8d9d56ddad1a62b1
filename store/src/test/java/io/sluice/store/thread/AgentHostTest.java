package io.sluice.store.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentHostTest {

    /** Long enough that a test finishing in time proves the park was ended early. */
    private static final long LONG_PARK_NS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void shouldRunCyclesOnADaemonThreadNamedByTheRoleAndCloseOnIt() {
        AtomicReference<String> cycleThread = new AtomicReference<>();
        AtomicReference<String> closeThread = new AtomicReference<>();
        AtomicInteger cycles = new AtomicInteger();
        AtomicReference<Boolean> daemon = new AtomicReference<>();
        AgentHost host = new AgentHost(new LoopAgent("test-owner-of-x", () -> {
            cycleThread.set(Thread.currentThread().getName());
            daemon.set(Thread.currentThread().isDaemon());
            cycles.incrementAndGet();
            return 0;
        }, () -> closeThread.set(Thread.currentThread().getName())), new SleepingIdleStrategy(1_000_000));
        host.start();
        assertTrue(host.isRunning());
        Await.until("a few cycles", () -> cycles.get() >= 3);
        assertTrue(host.close(10_000));
        assertFalse(host.isRunning());
        assertEquals("test-owner-of-x", cycleThread.get());
        assertTrue(daemon.get());
        assertEquals("test-owner-of-x", closeThread.get(), "onClose runs on the agent's thread");
        assertNull(host.thread(), "no thread after close");
    }

    @Test
    void shouldEndAParkAtWakeUpAndAtClose() {
        AtomicInteger cycles = new AtomicInteger();
        AgentHost host = new AgentHost(new LoopAgent("test-parker", () -> {
            cycles.incrementAndGet();
            return 0;
        }), new IntervalIdleStrategy(LONG_PARK_NS));
        host.start();
        Await.until("the first cycle", () -> cycles.get() == 1);
        Await.until("the thread parks", () -> host.thread() != null
                && host.thread().getState() == Thread.State.TIMED_WAITING);
        host.wakeUp();
        Await.until("a cycle after the wake-up", () -> cycles.get() == 2);
        Await.until("the thread parks again", () -> host.thread().getState() == Thread.State.TIMED_WAITING);
        long startNs = System.nanoTime();
        assertTrue(host.close(20_000));
        assertTrue(System.nanoTime() - startNs < LONG_PARK_NS / 2, "close ended the park");
    }

    @Test
    void shouldCountAnErrorAndGoOn() {
        AtomicInteger cycles = new AtomicInteger();
        AgentHost host = new AgentHost(new LoopAgent("test-failing", () -> {
            if (cycles.incrementAndGet() <= 3) {
                throw new IllegalStateException("injected failure " + cycles.get());
            }
            return 0;
        }), new SleepingIdleStrategy(1_000_000));
        try (host) {
            host.start();
            Await.until("cycles after the failures", () -> cycles.get() >= 5);
            assertEquals(3, host.errorCount());
        }
    }

    @Test
    void shouldEndTheLoopWithoutAnErrorWhenTheAgentTerminatesItself() {
        AtomicInteger cycles = new AtomicInteger();
        AtomicBoolean closed = new AtomicBoolean();
        AgentHost host = new AgentHost(new LoopAgent("test-self-ending", () -> {
            if (cycles.incrementAndGet() == 2) {
                throw new AgentTerminationException("done");
            }
            return 1;
        }, () -> closed.set(true)), NoOpIdleStrategy.INSTANCE);
        host.start();
        Await.until("the agent's close", closed::get);
        assertEquals(2, cycles.get());
        assertEquals(0, host.errorCount());
        assertTrue(host.close(10_000));
    }

    @Test
    void shouldReportAThreadThatDoesNotStopInTimeWithoutInterruptingIt() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AgentHost host = new AgentHost(new LoopAgent("test-stuck", () -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return 0;
        }), NoOpIdleStrategy.INSTANCE);
        host.start();
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        Thread t = host.thread();
        assertFalse(host.close(50), "still in its cycle");
        release.countDown();
        t.join(10_000);
        assertFalse(t.isAlive());
        assertFalse(interrupted.get(), "a stop never interrupts the thread");
    }

    @Test
    void shouldStartOnceAndCloseANeverStartedHost() {
        AgentHost never = new AgentHost(new LoopAgent("test-never", () -> 0), NoOpIdleStrategy.INSTANCE);
        assertTrue(never.close(1_000));
        assertThrows(IllegalStateException.class, never::start);
        AgentHost once = new AgentHost(new LoopAgent("test-once", () -> 0),
                new SleepingIdleStrategy(1_000_000));
        once.start();
        try (once) {
            assertThrows(IllegalStateException.class, once::start);
        }
        assertTrue(once.close(1_000), "closing again is a no-op");
    }
}
