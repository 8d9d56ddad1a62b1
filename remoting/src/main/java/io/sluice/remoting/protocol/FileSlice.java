package io.sluice.remoting.protocol;

import java.nio.channels.FileChannel;

/**
 * A range of a file that holds part of a command's body
 * ({@link RemotingCommand#setBody(java.nio.ByteBuffer[], FileSlice[])}), which the codec reads into the frame instead
 * of copying it from memory.
 *
 * <p>Immutable; thread-safe. The command keeps the slice, and so its {@code owner}, reachable until it is encoded,
 * and the codec never closes {@code channel}: the owner keeps the file's bytes from changing meanwhile, and whoever
 * opened the channel closes it.
 *
 * @param channel  the file, open for reading
 * @param position where the bytes start in the file
 * @param length   how many bytes
 * @param owner    what keeps the file's bytes in place; held only to keep it reachable
 */
public record FileSlice(FileChannel channel, long position, int length, Object owner) {

    public FileSlice {
        if (channel == null || position < 0 || length < 0) {
            throw new IllegalArgumentException("file slice of " + length + " bytes at " + position + " of " + channel);
        }
    }
}
