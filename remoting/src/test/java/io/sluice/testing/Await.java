package io.sluice.testing;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The tests' one way to wait: for a condition, or a future, with a deadline, never a fixed sleep. Conditions are
 * polled every 100 µs for the first 10 ms (most hold within microseconds), then every millisecond, so that a long
 * wait does not take a processor from the code under test. A wait that times out fails the test, naming what it
 * waited for and, where given, the state that would explain why.
 *
 * <p>Shared by every module's tests through the remoting module's test jar (the lowest module).
 */
public final class Await {

    /** Deadline of the forms without one: long enough for a loaded machine, short enough to fail a stuck test. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final long FAST_POLL_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long FAST_POLLS_FOR_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long SLOW_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private Await() {
    }

    /** Waits up to {@link #DEFAULT_TIMEOUT} for {@code condition}; fails naming {@code what}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT_TIMEOUT.toMillis(), condition, () -> "");
    }

    /** Waits up to {@link #DEFAULT_TIMEOUT} for {@code condition}; fails naming {@code what} and the state. */
    public static void until(String what, BooleanSupplier condition, Supplier<?> state) {
        until(what, DEFAULT_TIMEOUT.toMillis(), condition, state);
    }

    /** Waits up to {@code timeout} for {@code condition}; fails naming {@code what}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout.toMillis(), condition, () -> "");
    }

    /** Waits up to {@code timeoutMs} for {@code condition}; fails naming {@code what}. */
    public static void until(String what, long timeoutMs, BooleanSupplier condition) {
        until(what, timeoutMs, condition, () -> "");
    }

    /** Waits up to {@code timeoutMs} for {@code condition}; fails naming {@code what} and the current state. */
    public static void until(String what, long timeoutMs, BooleanSupplier condition, Supplier<?> state) {
        long startNs = System.nanoTime();
        long deadlineNs = startNs + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            if (now - deadlineNs > 0) {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what + " "
                        + state.get());
            }
            LockSupport.parkNanos(now - startNs < FAST_POLLS_FOR_NS ? FAST_POLL_NS : SLOW_POLL_NS);
        }
    }

    /** The future's value within {@link #DEFAULT_TIMEOUT}; fails with its exception or at the deadline. */
    public static <T> T result(CompletableFuture<T> future) {
        try {
            return future.get(DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not completed within " + DEFAULT_TIMEOUT, e);
        }
    }
}
