package io.sluice.store.log;

import org.agrona.DirectBuffer;

/**
 * Topic strings of CommitLog records, decoded once: a small direct-mapped cache keyed by the topic's bytes, so that
 * walking records of a few topics allocates no string per record. A miss decodes the bytes (UTF-8) and replaces
 * the slot.
 *
 * <p>Not thread-safe: one per decoding thread (a dispatcher's cursor, a parse worker).
 */
public final class TopicCache {

    private static final int SLOTS = 64;

    private final String[] topics = new String[SLOTS];
    private final byte[][] topicBytes = new byte[SLOTS][];

    /** The topic whose UTF-8 bytes are {@code buffer[index, index + length)}. */
    public String topic(DirectBuffer buffer, int index, int length) {
        int h = length;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buffer.getByte(index + i);
        }
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        byte[] cached = topicBytes[slot];
        if (cached != null && cached.length == length && sameBytes(buffer, index, cached)) {
            return topics[slot];
        }
        byte[] bytes = new byte[length];
        buffer.getBytes(index, bytes);
        String decoded = buffer.getStringWithoutLengthUtf8(index, length);
        topicBytes[slot] = bytes;
        topics[slot] = decoded;
        return decoded;
    }

    private static boolean sameBytes(DirectBuffer buffer, int index, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (buffer.getByte(index + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }
}
