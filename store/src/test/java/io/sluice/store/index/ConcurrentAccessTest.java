package io.sluice.store.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.format.ConsumeQueueType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One writer appends while readers look up and read random published offsets and another thread keeps trimming
 * and flushing, which deletes (and unmaps) files under the readers. Every slot a reader gets must be exactly
 * the one written for that offset: record {@code k} has base {@code k * batch}, position {@code k * 1000},
 * size {@code 100 + k % 50}, tags {@code k}, store time {@code k}.
 */
class ConcurrentAccessTest {

    private static final int RECORDS = 100_000;
    private static final long DEADLINE_MS = 60_000;

    @TempDir
    Path root;

    @ParameterizedTest
    @EnumSource(ConsumeQueueType.class)
    void readersNeverSeeATornOrWrongSlotWhileFilesComeAndGo(ConsumeQueueType type) throws Exception {
        IndexSettings settings = IndexSettings.defaults(root).withSimpleCqSlotsPerFile(512)
                .withBatchCqSlotsPerFile(512);
        int batch = type == ConsumeQueueType.SIMPLE ? 1 : 3;
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong found = new AtomicLong();
        try (ConsumeQueueTable table = ConsumeQueueTable.open(settings, t -> type, (p, s) -> p / 1000)) {
            ConsumeQueue queue = table.getOrCreate("Race", 0);
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(guard(failures, done, () -> {
                for (int k = 0; k < RECORDS; k++) {
                    if (k == RECORDS / 2) {
                        awaitFirstFind(found); // on a loaded machine the writer could otherwise finish alone
                    }
                    SlotAppendStatus status = queue.append((long) k * batch, batch, k * 1000L, 100 + k % 50, k, k);
                    if (status != SlotAppendStatus.APPENDED) {
                        failures.add("append " + k + ": " + status);
                        return;
                    }
                }
            }), "writer"));
            for (int r = 0; r < 2; r++) {
                threads.add(new Thread(guard(failures, null, () -> read(queue, batch, done, found, failures)),
                        "reader-" + r));
            }
            threads.add(new Thread(guard(failures, null, () -> {
                while (!done.get()) {
                    long records = queue.maxOffset() / batch;
                    queue.trimBelowPosition(records / 2 * 1000L);
                    queue.flush();
                }
            }), "trimmer"));
            threads.forEach(Thread::start);
            long deadline = System.currentTimeMillis() + DEADLINE_MS;
            for (Thread thread : threads) {
                thread.join(Math.max(1, deadline - System.currentTimeMillis()));
                assertFalse(thread.isAlive(), thread.getName() + " did not finish in time");
            }
            assertEquals(List.of(), List.copyOf(failures));
            assertTrue(found.get() > 0, "readers found slots");
            assertEquals((long) RECORDS * batch, queue.maxOffset());
            for (long offset = queue.minOffset(); offset < queue.maxOffset(); offset++) {
                String problem = check(queue.lookup(offset), offset, batch);
                assertEquals(null, problem, problem);
            }
        }
    }

    private static void read(ConsumeQueue queue, int batch, AtomicBoolean done, AtomicLong found,
                             ConcurrentLinkedQueue<String> failures) {
        SlotBatch slots = new SlotBatch(8);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!done.get()) {
            long max = queue.maxOffset();
            if (max < 2) {
                Thread.onSpinWait();
                continue;
            }
            long offset = random.nextLong(max / 3, max);
            SlotLookup result = queue.lookup(offset);
            if (result.status() == SlotReadStatus.BEYOND_MAX) {
                failures.add("offset " + offset + " below a max of " + max + " reported beyond max");
            }
            String problem = check(result, offset, batch);
            if (problem != null) {
                failures.add(problem);
            }
            if (queue.read(offset, slots) == SlotReadStatus.FOUND) {
                found.incrementAndGet();
                for (int i = 0; i < slots.size(); i++) {
                    long expectedBase = slots.baseOffset(0) + (long) i * batch;
                    String slotProblem = check(slots.slot(i), i == 0 ? offset : expectedBase, batch);
                    if (slotProblem != null || slots.baseOffset(i) != expectedBase) {
                        failures.add("read(" + offset + ")[" + i + "]: " + slotProblem + " " + slots);
                    }
                }
            }
        }
    }

    /** Holds the writer half-way until a reader has found a slot, so reads overlap appends and trims. */
    private static void awaitFirstFind(AtomicLong found) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS / 2);
        while (found.get() == 0 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    /** Null if the lookup result is absent or exactly the slot written for {@code offset}. */
    private static String check(SlotLookup result, long offset, int batch) {
        if (!(result instanceof QueueSlot slot)) {
            return null;
        }
        long k = offset / batch;
        QueueSlot expected = new QueueSlot(k * 1000L, (int) (100 + k % 50), k, k * batch, batch,
                batch == 1 ? QueueSlot.UNKNOWN_STORE_TIME : k);
        return expected.equals(slot) ? null : "offset " + offset + ": expected " + expected + " but read " + slot;
    }

    private static Runnable guard(ConcurrentLinkedQueue<String> failures, AtomicBoolean doneWhenFinished,
                                  Runnable body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failures.add(Thread.currentThread().getName() + " threw " + t);
            } finally {
                if (doneWhenFinished != null) {
                    doneWhenFinished.set(true);
                }
            }
        };
    }
}
