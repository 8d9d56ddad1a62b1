package io.sluice.benchmark.timer;

import io.sluice.store.log.AppendResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.agrona.concurrent.CachedEpochClock;

/**
 * The heap with millions of timers pending: sends {@code count} timers (due over the next three days) through the
 * send path's redirect into the timer topic, has the timer service index them ({@code doWork} on a manual clock,
 * nothing due), and prints, every million, the heap used after a full GC, the timers pending and the size of the
 * timer index on disk. At the end it moves the clock so that the first {@value #DUE_AT_END} fall due and times
 * their delivery with everything else still pending. Run it with a small heap: a per-timer heap structure would
 * not fit.
 *
 * <pre>java -Xmx256m -cp benchmark/target/benchmarks.jar io.sluice.benchmark.timer.TimerHeap [count]</pre>
 * Default 10,000,000. Needs about 300 bytes of CommitLog per timer where {@link TimerBroker} puts its files
 * ({@code -Dsluice.bench.dir=...} for a disk instead of {@code /dev/shm}).
 */
public final class TimerHeap {

    private static final int BODY_BYTES = 16;
    private static final int CHUNK = 100_000;
    private static final long REPORT_EVERY = 1_000_000;
    private static final long SPREAD_MS = 3 * 86_400_000L;
    private static final int DUE_AT_END = 100_000;

    private TimerHeap() {
    }

    public static void main(String[] args) {
        long count = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        CachedEpochClock clock = new CachedEpochClock();
        long t0 = System.currentTimeMillis();
        clock.update(t0);
        try (TimerBroker broker = TimerBroker.open("sluice-bench-timer-heap", 1_000, clock, BODY_BYTES)) {
            System.out.printf(Locale.ROOT, "max heap %d MiB; before any timer: heap used after GC %d MiB%n",
                    Runtime.getRuntime().maxMemory() >> 20, heapUsedAfterGcBytes() >> 20);
            long startNs = System.nanoTime();
            long sent = 0;
            while (sent < count) {
                CompletableFuture<AppendResult> last = null;
                long end = Math.min(count, sent + CHUNK);
                for (; sent < end; sent++) {
                    // Spread over three days by a stride coprime with the count, so keys arrive out of time order.
                    last = broker.sendTimer(sent, t0 + 1 + (sent * 7_919L) % SPREAD_MS);
                }
                if (!last.join().status().isStored()) {
                    throw new IllegalStateException("a timer append was refused: " + last.join());
                }
                broker.awaitDispatched();
                while (broker.timers.pendingCount() < sent) {
                    broker.timers.doWork();
                }
                if (sent % REPORT_EVERY == 0 || sent == count) {
                    System.out.printf(Locale.ROOT, "%,d pending after %d s: heap used after GC %d MiB, timer index"
                                    + " %d MiB on disk%n", broker.timers.pendingCount(),
                            (System.nanoTime() - startNs) / 1_000_000_000L, heapUsedAfterGcBytes() >> 20,
                            sizeBytes(broker.dir.resolve("timer")) >> 20);
                }
            }
            clock.update(t0 + 1 + (long) DUE_AT_END * SPREAD_MS / count);
            long deliverStartNs = System.nanoTime();
            long delivered = 0;
            for (int n = broker.timers.doWork(); n > 0; n = broker.timers.doWork()) {
                delivered += n;
            }
            long deliverMs = Math.max(1, (System.nanoTime() - deliverStartNs) / 1_000_000);
            System.out.printf(Locale.ROOT, "%,d fell due among %,d pending: delivered in %d ms (%,d/s); heap used"
                            + " after GC %d MiB%n", delivered, count, deliverMs, delivered * 1_000 / deliverMs,
                    heapUsedAfterGcBytes() >> 20);
        }
    }

    private static long heapUsedAfterGcBytes() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long sizeBytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
