package io.sluice.benchmark.timer;

import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.timer.TimerService;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemEpochClock;

/**
 * Delivery lateness of timers under a steady due rate: one thread sends timers at {@code rate} per second for
 * {@code seconds}, each due {@code leadMs} after its scheduled send time, so that timers come due at that same
 * steady rate while new ones keep arriving; the timer service runs on its own thread with {@code precisionMs}.
 * Lateness of a timer = the store time of its delivered copy minus its delivery time ({@code TIMER_OUT_MS}, which
 * the copy keeps), read back from the real topic at the end. Prints the lateness distribution and, every second,
 * the timer figures of GET_BROKER_RUNTIME_INFO.
 *
 * <pre>java -cp benchmark/target/benchmarks.jar io.sluice.benchmark.timer.TimerLateness [rate] [seconds] [leadMs]
 *     [precisionMs]</pre>
 * The sender does not wait for each append (with {@code -Dsluice.bench.flush=SYNC} the store groups their fsyncs).
 * Defaults: 10,000/s for 30 s, lead 2,000 ms, precision 1,000 ms (Apache's default). The goal: p99 at most
 * precision + 200 ms.
 */
public final class TimerLateness {

    private static final int BODY_BYTES = 256;
    private static final long DRAIN_TIMEOUT_MS = 120_000;

    private TimerLateness() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long leadMs = args.length > 2 ? Long.parseLong(args[2]) : 2_000;
        long precisionMs = args.length > 3 ? Long.parseLong(args[3]) : 1_000;
        long total = (long) rate * seconds;
        AtomicLong refused = new AtomicLong();
        try (TimerBroker broker = TimerBroker.open("sluice-bench-timer-late", precisionMs, SystemEpochClock.INSTANCE,
                BODY_BYTES)) {
            broker.timers.start();
            long startMs = System.currentTimeMillis() + 100;
            long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            long nextReportNs = startNs;
            for (long i = 0; i < total; i++) {
                long dueNs = startNs + i * 1_000_000_000L / rate;
                long waitNs;
                while ((waitNs = dueNs - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(Math.min(waitNs, 200_000));
                }
                broker.sendTimer(i, startMs + leadMs + i * 1_000 / rate).whenComplete((r, e) -> {
                    if (e != null || !r.status().isStored()) {
                        refused.incrementAndGet();
                    }
                });
                if (System.nanoTime() >= nextReportNs) {
                    report(broker, i);
                    nextReportNs += TimeUnit.SECONDS.toNanos(1);
                }
            }
            long deadlineMs = System.currentTimeMillis() + leadMs + DRAIN_TIMEOUT_MS;
            while (broker.timers.deliveredCount() < total && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(100);
                if (System.nanoTime() >= nextReportNs) {
                    report(broker, total);
                    nextReportNs += TimeUnit.SECONDS.toNanos(1);
                }
            }
            broker.awaitDispatched();
            Lateness measured = latenessOf(broker);
            Histogram lateness = measured.histogram();
            System.out.printf(Locale.ROOT, "timers sent %,d at %,d/s for %d s, lead %d ms, precision %d ms%n", total,
                    rate, seconds, leadMs, precisionMs);
            System.out.printf(Locale.ROOT, "delivered %,d (in the topic %,d), pending %,d, skipped %d, missing %d,"
                    + " sends refused %d%n", broker.timers.deliveredCount(), broker.deliveredInTopic(),
                    broker.timers.pendingCount(), broker.timers.skippedCount(), broker.timers.missingCount(),
                    refused.get());
            System.out.printf(Locale.ROOT, "lateness ms: p50 %d, p90 %d, p99 %d, p99.9 %d, max %d (early: %d)%n",
                    lateness.getValueAtPercentile(50), lateness.getValueAtPercentile(90),
                    lateness.getValueAtPercentile(99), lateness.getValueAtPercentile(99.9), lateness.getMaxValue(),
                    measured.early());
            System.out.printf(Locale.ROOT, "p99 %s precision + 200 ms%n",
                    lateness.getValueAtPercentile(99) <= precisionMs + 200 ? "within" : "BEYOND");
        }
    }

    /** The lateness of every delivered timer; {@code early}: those stored before their time (must be 0). */
    private record Lateness(Histogram histogram, long early) {
    }

    private static void report(TimerBroker broker, long sent) {
        Map<String, String> figures = broker.timers.runtimeFigures(System.currentTimeMillis());
        System.out.printf(Locale.ROOT, "sent %,d delivered %,d %s%n", sent, broker.timers.deliveredCount(), figures);
    }

    private static Lateness latenessOf(TimerBroker broker) {
        Histogram histogram = new Histogram(3_600_000L, 3);
        long early = 0;
        for (int q = 0; q < TimerBroker.QUEUES; q++) {
            long offset = broker.store.minOffset(TimerBroker.TOPIC, q);
            while (true) {
                GetResult read = broker.store.getMessages(TimerBroker.TOPIC, q, offset, 256, 4 * 1024 * 1024, null);
                if (read.status() != GetStatus.FOUND) {
                    break;
                }
                for (ByteBuffer record : read.records()) {
                    StoredMessage m = StoredMessage.decode(record);
                    long lateMs = m.storeTimestampMs() - Long.parseLong(m.property(TimerService.TIMER_OUT_MS));
                    if (lateMs < 0) {
                        early++;
                    }
                    histogram.recordValue(Math.max(0, lateMs));
                }
                offset = read.nextOffset();
            }
        }
        return new Lateness(histogram, early);
    }
}
