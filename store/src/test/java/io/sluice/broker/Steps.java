package io.sluice.broker;

import io.sluice.testing.Await;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The steps of a long integration test, each bounded, all within one budget that lies below the test's
 * {@code @Timeout}: a step that does not finish fails the test naming the step, its state and the steps before it
 * with their durations, rather than leaving a bare JUnit timeout. A step's deadline is its own or what is left of
 * the budget, whichever is shorter, so the deadlines of all steps together never exceed the budget. Conditions are
 * awaited with {@link Await}; a blocking call (a broker's close, a load's stop, a read-back) runs on a thread of its
 * own, so that the test thread can give up on it, and a call that overruns is reported with that thread's stack.
 *
 * <p>Cleanup ({@link #closer}) is bounded the same way, but outside the budget: its bound is its own, so that a
 * test whose budget ran out still closes what it started. Used by the test thread, and by the thread of a bounded
 * call whose body takes steps of its own (a read-back's waits); the timeline is thread-safe.
 */
final class Steps {

    private final long budgetMs;
    private final long startNanos = System.nanoTime();
    private final List<String> timeline = new CopyOnWriteArrayList<>();

    /** @param budgetMs what all steps together may take; keep it below the test's timeout minus its cleanup */
    Steps(long budgetMs) {
        this.budgetMs = budgetMs;
    }

    /** Waits up to {@code timeoutMs} (at most the rest of the budget) for {@code condition}; fails naming both. */
    void until(String what, long timeoutMs, BooleanSupplier condition, Supplier<?> state) {
        long bound = bound(what, timeoutMs);
        long stepNanos = System.nanoTime();
        try {
            Await.until(what, bound, condition, state);
        } catch (AssertionError e) {
            throw failed(what, stepNanos, e.getMessage(), e);
        }
        done(what, stepNanos);
    }

    /** Runs {@code call} as {@link #call}, without a result. */
    void run(String what, long timeoutMs, ThrowingRunnable call) throws Exception {
        call(what, timeoutMs, () -> {
            call.run();
            return null;
        });
    }

    /**
     * Runs {@code call} on a thread of its own and waits up to {@code timeoutMs} (at most the rest of the budget)
     * for it; returns its result or throws what it threw. One that overruns fails the test with its thread's stack
     * (the thread is left to finish, or not, on its own).
     */
    <T> T call(String what, long timeoutMs, Callable<T> call) throws Exception {
        long bound = bound(what, timeoutMs);
        long stepNanos = System.nanoTime();
        T result = bounded(what, bound, call, stepNanos);
        done(what, stepNanos);
        return result;
    }

    /**
     * A cleanup step for try-with-resources: closing it runs {@code close} on its own thread, bounded by
     * {@code timeoutMs} alone (not the budget). A failure or overrun is thrown from {@code close()}, so that
     * try-with-resources adds it to the test's failure, if any, as a suppressed exception.
     */
    AutoCloseable closer(String what, long timeoutMs, ThrowingRunnable close) {
        return () -> {
            long stepNanos = System.nanoTime();
            bounded(what, timeoutMs, () -> {
                close.run();
                return null;
            }, stepNanos);
            done(what, stepNanos);
        };
    }

    /** The steps so far with their durations, and when the last one ended, for failure messages and logs. */
    String timeline() {
        return String.join(", ", timeline) + " (" + elapsedMs() + " ms in all)";
    }

    private <T> T bounded(String what, long boundMs, Callable<T> call, long stepNanos) throws Exception {
        FutureTask<T> task = new FutureTask<>(call);
        Thread thread = new Thread(task, "step: " + what);
        thread.setDaemon(true);
        thread.start();
        try {
            Await.until(what + " to return", boundMs, task::isDone, () -> "");
        } catch (AssertionError e) {
            throw failed(what, stepNanos, "did not return within " + boundMs + " ms; its thread is at"
                    + stackOf(thread), e);
        }
        try {
            return task.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            timeline.add(what + " failed after " + sinceMs(stepNanos) + " ms");
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private long bound(String what, long timeoutMs) {
        long left = budgetMs - elapsedMs();
        if (left <= 0) {
            throw failed(what, System.nanoTime(), "not started: the test's budget of " + budgetMs
                    + " ms is spent", null);
        }
        return Math.min(timeoutMs, left);
    }

    private AssertionError failed(String what, long stepNanos, String why, Throwable cause) {
        timeline.add(what + " FAILED after " + sinceMs(stepNanos) + " ms");
        AssertionError error = new AssertionError("step '" + what + "': " + why + "\nsteps: " + timeline());
        if (cause != null) {
            error.initCause(cause);
        }
        return error;
    }

    private void done(String what, long stepNanos) {
        timeline.add(what + " " + sinceMs(stepNanos) + " ms");
    }

    private long elapsedMs() {
        return sinceMs(startNanos);
    }

    private static long sinceMs(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static String stackOf(Thread thread) {
        StringBuilder text = new StringBuilder();
        for (StackTraceElement frame : thread.getStackTrace()) {
            text.append("\n\tat ").append(frame);
        }
        return text.toString();
    }

    /** A step's blocking body. */
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
