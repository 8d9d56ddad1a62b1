package io.sluice.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and atomically replaces the checkpoint file ({@link CheckpointDescriptor}).
 *
 * <p>Thread-safety: {@link #write} is synchronized (the checkpoint agent and the shutdown path may both write);
 * {@link #read} may run any time but is meant for start-up.
 */
final class StoreCheckpoint {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCheckpoint.class);

    private final Path directory;
    private final Path file;
    private final Path tempFile;
    private volatile long lastWrittenPosition = -1;

    public StoreCheckpoint(Path directory) {
        this.directory = directory;
        this.file = directory.resolve(CheckpointDescriptor.FILE_NAME);
        this.tempFile = directory.resolve(CheckpointDescriptor.TEMP_FILE_NAME);
    }

    /**
     * The checkpoint on disk; empty when there is none or it is damaged (logged: recovery then starts from the
     * beginning of the log, which is slower but safe).
     *
     * @throws IOException if the file exists but cannot be read
     */
    public Optional<Checkpoint> read() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        String problem = CheckpointDescriptor.problem(b);
        if (problem != null) {
            LOG.warn("ignoring damaged checkpoint {}: {}", file, problem);
            return Optional.empty();
        }
        return Optional.of(new Checkpoint(CheckpointDescriptor.dispatchedPosition(b),
                CheckpointDescriptor.writtenAtMs(b)));
    }

    /**
     * Durably replaces the checkpoint: temp file, fsync, atomic rename, fsync of the directory.
     *
     * @throws IOException if any step fails (the previous checkpoint then stays in place)
     */
    public synchronized void write(long dispatchedPosition, long nowMs) throws IOException {
        if (dispatchedPosition < 0) {
            throw new IllegalArgumentException("checkpoint position must be >= 0, was " + dispatchedPosition);
        }
        ByteBuffer b = CheckpointDescriptor.encode(dispatchedPosition, nowMs);
        try (FileChannel channel = FileChannel.open(tempFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                channel.write(b);
            }
            channel.force(true);
        }
        try {
            Files.move(tempFile, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + directory + " cannot rename atomically", e);
        }
        forceDirectory(directory);
        lastWrittenPosition = dispatchedPosition;
    }

    /** The position of the last checkpoint written by this process, -1 before the first. */
    public long lastWrittenPosition() {
        return lastWrittenPosition;
    }

    /** The checkpoint file. */
    public Path file() {
        return file;
    }

    /** Makes a directory's entries (a rename, a new file) durable. */
    static void forceDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
