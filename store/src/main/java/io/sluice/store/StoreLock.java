package io.sluice.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive OS lock on byte 0 of {@code <root>/lock}, held for the life of a store so that two stores (in
 * two processes or in one) never run on the same directory. The OS releases it when the process dies.
 *
 * <p>Thread-safe; owned by the store that acquired it.
 */
final class StoreLock implements Closeable {

    /** File name under the store root. */
    public static final String FILE_NAME = "lock";

    private final FileChannel channel;
    private final FileLock lock;

    private StoreLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock without waiting.
     *
     * @throws IOException naming the directory when another store holds it, or when the file cannot be opened
     */
    public static StoreLock acquire(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock(0, 1, false);
        } catch (OverlappingFileLockException e) {
            lock = null; // held by another store in this JVM
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("store directory " + directory + " is in use by another store (" + file
                    + " is locked)");
        }
        return new StoreLock(channel, lock);
    }

    /** Releases the lock. Idempotent. */
    @Override
    public void close() throws IOException {
        if (channel.isOpen()) {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }
}
