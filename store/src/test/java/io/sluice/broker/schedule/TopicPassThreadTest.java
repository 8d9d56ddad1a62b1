package io.sluice.broker.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.testing.OpenStores;
import io.sluice.testing.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pass thread of a system-topic service: it sleeps as long as a pass asks unless a record arrives in its
 * topic, survives a pass that throws, and says at stop how it ended (never started, ended, already stopped, or still
 * inside a pass that outlives the stop timeout).
 */
@Timeout(30)
class TopicPassThreadTest {

    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);

    private OpenStores stores;

    @AfterEach
    void closeStores() {
        stores.close();
    }

    @BeforeEach
    void openStoresWithTheTopic(@TempDir Path dir) throws IOException {
        stores = OpenStores.open(dir);
        stores.createTopic("SYS_PASSES", 1);
    }

    @Test
    void anArrivalInItsTopicEndsALongSleep() {
        AtomicInteger passes = new AtomicInteger();
        TopicPassThread thread = passThread(() -> {
            passes.incrementAndGet();
            return HOUR_NS;
        }, 1_000);
        thread.start();
        Await.until("the first pass", 10_000, () -> passes.get() == 1);
        stores.append(OpenStores.draft("SYS_PASSES", 0, "due", ""));
        Await.until("a pass after the arrival", 10_000, () -> passes.get() == 2, passes::get);
        assertEquals(TopicPassThread.Stopped.ENDED, thread.stop(), "a sleeping thread stops at once");
        assertEquals(TopicPassThread.Stopped.ALREADY, thread.stop());
        assertEquals(0, thread.passErrorCount());
    }

    @Test
    void aPassThatThrowsIsCountedAndRetried() {
        AtomicInteger passes = new AtomicInteger();
        TopicPassThread thread = passThread(() -> {
            if (passes.incrementAndGet() <= 3) {
                throw new IllegalStateException("pass " + passes.get() + " failed");
            }
            return HOUR_NS;
        }, 1_000);
        thread.start();
        Await.until("three failures and a pass", 10_000, () -> passes.get() == 4, passes::get);
        assertEquals(3, thread.passErrorCount());
        assertEquals(TopicPassThread.Stopped.ENDED, thread.stop());
    }

    @Test
    void aPassAskingNoSleepRunsAgainAtOnce() {
        AtomicInteger passes = new AtomicInteger();
        TopicPassThread thread = passThread(() -> passes.incrementAndGet() < 50 ? 0 : HOUR_NS, 1_000);
        thread.start();
        Await.until("fifty passes back to back", 10_000, () -> passes.get() == 50, passes::get);
        assertEquals(TopicPassThread.Stopped.ENDED, thread.stop());
        assertEquals(50, passes.get(), "no pass after the stop");
    }

    @Test
    void aThreadIsStartedOnceAndAStopBeforeStartSaysSo() {
        TopicPassThread thread = passThread(() -> HOUR_NS, 1_000);
        assertEquals(TopicPassThread.Stopped.NEVER_STARTED, thread.stop());
        thread.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, thread::start);
        assertEquals("sluice-test-passes is already started", e.getMessage());
        assertEquals(TopicPassThread.Stopped.ENDED, thread.stop());
    }

    @Test
    void aPassOutlivingTheStopTimeoutIsReportedStillRunning() throws InterruptedException {
        CountDownLatch inPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TopicPassThread thread = passThread(() -> {
            inPass.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return HOUR_NS;
        }, 100);
        thread.start();
        inPass.await(10, TimeUnit.SECONDS);
        try {
            assertEquals(TopicPassThread.Stopped.STILL_RUNNING, thread.stop());
        } finally {
            release.countDown();
        }
    }

    private TopicPassThread passThread(TopicPassThread.Pass pass, long stopTimeoutMs) {
        return new TopicPassThread(stores.store(), "SYS_PASSES", "sluice-test-passes", pass,
                TimeUnit.MILLISECONDS.toNanos(1), stopTimeoutMs);
    }
}
