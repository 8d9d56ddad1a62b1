package io.sluice.client.internal;

import java.nio.charset.StandardCharsets;

/**
 * Layout of the two message ids (docs/wire-protocol.md#message-ids). Both travel as upper-case hex of these bytes.
 *
 * <pre>
 *  UNIQ_KEY (client id of a message or batch), 16 bytes = 32 hex chars with an IPv4 client address:
 *    0   client IP          4 (IPv4) | 16 (IPv6)
 *    4   pid, low 16 bits   2
 *    6   class-loader hash  4
 *   10   ms since the start of the current month   4
 *   14   counter            2
 *
 *  offset message id (broker id of a stored record), 16 bytes = 32 hex chars with an IPv4 store host:
 *    0   store IP           4 (IPv4) | 16 (IPv6)
 *    4   store port         4 (int)
 *    8   CommitLog position 8 (long)
 * </pre>
 *
 * <p>Constants and hex helpers only; thread-safe.
 */
public final class MessageIdDescriptor {
    /** Bytes of the fixed part after the IP of a UNIQ_KEY: pid, loader hash, time, counter. */
    public static final int UNIQ_KEY_SUFFIX_BYTES = 12;
    /** Bytes of the per-id part of a UNIQ_KEY: time and counter. */
    public static final int UNIQ_KEY_VARYING_BYTES = 6;
    /** Hex characters of a UNIQ_KEY with an IPv4 client address. */
    public static final int UNIQ_KEY_IPV4_CHARS = 32;

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private MessageIdDescriptor() {
    }

    /** Writes {@code bytes} as upper-case hex into {@code out} from {@code at}; returns the index after it. */
    static int writeHex(byte[] bytes, byte[] out, int at) {
        for (byte b : bytes) {
            out[at++] = HEX[(b >> 4) & 0xF];
            out[at++] = HEX[b & 0xF];
        }
        return at;
    }

    /** Writes the low {@code byteCount} bytes of {@code value}, most significant first, as hex. */
    static int writeHex(long value, int byteCount, byte[] out, int at) {
        for (int shift = (byteCount - 1) * 8; shift >= 0; shift -= 8) {
            int b = (int) (value >>> shift);
            out[at++] = HEX[(b >> 4) & 0xF];
            out[at++] = HEX[b & 0xF];
        }
        return at;
    }

    /**
     * The offset message id of a stored record.
     *
     * @param storeAddress the store host's 4 or 16 address bytes
     * @param storePort the store host's port
     * @param commitLogOffset the record's CommitLog position
     */
    public static String offsetMessageId(byte[] storeAddress, int storePort, long commitLogOffset) {
        byte[] out = new byte[(storeAddress.length + 12) * 2];
        int at = writeHex(storeAddress, out, 0);
        at = writeHex(storePort, 4, out, at);
        writeHex(commitLogOffset, 8, out, at);
        return new String(out, StandardCharsets.US_ASCII);
    }

    /**
     * The CommitLog position encoded in an offset message id (its last 16 hex characters).
     *
     * @throws IllegalArgumentException naming the id when it is not 32 or 56 hex characters
     */
    public static long commitLogOffsetOf(String offsetMessageId) {
        if (offsetMessageId == null || offsetMessageId.length() != 32 && offsetMessageId.length() != 56) {
            throw new IllegalArgumentException("not an offset message id: '" + offsetMessageId + "'");
        }
        try {
            return Long.parseUnsignedLong(offsetMessageId.substring(offsetMessageId.length() - 16), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an offset message id: '" + offsetMessageId + "'", e);
        }
    }
}
