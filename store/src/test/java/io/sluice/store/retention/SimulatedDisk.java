package io.sluice.store.retention;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/** A file system of {@code totalBytes} whose use the test computes (for instance from the log's written bytes). */
public final class SimulatedDisk implements DiskUsage {

    private final long totalBytes;
    private final LongSupplier usedBytes;

    public SimulatedDisk(long totalBytes, LongSupplier usedBytes) {
        this.totalBytes = totalBytes;
        this.usedBytes = usedBytes;
    }

    @Override
    public double usedRatio(Path path) {
        return Math.min(1.0, (double) usedBytes.getAsLong() / totalBytes);
    }

    @Override
    public long totalBytes(Path path) {
        return totalBytes;
    }
}
