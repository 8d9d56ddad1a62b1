package io.sluice.remoting.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bound on waiting requests: exactly {@code capacity} places, never more however many threads enter and leave
 * at once, a place given back is free again, and the busy answer names the queue, its capacity and the code; plus
 * the configuration spelling of enum settings.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class QueueBoundTest {

    @Test
    void exactlyCapacityRequestsWaitAndALeaveFreesAPlace() {
        QueueBound bound = new QueueBound("pull", 3);
        assertTrue(bound.tryEnter() && bound.tryEnter() && bound.tryEnter());
        assertFalse(bound.tryEnter(), "the fourth finds the queue full");
        assertEquals(3, bound.waiting());
        bound.leave();
        assertTrue(bound.tryEnter(), "a place given back is free again");
        assertFalse(bound.tryEnter());
        assertEquals("[OVERLOAD] system busy: 3 pull requests are waiting already (request code 11 not queued),"
                + " try again later", bound.busyRemark(11));
        assertEquals("QueueBound[pull, 3 of 3 waiting]", bound.toString());
    }

    @Test
    void manyThreadsNeverHoldMoreThanTheCapacity() throws Exception {
        int capacity = 5;
        QueueBound bound = new QueueBound("send", capacity);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        if (bound.tryEnter()) {
                            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                            bound.leave();
                        } else {
                            refused.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, "queue-bound-" + t);
            worker.start();
        }
        start.countDown();
        assertTrue(done.await(15, TimeUnit.SECONDS));
        assertTrue(mostInside.get() <= capacity, "at most " + capacity + " inside, saw " + mostInside.get());
        assertEquals(0, bound.waiting(), "every place was given back");
        assertEquals(capacity, bound.capacity());
    }

    @Test
    void aBoundNeedsAPositiveCapacity() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new QueueBound("pull", 0));
        assertEquals("the pull queue capacity must be positive, was 0", e.getMessage());
    }

    @Test
    void enumSettingsAreReadInAnyCaseAndABadOneListsTheChoices() {
        assertEquals(TlsMode.PERMISSIVE, EnumText.parse(TlsMode.class, " Permissive ", "tls.server.mode"));
        assertEquals("permissive", EnumText.text(TlsMode.PERMISSIVE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EnumText.parse(TlsMode.class, "strict", "tls.server.mode"));
        assertTrue(e.getMessage().startsWith("tls.server.mode must be one of "), e.getMessage());
        for (TlsMode mode : TlsMode.values()) {
            assertTrue(e.getMessage().contains(EnumText.text(mode)), e.getMessage());
        }
        assertTrue(e.getMessage().endsWith(", was 'strict'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EnumText.parse(TlsMode.class, null, "tls.server.mode"));
    }
}
