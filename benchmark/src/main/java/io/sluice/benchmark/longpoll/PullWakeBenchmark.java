package io.sluice.benchmark.longpoll;

import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.sluice.broker.longpoll.PullParking;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pull-wake path: a pull parked on an empty queue ({@link PullParking#park}), woken by an arrival
 * ({@link PullParking#onArrival}, called by the thread that appended), re-run and answered on the pull connection's
 * I/O thread. The score is the time from the arrival until the answer is written, per woken pull.
 *
 * <ul>
 *   <li>{@code rerunOnPullPoolThenIoThread} (baseline, the path before): the woken pull re-runs on the broker's
 *       pull pool, which hands the response to the connection's I/O thread: two thread wake-ups per pull.</li>
 *   <li>{@code rerunOnIoThread} (the path now): {@code park} names the connection's I/O thread as the re-run
 *       executor; the woken pull re-runs there and writes its own response: one wake-up.</li>
 * </ul>
 *
 * <p>The benchmark thread plays the appending thread: it parks a pull at the queue's end, reports an arrival
 * beyond it and waits (spinning) until the I/O thread has "written" the answer, so each operation is one full
 * wake round trip. The I/O thread is a Netty NIO event loop, as the broker's connections have; re-run and write
 * themselves are empty, so what is measured is the hand-off cost. Run it alone on an idle machine:
 * {@code java -jar benchmark/target/benchmarks.jar PullWakeBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class PullWakeBenchmark {

    private static final String TOPIC = "bench";
    /** Long enough never to expire during a measurement: only arrivals release pulls. */
    private static final long PARK_TIMEOUT_MS = 600_000;

    private ScheduledThreadPoolExecutor timer;
    private ExecutorService pullPool;
    private NioEventLoopGroup ioGroup;
    private EventLoop ioThread;
    private PullParking parking;
    /** Pulls answered on the I/O thread; written by it, read by the benchmark thread. */
    private final AtomicLong answered = new AtomicLong();
    /** The next offset to park at; benchmark thread only. */
    private long offset;
    private Runnable answerOnIoThread;
    private Runnable rerunThenHandToIoThread;

    @Setup(Level.Trial)
    public void start() {
        timer = new ScheduledThreadPoolExecutor(1);
        // The broker cancels the timeout of every woken pull: without removal the timer's heap would grow.
        timer.setRemoveOnCancelPolicy(true);
        pullPool = Executors.newFixedThreadPool(1);
        ioGroup = new NioEventLoopGroup(1);
        ioThread = ioGroup.next();
        parking = new PullParking(timer, pullPool);
        answerOnIoThread = answered::incrementAndGet;
        rerunThenHandToIoThread = () -> ioThread.execute(answerOnIoThread);
        offset = 0;
        answered.set(0);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        parking.close();
        ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        pullPool.shutdownNow();
        timer.shutdownNow();
    }

    /** Baseline: the re-run goes to the pull pool, which hands the write to the I/O thread. */
    @Benchmark
    public long rerunOnPullPoolThenIoThread() {
        return wakeOne(pullPool::execute, rerunThenHandToIoThread);
    }

    /** The re-run goes straight to the connection's I/O thread, which writes its answer. */
    @Benchmark
    public long rerunOnIoThread() {
        return wakeOne(ioThread, answerOnIoThread);
    }

    private long wakeOne(Executor rerunOn, Runnable rerun) {
        long parkedAt = offset++;
        parking.park(TOPIC, 0, parkedAt, PARK_TIMEOUT_MS, true, () -> parkedAt, rerunOn, rerun);
        parking.onArrival(TOPIC, 0, parkedAt + 1);
        long expected = parkedAt + 1;
        while (answered.get() < expected) {
            Thread.onSpinWait();
        }
        return expected;
    }
}
