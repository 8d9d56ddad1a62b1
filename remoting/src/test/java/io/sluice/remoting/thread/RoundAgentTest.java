package io.sluice.remoting.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The controller-mode round thread: rounds repeat on the named thread with the wall-clock time, a round that throws
 * does not end the thread, and close stops it after waiting for the round in progress.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class RoundAgentTest {

    @Test
    void roundsRepeatOnTheNamedThreadWithTheWallClockTime() {
        List<String> threads = new CopyOnWriteArrayList<>();
        List<Long> times = new CopyOnWriteArrayList<>();
        long before = System.currentTimeMillis();
        try (RoundAgent agent = new RoundAgent("sluice-test-rounds", 1, nowMs -> {
            threads.add(Thread.currentThread().getName());
            times.add(nowMs);
        })) {
            agent.start();
            Await.until("three rounds", 10_000, () -> times.size() >= 3, times::size);
        }
        assertTrue(threads.stream().allMatch("sluice-test-rounds"::equals), threads.toString());
        assertTrue(times.get(0) >= before, "the round is given the current time");
        for (int i = 1; i < times.size(); i++) {
            assertTrue(times.get(i) >= times.get(i - 1), "time does not run backwards: " + times);
        }
    }

    @Test
    void aRoundThatThrowsIsFollowedByTheNextRound() {
        AtomicInteger rounds = new AtomicInteger();
        try (RoundAgent agent = new RoundAgent("sluice-test-failing", 1, nowMs -> {
            if (rounds.incrementAndGet() % 2 == 1) {
                throw new IllegalStateException("round " + rounds.get() + " failed on purpose");
            }
        })) {
            agent.start();
            Await.until("rounds after failures", 10_000, () -> rounds.get() >= 4, rounds::get);
        }
    }

    @Test
    void closeWaitsForTheRoundInProgressAndNoRoundFollows() throws Exception {
        CountDownLatch inRound = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        RoundAgent agent = new RoundAgent("sluice-test-stop", 60_000, nowMs -> {
            inRound.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.incrementAndGet();
        });
        agent.start();
        assertTrue(inRound.await(10, TimeUnit.SECONDS));
        Thread closer = new Thread(agent::close, "closer");
        closer.start();
        closer.join(100);
        assertTrue(closer.isAlive(), "close waits while the round runs");
        release.countDown();
        closer.join(10_000);
        assertFalse(closer.isAlive(), "close returned once the round ended");
        assertEquals(1, finished.get(), "the long interval is cut short by close, with no further round");
        agent.close();
    }

    @Test
    void closeWithoutStartAndFailureReportsNeedNoThread() {
        RoundAgent agent = new RoundAgent("sluice-test-idle", 10, nowMs -> {
            throw new AssertionError("never started");
        });
        agent.reportFailure("the controller is unreachable");
        agent.reportFailure("the controller is unreachable");
        agent.reportSuccess();
        agent.close();
    }
}
