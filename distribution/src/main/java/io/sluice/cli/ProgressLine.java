package io.sluice.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The live rate line of {@code sluice produce} and {@code consume}: once a second, the count so far, the rate of
 * the last second in messages and MiB, failures, and an extra text (latency). On a terminal the line is rewritten
 * in place; otherwise one line per second is printed.
 *
 * <p>Thread-safe: any thread counts; one daemon thread, owned by this object, prints until {@link #close()}.
 */
final class ProgressLine implements AutoCloseable {

    private final String label;
    private final PrintStream out;
    private final boolean terminal;
    private final Supplier<String> extra;
    private final LongAdder messages = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final ScheduledExecutorService printer;
    private final long startNanos = System.nanoTime();
    // Written by the printer thread only.
    private long lastMessages;
    private long lastBytes;
    private long lastNanos = startNanos;

    /**
     * Starts printing.
     *
     * @param label what is counted ("sent", "received")
     * @param out   where to print
     * @param extra more text for the line (e.g. latency percentiles); called on the printer thread
     */
    ProgressLine(String label, PrintStream out, Supplier<String> extra) {
        this.label = label;
        this.out = out;
        this.terminal = System.console() != null;
        this.extra = extra;
        this.printer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "sluice-progress");
            thread.setDaemon(true);
            return thread;
        });
        printer.scheduleAtFixedRate(this::print, 1, 1, TimeUnit.SECONDS);
    }

    /** Counts one message of {@code size} bytes. */
    void add(int size) {
        messages.increment();
        bytes.add(size);
    }

    /** Counts one failure. */
    void fail() {
        failures.increment();
    }

    long messages() {
        return messages.sum();
    }

    long failures() {
        return failures.sum();
    }

    private void print() {
        long now = System.nanoTime();
        long count = messages.sum();
        long byteCount = bytes.sum();
        double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
        String line = String.format(Locale.ROOT, "%,d %s  %,.0f msg/s  %.1f MiB/s  %,d failed  %s", count, label,
                (count - lastMessages) / seconds, (byteCount - lastBytes) / seconds / (1 << 20), failures.sum(),
                extra.get());
        lastMessages = count;
        lastBytes = byteCount;
        lastNanos = now;
        if (terminal) {
            out.print("\r" + line + "   ");
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Stops the printer and prints the totals: count, average rate and failures. */
    @Override
    public void close() {
        printer.shutdownNow();
        try {
            printer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        if (terminal) {
            out.println();
        }
        out.printf(Locale.ROOT, "total: %,d %s in %.1f s (%,.0f msg/s, %.1f MiB/s), %,d failed%n",
                messages.sum(), label, seconds, messages.sum() / seconds, bytes.sum() / seconds / (1 << 20),
                failures.sum());
        out.flush();
    }
}
