package io.sluice.store.log;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline instead of sleeping. Test scope. */
public final class Await {

    /** Default deadline for conditions that should hold within milliseconds. */
    public static final Duration DEFAULT = Duration.ofSeconds(10);

    private Await() {
    }

    /** Polls {@code condition} every 100 µs until it holds, failing after {@code timeout}. */
    public static void until(String what, BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, DEFAULT);
    }

    /** The future's value, failing after {@link #DEFAULT}. */
    public static <T> T result(CompletableFuture<T> future) {
        try {
            return future.get(DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future not completed within " + DEFAULT, e);
        }
    }
}
