package io.sluice.store.dispatch.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OrderedRingTest {

    private static final long SHORT_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void shouldReleaseItemsInSequenceOrderWhateverTheArrivalOrder() throws InterruptedException {
        OrderedRing<String> ring = new OrderedRing<>(4, 10);
        assertTrue(ring.offer(12, "c", 0));
        assertTrue(ring.offer(11, "b", 0));
        assertNull(ring.awaitHead(SHORT_NS), "seq 10 has not arrived, so nothing is released");
        assertTrue(ring.offer(10, "a", 0));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            out.add(ring.awaitHead(0));
            ring.release();
        }
        assertEquals(List.of("a", "b", "c"), out);
        assertEquals(13, ring.head());
    }

    @Test
    void shouldHandTheNextItemToAConsumerWaitingWhileAProducerPassedTheHead() throws Exception {
        OrderedRing<String> ring = new OrderedRing<>(2, 0);
        AtomicReference<String> received = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            try {
                waiting.countDown();
                received.set(ring.awaitHead(LONG_NS)); // waits at seq 0, which is never offered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        consumer.start();
        waiting.await();
        ring.passHead(0);
        assertEquals(1, ring.head());
        assertTrue(ring.offer(1, "b", 0));
        consumer.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals("b", received.get(), "the consumer follows the head it did not see move");
        assertTrue(ring.awaitWindow(2, 0), "passing the head opened the window");
    }

    @Test
    void shouldRefuseToPassAHeadItDoesNotHold() throws InterruptedException {
        OrderedRing<String> ring = new OrderedRing<>(4, 5);
        IllegalStateException notHead = assertThrows(IllegalStateException.class, () -> ring.passHead(6));
        assertEquals("seq 6 cannot pass the ring head 5", notHead.getMessage());
        assertTrue(ring.offer(5, "a", 0));
        IllegalStateException offered = assertThrows(IllegalStateException.class, () -> ring.passHead(5));
        assertEquals("seq 5 was offered; only the consumer may release it", offered.getMessage());
        assertEquals(5, ring.head());
    }

    @Test
    void shouldKeepTheHeadItemUntilReleased() throws InterruptedException {
        OrderedRing<String> ring = new OrderedRing<>(1, 0);
        assertTrue(ring.offer(0, "a", 0));
        assertSame(ring.awaitHead(0), ring.awaitHead(0));
        assertFalse(ring.offer(1, "b", SHORT_NS), "the only slot is still held by the consumer");
        ring.release();
        assertTrue(ring.offer(1, "b", 0));
    }

    @Test
    void shouldBlockAnOfferBeyondTheWindowUntilTheHeadMoves() throws Exception {
        OrderedRing<Integer> ring = new OrderedRing<>(2, 0);
        assertFalse(ring.offer(2, 2, SHORT_NS), "seq 2 is outside [0, 2)");
        assertFalse(ring.awaitWindow(2, 0));
        CountDownLatch offered = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                ring.offer(2, 2, LONG_NS);
                offered.countDown();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        producer.start();
        assertFalse(offered.await(20, TimeUnit.MILLISECONDS), "must wait while seq 0 is not released");
        ring.offer(0, 0, 0);
        ring.awaitHead(0);
        ring.release();
        assertTrue(offered.await(10, TimeUnit.SECONDS));
        producer.join();
        assertNull(failure.get());
        assertTrue(ring.awaitWindow(2, 0));
    }

    @Test
    void shouldRefuseReleasedDuplicateOrMissingItems() throws InterruptedException {
        OrderedRing<String> ring = new OrderedRing<>(4, 5);
        IllegalStateException below = assertThrows(IllegalStateException.class, () -> ring.offer(4, "x", 0));
        assertTrue(below.getMessage().contains("seq 4"), below.getMessage());
        ring.offer(6, "x", 0);
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> ring.offer(6, "y", 0));
        assertTrue(twice.getMessage().contains("seq 6"), twice.getMessage());
        assertThrows(IllegalStateException.class, ring::release, "seq 5 has not arrived");
        assertThrows(IllegalArgumentException.class, () -> ring.offer(7, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new OrderedRing<String>(0, 0));
    }

    /**
     * Many producers claim consecutive batches of sequence numbers and offer each batch in a shuffled order; one
     * consumer must receive every number exactly once, in order. Batches
     * are at most the ring's capacity, and claimed in increasing order, so no producer can wait forever.
     */
    @Test
    void shouldDeliverInOrderUnderManyConcurrentOutOfOrderProducers() throws Exception {
        int capacity = 8;
        int producers = 8;
        long total = 200_000;
        OrderedRing<long[]> ring = new OrderedRing<>(capacity, 0);
        AtomicLong claims = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long seed = 1234L + p;
            threads.add(new Thread(() -> {
                Random random = new Random(seed);
                try {
                    while (true) {
                        int batch = 1 + random.nextInt(capacity);
                        long first = claims.getAndAdd(batch);
                        if (first >= total) {
                            return;
                        }
                        List<Long> seqs = new ArrayList<>();
                        for (long s = first; s < Math.min(total, first + batch); s++) {
                            seqs.add(s);
                        }
                        Collections.shuffle(seqs, random);
                        for (long s : seqs) {
                            if (!ring.offer(s, new long[] {s}, LONG_NS)) {
                                throw new AssertionError("offer of " + s + " timed out at head " + ring.head());
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "ring-producer-" + p));
        }
        threads.forEach(Thread::start);
        for (long expected = 0; expected < total; expected++) {
            long[] item = ring.awaitHead(LONG_NS);
            if (item == null) {
                throw new AssertionError("seq " + expected + " never arrived; producer failure: " + failure.get());
            }
            assertEquals(expected, item[0]);
            ring.release();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertNull(failure.get());
        assertNull(ring.awaitHead(0), "nothing beyond the last sequence number");
        assertEquals(total, ring.head());
    }
}
