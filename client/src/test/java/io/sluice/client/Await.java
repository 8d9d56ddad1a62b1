package io.sluice.client;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, polling every millisecond; never sleeps blindly. */
public final class Await {
    private static final long DEFAULT_TIMEOUT_MS = 30_000;

    private Await() {
    }

    public static void until(BooleanSupplier condition, String what) {
        until(condition, DEFAULT_TIMEOUT_MS, what);
    }

    public static void until(BooleanSupplier condition, long timeoutMs, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
