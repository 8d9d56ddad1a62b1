package io.sluice.benchmark.timer;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedEpochClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The timer thread's two jobs, measured through {@code TimerService.doWork} on a manual clock, one thread, ASYNC
 * flush, 256-byte bodies, stores in {@code /dev/shm} when it exists (see {@link TimerBroker}). Each iteration
 * handles {@value #BATCH} timers; the score is the time per timer (timers/s = 10^6 / score in us).
 *
 * <ul>
 *   <li>{@code enqueue}: index {@value #BATCH} timer records already in the timer topic (read from the topic,
 *       decoded, their (delivery time, position) keys written to RocksDB with the ingested offset), delivery
 *       times spread over an hour.</li>
 *   <li>{@code dueScan}: deliver {@value #BATCH} indexed timers that all fell due (scan the due keys, read each
 *       record by position, append its copy to the real topic, remove the keys). The index keeps the tombstones of
 *       earlier iterations' deliveries, as a running broker does between compactions.</li>
 * </ul>
 * The store and the index live for the whole trial, so later iterations run on a larger index.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Threads(1)
public class TimerServiceBenchmark {

    /** Timers per iteration. */
    static final int BATCH = 50_000;
    static final int BODY_BYTES = 256;
    static final long HOUR_MS = 3_600_000L;

    /** A store and a timer service on a manual clock, for the whole trial. */
    abstract static class Trial {
        final CachedEpochClock clock = new CachedEpochClock();
        TimerBroker broker;
        long sent;
        long target;

        abstract String prefix();

        @Setup(Level.Trial)
        public void open() {
            clock.update(System.currentTimeMillis());
            broker = TimerBroker.open(prefix(), 1_000, clock, BODY_BYTES);
        }

        /** Sends {@value #BATCH} timers due {@code fromMs} plus up to an hour, and waits until they are dispatched. */
        void sendBatch(long fromMs) {
            for (int i = 0; i < BATCH; i++, sent++) {
                broker.sendTimerAndWait(sent, fromMs + (sent * 7_919L) % HOUR_MS);
            }
            broker.awaitDispatched();
        }

        @TearDown(Level.Trial)
        public void close() {
            broker.close();
        }
    }

    /** Timers sent to the timer topic, not yet indexed: what {@code enqueue} indexes. */
    @State(Scope.Benchmark)
    public static class Unindexed extends Trial {
        @Override
        String prefix() {
            return "sluice-bench-timer-enq";
        }

        @Setup(Level.Iteration)
        public void send() {
            sendBatch(clock.time() + HOUR_MS);
            target = broker.timers.pendingCount() + BATCH;
        }
    }

    /** Timers indexed, their time not yet come: what {@code dueScan} delivers. */
    @State(Scope.Benchmark)
    public static class Indexed extends Trial {
        @Override
        String prefix() {
            return "sluice-bench-timer-due";
        }

        @Setup(Level.Iteration)
        public void sendAndIndex() {
            sendBatch(clock.time() + 1);
            while (broker.timers.pendingCount() < BATCH) {
                broker.timers.doWork();
            }
            target = broker.timers.deliveredCount() + BATCH;
            clock.update(clock.time() + HOUR_MS + 1);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long enqueue(Unindexed state) {
        while (state.broker.timers.pendingCount() < state.target) {
            state.broker.timers.doWork();
        }
        return state.broker.timers.pendingCount();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long dueScan(Indexed state) {
        long delivered = 0;
        while (state.broker.timers.deliveredCount() < state.target) {
            delivered += state.broker.timers.doWork();
        }
        return delivered;
    }
}
