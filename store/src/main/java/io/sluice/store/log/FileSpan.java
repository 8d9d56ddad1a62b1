package io.sluice.store.log;

import java.nio.channels.FileChannel;

/**
 * Bytes of the CommitLog as a range of a segment file, for sending them to a socket straight from the file
 * ({@link CommitLog#fileSpan}) instead of through the mapping.
 *
 * <p>Immutable; thread-safe. Whoever sends from {@code channel} keeps this span (its {@code owner}) reachable until
 * the send has ended, and never closes the channel: the owner keeps the file from being reused meanwhile, and the
 * log closes the channel itself.
 *
 * @param channel      the segment file, open for reading
 * @param filePosition where the bytes start in the file
 * @param length       how many bytes
 * @param owner        the segment; held only to keep it reachable
 */
public record FileSpan(FileChannel channel, long filePosition, int length, Object owner) {

    public FileSpan {
        if (filePosition < 0 || length < 0) {
            throw new IllegalArgumentException("file span of " + length + " bytes at " + filePosition);
        }
    }
}
