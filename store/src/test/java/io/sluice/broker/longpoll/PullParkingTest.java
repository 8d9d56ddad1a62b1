package io.sluice.broker.longpoll;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testing.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PullParkingTest {

    private static final long LONG_MS = 60_000;

    private ScheduledExecutorService timer;
    private ExecutorService executor;
    private PullParking parking;

    @BeforeEach
    void start() {
        timer = Executors.newSingleThreadScheduledExecutor();
        executor = Executors.newSingleThreadExecutor();
        parking = new PullParking(timer, executor);
    }

    @AfterEach
    void stop() {
        parking.close();
        timer.shutdownNow();
        executor.shutdownNow();
    }

    @Test
    void shouldWakeOnlyRequestsBelowTheNewMaxOffset() {
        AtomicInteger atFive = new AtomicInteger();
        AtomicInteger atSeven = new AtomicInteger();
        AtomicInteger otherQueue = new AtomicInteger();
        parking.park("T", 0, 5, LONG_MS, true, () -> 5, atFive::incrementAndGet);
        parking.park("T", 0, 7, LONG_MS, true, () -> 5, atSeven::incrementAndGet);
        parking.park("T", 1, 5, LONG_MS, true, () -> 5, otherQueue::incrementAndGet);
        parking.onArrival("T", 0, 6);
        Await.until("the request at offset 5 re-runs", () -> atFive.get() == 1);
        parking.onArrival("T", 0, 6);
        parking.onArrival("T", 0, 8);
        Await.until("the request at offset 7 re-runs", () -> atSeven.get() == 1);
        assertEquals(1, atFive.get(), "released once");
        assertEquals(0, otherQueue.get());
        assertEquals(1, parking.waitingCount());
        assertEquals(2, parking.wokenByArrivalCount());
    }

    @Test
    void shouldRunAWokenRequestOnTheExecutorGivenAtParking() {
        List<Runnable> given = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        parking.park("T", 0, 5, LONG_MS, true, () -> 5, given::add, runs::incrementAndGet);
        parking.onArrival("T", 0, 6);
        assertEquals(1, given.size(), "handed to the executor given at parking");
        assertEquals(0, runs.get(), "not run on the arrival's thread or the default executor");
        given.get(0).run();
        assertEquals(1, runs.get());
        assertEquals(1, parking.wokenByArrivalCount());
        assertEquals(0, parking.waitingCount());
    }

    @Test
    void shouldReleaseOnTimeout() {
        AtomicInteger runs = new AtomicInteger();
        parking.park("T", 0, 0, 20, true, () -> 0, runs::incrementAndGet);
        Await.until("the timeout re-runs the pull", () -> runs.get() == 1);
        parking.onArrival("T", 0, 10);
        assertEquals(1, parking.expiredCount());
        assertEquals(0, parking.wokenByArrivalCount());
        assertEquals(0, parking.waitingCount());
    }

    @Test
    void shouldNotMissAMessageThatArrivedBeforeParking() {
        AtomicInteger runs = new AtomicInteger();
        parking.park("T", 0, 3, LONG_MS, true, () -> 4, runs::incrementAndGet);
        Await.until("the request re-runs at once", () -> runs.get() == 1);
        assertEquals(0, parking.waitingCount());
    }

    @Test
    void shouldIgnoreArrivalsWhenShortPolling() {
        AtomicInteger runs = new AtomicInteger();
        parking.park("T", 0, 0, 50, false, () -> 9, runs::incrementAndGet);
        parking.onArrival("T", 0, 10);
        assertEquals(0, parking.wokenByArrivalCount());
        Await.until("the short-poll time passes", () -> runs.get() == 1);
    }

    @Test
    void shouldRunEachRequestOnceUnderConcurrentArrivals() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        int requests = 2_000;
        for (int i = 0; i < requests; i++) {
            parking.park("T", 0, i, LONG_MS, true, () -> 0, runs::incrementAndGet);
        }
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int max = 0; max <= requests; max += 7) {
                    parking.onArrival("T", 0, max);
                }
                parking.onArrival("T", 0, requests);
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Await.until("every request re-runs", () -> runs.get() == requests);
        assertEquals(requests, parking.wokenByArrivalCount());
        assertEquals(0, parking.waitingCount());
    }

    @Test
    void shouldDropParkedRequestsOnClose() {
        AtomicInteger runs = new AtomicInteger();
        // Long suspensions: the test is about close, and a short one could expire (and re-run) before close().
        parking.park("T", 0, 0, LONG_MS, true, () -> 0, runs::incrementAndGet);
        parking.close();
        parking.onArrival("T", 0, 5);
        parking.park("T", 0, 0, LONG_MS, true, () -> 0, runs::incrementAndGet);
        assertEquals(0, parking.waitingCount());
        assertEquals(0, runs.get());
    }
}
