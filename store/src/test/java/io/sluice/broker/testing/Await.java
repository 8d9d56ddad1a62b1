package io.sluice.broker.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition with a deadline, polling every millisecond; never sleeps a fixed time. */
public final class Await {

    /** Default deadline of {@link #until(String, BooleanSupplier)}. */
    public static final long DEFAULT_TIMEOUT_MS = 15_000;

    private Await() {
    }

    /** Waits up to {@value #DEFAULT_TIMEOUT_MS} ms for {@code condition}; fails naming {@code what}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT_TIMEOUT_MS, condition, () -> "");
    }

    /** Waits up to {@code timeoutMs} for {@code condition}; fails naming {@code what} and the current state. */
    public static void until(String what, long timeoutMs, BooleanSupplier condition, Supplier<?> state) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeoutMs + " ms waiting for " + what + " " + state.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
