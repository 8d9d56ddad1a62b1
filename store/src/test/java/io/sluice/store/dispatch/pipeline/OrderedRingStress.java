package io.sluice.store.dispatch.pipeline;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * jcstress tests of {@link OrderedRing}'s hand-over rules (run by {@code io.sluice.store.JcstressIT}): items leave in
 * sequence order whatever order they are offered in, an item's fields written before its offer are seen by the
 * consumer, and what a producer did before {@link OrderedRing#passHead} is seen by the consumer of the next item.
 */
public final class OrderedRingStress {

    private OrderedRingStress() {
    }

    /** Offers without waiting: every test's window is open. */
    static void offerNow(OrderedRing<Item> ring, long seq, Item item) {
        try {
            if (!ring.offer(seq, item, 0)) {
                throw new IllegalStateException("seq " + seq + " is outside the ring's window");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The head item if it has arrived, else null, without waiting. */
    static Item headNow(OrderedRing<Item> ring) {
        try {
            return ring.awaitHead(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An item whose field is written, plainly, before it is offered. */
    static final class Item {
        int value;
    }

    /**
     * A producer offers seq 1, then seq 0, while the consumer takes what has arrived, in order (jcstress needs a CPU
     * per actor: two actors on this project's two-core machines).
     */
    @JCStressTest
    @Description("Items leave in sequence order, with the fields their producers wrote before offering them.")
    @Outcome(id = {"-1, -1", "1, 2"}, expect = Expect.ACCEPTABLE, desc = "nothing yet, or both in order")
    @Outcome(expect = Expect.FORBIDDEN, desc = "out of order, seq 0 without the earlier seq 1, or a field not seen")
    @State
    public static class InOrderOut {
        private final OrderedRing<Item> ring = new OrderedRing<>(4, 0);

        @Actor
        public void producer() {
            Item second = new Item();
            second.value = 2;
            offerNow(ring, 1, second);
            Item first = new Item();
            first.value = 1;
            offerNow(ring, 0, first);
        }

        @Actor
        public void consumer(II_Result r) {
            Item first = headNow(ring);
            r.r1 = first == null ? -1 : first.value;
            r.r2 = -1;
            if (first != null) {
                ring.release();
                Item second = headNow(ring);
                r.r2 = second == null ? -1 : second.value;
            }
        }
    }

    /** Seq 1 is in the ring; its producer of seq 0 handles that itself and passes the head while the consumer looks. */
    @JCStressTest
    @Description("What a producer did before passing the head is seen by the consumer of the next item.")
    @Outcome(id = {"-1, 0", "-1, 7", "2, 7"}, expect = Expect.ACCEPTABLE, desc = "seq 1 not yet received, or with"
            + " the passer's write")
    @Outcome(expect = Expect.FORBIDDEN, desc = "seq 1 received without the passer's write")
    @State
    public static class PassedHead {
        private final OrderedRing<Item> ring = new OrderedRing<>(4, 0);
        private int handledBySeq0;

        public PassedHead() {
            Item item = new Item();
            item.value = 2;
            offerNow(ring, 1, item);
        }

        @Actor
        public void passerOfSeq0() {
            handledBySeq0 = 7;
            ring.passHead(0);
        }

        @Actor
        public void consumer(II_Result r) {
            Item item = ring.head() == 1 ? headNow(ring) : null;
            r.r1 = item == null ? -1 : item.value;
            r.r2 = handledBySeq0;
        }
    }
}
