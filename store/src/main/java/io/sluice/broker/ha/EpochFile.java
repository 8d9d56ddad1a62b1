package io.sluice.broker.ha;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's epoch history ({@link EpochFileDescriptor}): which master epoch wrote which part of its CommitLog.
 * A new master appends its epoch at its log end before it serves; a slave copies its master's history before it
 * follows. Two histories give the point up to which two logs agree ({@link #truncationPoint}).
 *
 * <p>Every change is durable before it returns (fsync; a rewrite goes through a temporary file and a rename).
 * Not thread-safe: owned by the broker's role agent thread.
 */
public final class EpochFile {

    private static final Logger LOG = LoggerFactory.getLogger(EpochFile.class);

    private final Path file;
    private final List<EpochEntry> entries = new ArrayList<>();

    private EpochFile(Path file) {
        this.file = file;
    }

    /**
     * Opens (or starts) the epoch file in {@code directory}; a torn or damaged last record is dropped.
     *
     * @throws IOException when the file cannot be read, or a damaged record is followed by others
     */
    public static EpochFile open(Path directory) throws IOException {
        Files.createDirectories(directory);
        EpochFile epochs = new EpochFile(directory.resolve(EpochFileDescriptor.FILE_NAME));
        epochs.load();
        return epochs;
    }

    private void load() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        int records = bytes.capacity() / EpochFileDescriptor.RECORD_BYTES;
        for (int i = 0; i < records; i++) {
            EpochEntry entry = EpochFileDescriptor.read(bytes, i * EpochFileDescriptor.RECORD_BYTES);
            if (entry == null && i < records - 1) {
                throw new IOException("epoch file " + file + " is damaged at record " + i + " of " + records
                        + "; restore it or remove the store to copy it again from the master");
            }
            if (entry == null) {
                break;
            }
            entries.add(entry);
        }
        long validBytes = (long) entries.size() * EpochFileDescriptor.RECORD_BYTES;
        if (validBytes != bytes.capacity()) {
            LOG.warn("epoch file {}: dropped a torn or damaged last record ({} bytes)", file,
                    bytes.capacity() - validBytes);
            rewrite(entries);
        }
    }

    /** The history, oldest first. */
    public List<EpochEntry> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries));
    }

    /** The latest epoch, if any. */
    public Optional<EpochEntry> last() {
        return entries.isEmpty() ? Optional.empty() : Optional.of(entries.get(entries.size() - 1));
    }

    /**
     * Records that {@code epoch} starts at {@code startPosition} (this broker's log end as it becomes master).
     * Entries starting beyond that position describe data this log does not hold and are dropped first.
     *
     * @throws IllegalArgumentException when {@code epoch} is not above the latest one
     * @throws IOException when the file cannot be written
     */
    public void append(int epoch, long startPosition) throws IOException {
        if (last().isPresent() && epoch <= last().get().epoch()) {
            throw new IllegalArgumentException("epoch " + epoch + " is not above the latest " + last().get());
        }
        if (entries.removeIf(e -> e.startPosition() > startPosition)) {
            rewrite(entries);
        }
        ByteBuffer record = ByteBuffer.allocate(EpochFileDescriptor.RECORD_BYTES);
        EpochFileDescriptor.write(record, new EpochEntry(epoch, startPosition));
        record.flip();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            while (record.hasRemaining()) {
                channel.write(record);
            }
            channel.force(true);
        }
        entries.add(new EpochEntry(epoch, startPosition));
    }

    /** Replaces the whole history (a slave copying its master's). */
    public void replaceAll(List<EpochEntry> history) throws IOException {
        rewrite(history);
        List<EpochEntry> copy = new ArrayList<>(history);
        entries.clear();
        entries.addAll(copy);
    }

    private void rewrite(List<EpochEntry> history) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(history.size() * EpochFileDescriptor.RECORD_BYTES);
        history.forEach(entry -> EpochFileDescriptor.write(content, entry));
        content.flip();
        Path temporary = file.resolveSibling(EpochFileDescriptor.FILE_NAME + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (content.hasRemaining()) {
                channel.write(content);
            }
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Where a replica's log must be cut to follow a master: the end of the latest epoch both histories hold
     * (same epoch, same start), on whichever log ends it first; 0 when they share none. Never beyond
     * {@code localEnd}.
     *
     * @param local     this replica's history
     * @param localEnd  this replica's log end
     * @param master    the master's history
     * @param masterEnd the master's log end
     */
    public static long truncationPoint(List<EpochEntry> local, long localEnd, List<EpochEntry> master,
                                       long masterEnd) {
        for (int i = local.size() - 1; i >= 0; i--) {
            EpochEntry shared = local.get(i);
            int j = master.indexOf(shared);
            if (j < 0) {
                continue;
            }
            long localEpochEnd = i + 1 < local.size() ? local.get(i + 1).startPosition() : localEnd;
            long masterEpochEnd = j + 1 < master.size() ? master.get(j + 1).startPosition() : masterEnd;
            return Math.min(localEnd, Math.min(localEpochEnd, masterEpochEnd));
        }
        return 0;
    }
}
