package io.sluice.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file {@code <root>/abort}: created (holding the PID) when a store starts and deleted by a clean shutdown.
 * Finding it at start-up means the previous run did not stop cleanly and crash recovery must run.
 *
 * <p>Thread-safe (stateless apart from the path); used by the store's open and close paths.
 */
final class AbortMarker {

    /** File name under the store root. */
    public static final String FILE_NAME = "abort";

    private final Path file;

    public AbortMarker(Path directory) {
        this.file = directory.resolve(FILE_NAME);
    }

    /** True when the marker exists: the previous run ended abnormally (or is still running). */
    public boolean isPresent() {
        return Files.exists(file);
    }

    /** Creates (or rewrites) the marker with this process's id and makes it durable. */
    public void create() throws IOException {
        ByteBuffer pid = ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid())
                .getBytes(StandardCharsets.US_ASCII));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (pid.hasRemaining()) {
                channel.write(pid);
            }
            channel.force(true);
        }
        StoreCheckpoint.forceDirectory(file.getParent());
    }

    /** Deletes the marker (clean shutdown) and makes the deletion durable. */
    public void delete() throws IOException {
        Files.deleteIfExists(file);
        StoreCheckpoint.forceDirectory(file.getParent());
    }

    /** The marker file. */
    public Path file() {
        return file;
    }
}
