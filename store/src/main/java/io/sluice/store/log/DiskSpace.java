package io.sluice.store.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads how many bytes the file system holding a directory still offers. The CommitLog asks after a failed
 * write, to tell a full disk (refuse appends until there is room) from a failing one (a storage failure).
 * Tests substitute a fixed figure. Thread-safe.
 */
@FunctionalInterface
interface DiskSpace {

    /** The file system's usable space, as {@link java.nio.file.FileStore#getUsableSpace()} reports it. */
    DiskSpace SYSTEM = dir -> Files.getFileStore(dir).getUsableSpace();

    /**
     * @throws IOException when the file system cannot be queried
     */
    long usableBytes(Path dir) throws IOException;
}
