package io.sluice.store.log;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one path every storage {@link IOException} takes. The first failure marks the log not writable for the
 * rest of the process lifetime: appends are then refused, so nothing is acknowledged that may not be stored.
 * A second, independent flag marks the disk full (set and cleared by whoever watches disk usage).
 *
 * <p>Thread-safe: any thread may report a failure or read the flags. Listeners run on the reporting thread.
 */
public final class StoreFailureHandler {

    private static final Logger LOG = LoggerFactory.getLogger(StoreFailureHandler.class);

    private final AtomicReference<IOException> firstFailure = new AtomicReference<>();
    private final AtomicLong failureCount = new AtomicLong();
    private final CopyOnWriteArrayList<Consumer<IOException>> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean diskFull;

    /**
     * Reports a storage I/O failure. The first one is logged with its stack trace and sent to the listeners;
     * later ones are only counted (a failing disk must not flood the log).
     *
     * @param operation what was being done, e.g. {@code "fsync"} or {@code "create segment 00000000001073741824"}
     * @param cause     the failure
     */
    public void onIoFailure(String operation, IOException cause) {
        Objects.requireNonNull(cause, "cause");
        failureCount.incrementAndGet();
        if (firstFailure.compareAndSet(null, cause)) {
            LOG.error("storage failure during {}: the log is no longer writable", operation, cause);
            for (Consumer<IOException> listener : listeners) {
                listener.accept(cause);
            }
        }
    }

    /** Registers a listener told (once) about the first failure. */
    public void addListener(Consumer<IOException> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** True once any I/O failure has been reported. */
    public boolean hasFailed() {
        return firstFailure.get() != null;
    }

    /** The first reported failure, if any. */
    public Optional<IOException> firstFailure() {
        return Optional.ofNullable(firstFailure.get());
    }

    /** How many failures were reported. */
    public long failureCount() {
        return failureCount.get();
    }

    /** Sets or clears the disk-full flag (appends are refused with DISK_FULL while it is set). */
    public void markDiskFull(boolean full) {
        if (diskFull != full) {
            LOG.warn("disk full flag {}", full ? "set: appends are refused" : "cleared");
        }
        diskFull = full;
    }

    /** The disk-full flag. */
    public boolean isDiskFull() {
        return diskFull;
    }

    /** True when appends may proceed: no failure reported and the disk is not flagged full. */
    public boolean isWritable() {
        return !diskFull && firstFailure.get() == null;
    }
}
