package io.sluice.store.retention;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How full a file system is. Injected into the store so that tests control it.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface DiskUsage {

    /**
     * The used fraction, 0.0 to 1.0, of the file system holding {@code path}.
     *
     * @throws IOException when the file system cannot be queried
     */
    double usedRatio(Path path) throws IOException;

    /**
     * The size of the file system holding {@code path}, to turn a ratio into bytes; the real file system's by
     * default.
     *
     * @throws IOException when the file system cannot be queried
     */
    default long totalBytes(Path path) throws IOException {
        return Files.getFileStore(path).getTotalSpace();
    }

    /** The real file system, through {@link FileStore}: (total - usable) / total. */
    static DiskUsage fileStore() {
        return path -> {
            FileStore store = Files.getFileStore(path);
            long total = store.getTotalSpace();
            return total <= 0 ? 1.0 : (double) (total - store.getUsableSpace()) / total;
        };
    }
}
