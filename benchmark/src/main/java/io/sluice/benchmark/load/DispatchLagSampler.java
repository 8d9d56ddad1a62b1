package io.sluice.benchmark.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Samples a broker's dispatch lag on one background thread at a fixed interval (off the producers' path: one
 * request at a time, a late answer skips the ticks it overran rather than bursting) and records it into
 * HdrHistograms. Failed samples are counted, the first one kept and logged.
 *
 * <p>Lifecycle: construct, {@link #start()} once, {@link #stop()} once. The histograms and counters belong to the
 * sampling thread until {@link #stop()} has joined it; call both methods from the same (owning) thread.
 */
final class DispatchLagSampler {

    /** Where samples come from; {@link DispatchLagProbe} in the harness. */
    interface Source {

        /**
         * One reading.
         *
         * @throws InterruptedException if interrupted while waiting (the sampler is stopping)
         * @throws Exception            when no reading could be taken (counted as a failed sample)
         */
        DispatchLagProbe.Reading read() throws Exception;
    }

    private final Source source;
    private final long intervalNanos;
    private final Consumer<String> log;
    private final String name;
    // Owned by the sampling thread until stop() joins it.
    private final Histogram bytes = new Histogram(3);
    private final Histogram ms = new Histogram(3);
    private long samples;
    private long failures;
    private String firstFailure;
    private Thread thread;
    private volatile boolean running;

    /**
     * @param name       names the thread and the log lines (the system under test)
     * @param intervalMs time between the starts of two samples
     * @param log        told the first failure when it happens
     */
    DispatchLagSampler(String name, Source source, long intervalMs, Consumer<String> log) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("intervalMs must be positive, was " + intervalMs);
        }
        this.name = name;
        this.source = source;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        this.log = log;
    }

    /** Starts sampling now. */
    void start() {
        if (thread != null) {
            throw new IllegalStateException("the dispatch lag sampler of " + name + " was already started");
        }
        running = true;
        thread = new Thread(this::sampleUntilStopped, "bench-dispatch-lag-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Stops sampling (a sample in flight is abandoned, not counted) and returns what was recorded.
     *
     * @throws InterruptedException if interrupted while waiting for the sampling thread to end
     */
    DispatchLag stop() throws InterruptedException {
        if (thread == null) {
            throw new IllegalStateException("the dispatch lag sampler of " + name + " was never started");
        }
        running = false;
        thread.interrupt();
        thread.join();
        return new DispatchLag(samples, failures, firstFailure, DispatchLag.Figures.of(bytes),
                DispatchLag.Figures.of(ms));
    }

    private void sampleUntilStopped() {
        long next = System.nanoTime();
        while (running) {
            try {
                DispatchLagProbe.Reading reading = source.read();
                bytes.recordValue(reading.behindBytes());
                reading.behindMs().ifPresent(ms::recordValue);
                samples++;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                if (failures++ == 0) {
                    firstFailure = String.valueOf(e);
                    log.accept(name + ": dispatch lag sample failed (further failures are only counted): " + e);
                }
            }
            long now = System.nanoTime();
            next += intervalNanos;
            if (next - now < 0) {
                next = now; // overran: skip the missed ticks
            }
            for (long wait = next - System.nanoTime(); wait > 0 && running; wait = next - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
        }
    }
}
