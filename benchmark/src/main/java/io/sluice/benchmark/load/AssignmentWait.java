package io.sluice.benchmark.load;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/** Waits for a started consumer's first rebalance to give it its share of queues (see {@link Driver}). */
final class AssignmentWait {

    private static final long POLL_MS = 100;

    private AssignmentWait() {
    }

    /**
     * Returns once {@code ownedQueues} reports at least {@code minQueues} (at least 1).
     *
     * @throws IllegalStateException naming the counts after {@link Driver#ASSIGNMENT_TIMEOUT_SECONDS}
     * @throws InterruptedException  if interrupted while waiting
     */
    static void await(String consumer, IntSupplier ownedQueues, int minQueues) throws InterruptedException {
        int wanted = Math.max(1, minQueues);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Driver.ASSIGNMENT_TIMEOUT_SECONDS);
        int owned;
        while ((owned = ownedQueues.getAsInt()) < wanted) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(consumer + " owns " + owned + " of at least " + wanted
                        + " queues after " + Driver.ASSIGNMENT_TIMEOUT_SECONDS + " s");
            }
            Thread.sleep(POLL_MS);
        }
    }
}
