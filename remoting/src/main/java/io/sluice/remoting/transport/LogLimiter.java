package io.sluice.remoting.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Bounds the log lines one kind of event writes: at most {@code linesPerWindow} lines per window, whatever the
 * number of connections sending bad input (a hostile client opens a new connection per malformed frame, so a
 * per-connection bound would not bound the log). Events over the bound are counted, in the endpoint's
 * {@link RemotingCounters#logLinesSuppressed()} and here; the next line written says how many were left out
 * since the previous one, so the log shows the flood's size without its volume.
 *
 * <p>Thread-safe: I/O and lane threads of every connection call {@link #admit()}; the state is guarded by this
 * object's monitor, held for a few instructions per event.
 */
final class LogLimiter {

    /** Lines per window and kind of event. */
    static final int DEFAULT_LINES_PER_WINDOW = 5;
    static final long DEFAULT_WINDOW_NS = TimeUnit.SECONDS.toNanos(10);
    /** Returned by {@link #admit()} when the line must not be written. */
    static final long SUPPRESS = -1;

    private final int linesPerWindow;
    private final long windowNs;
    private final LongSupplier nanoClock;
    private final AtomicLong suppressedCounter;
    /** Guarded by this. */
    private long windowStartNs;
    private int linesInWindow;
    private long suppressedSinceLastLine;
    private boolean started;

    LogLimiter(int linesPerWindow, long windowNs, LongSupplier nanoClock, AtomicLong suppressedCounter) {
        if (linesPerWindow < 1 || windowNs < 1) {
            throw new IllegalArgumentException("linesPerWindow and windowNs must be >= 1, were " + linesPerWindow
                    + " and " + windowNs);
        }
        this.linesPerWindow = linesPerWindow;
        this.windowNs = windowNs;
        this.nanoClock = nanoClock;
        this.suppressedCounter = suppressedCounter;
    }

    /** The default bound on the system clock, counting into {@code counters}. */
    static LogLimiter standard(RemotingCounters counters) {
        return new LogLimiter(DEFAULT_LINES_PER_WINDOW, DEFAULT_WINDOW_NS, System::nanoTime,
                counters.logLinesSuppressed);
    }

    /**
     * One event: {@link #SUPPRESS} when its line must be left out (it is counted), else the number of lines left
     * out since the last line written, which the caller's line reports ({@link #suffix}).
     */
    synchronized long admit() {
        long now = nanoClock.getAsLong();
        if (!started || now - windowStartNs >= windowNs) {
            started = true;
            windowStartNs = now;
            linesInWindow = 0;
        }
        if (linesInWindow >= linesPerWindow) {
            suppressedSinceLastLine++;
            suppressedCounter.incrementAndGet();
            return SUPPRESS;
        }
        linesInWindow++;
        long suppressed = suppressedSinceLastLine;
        suppressedSinceLastLine = 0;
        return suppressed;
    }

    /** The end of a line admitted with {@code suppressed} lines left out before it: empty, or their count. */
    static String suffix(long suppressed) {
        return suppressed == 0 ? "" : " [suppressed " + suppressed + " similar lines since the last one]";
    }
}
