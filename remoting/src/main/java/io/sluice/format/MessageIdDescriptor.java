package io.sluice.format;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Layout of the two message ids. Both travel as upper-case hex of these bytes.
 *
 * <pre>
 *  UNIQ_KEY (the client's id of a message or batch), 16 bytes = 32 hex chars with an IPv4 client address:
 *    0   client IP          4 (IPv4) | 16 (IPv6)
 *    4   pid, low 16 bits   2
 *    6   class-loader hash  4
 *   10   ms since the start of the current month   4
 *   14   counter            2
 *
 *  offset message id (the broker's id of a stored record), 16 bytes = 32 hex chars with an IPv4 store host:
 *    0   store IP           4 (IPv4) | 16 (IPv6)
 *    4   store port         4 (int)
 *    8   CommitLog position 8 (long)
 * </pre>
 *
 * <p>For example {@code 7F00000100002A9F00000000000009CF} is the offset message id of the record at position 2511
 * stored by 127.0.0.1:10911. The Apache client derives the same id from a pulled record, and admin tools decode it
 * to find the broker and the record.
 *
 * <p>Stateless; thread-safe.
 */
public final class MessageIdDescriptor {

    /** Hex length of an IPv4 offset message id. */
    public static final int IPV4_ID_LENGTH = 32;
    /** Hex length of an IPv6 offset message id. */
    public static final int IPV6_ID_LENGTH = 56;
    /** Bytes of the per-key part of a UNIQ_KEY: time and counter. */
    public static final int UNIQ_KEY_VARYING_BYTES = 6;

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private MessageIdDescriptor() {
    }

    /**
     * A decoded offset message id. Immutable; thread-safe.
     *
     * @param storeHost the broker's store host
     * @param position  the record's CommitLog position
     */
    public record OffsetMsgId(InetSocketAddress storeHost, long position) {
    }

    /** The offset message id of the record at {@code position} stored by {@code storeHost}. */
    public static String offsetMsgId(InetSocketAddress storeHost, long position) {
        return offsetMsgId(hostBytes(storeHost), position);
    }

    /**
     * Decodes an offset message id.
     *
     * @throws IllegalArgumentException naming the id when its length is not 32 or 56 or it is not hex
     */
    public static OffsetMsgId decode(String msgId) {
        Objects.requireNonNull(msgId, "msgId");
        int len = msgId.length();
        if (len != IPV4_ID_LENGTH && len != IPV6_ID_LENGTH) {
            throw new IllegalArgumentException("offset message id '" + msgId + "' has " + len
                    + " characters, expected " + IPV4_ID_LENGTH + " or " + IPV6_ID_LENGTH);
        }
        byte[] bytes = new byte[len / 2];
        for (int i = 0; i < bytes.length; i++) {
            int hi = Character.digit(msgId.charAt(2 * i), 16);
            int lo = Character.digit(msgId.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("offset message id '" + msgId + "' is not hex at character "
                        + (2 * i + (hi < 0 ? 0 : 1)));
            }
            bytes[i] = (byte) (hi << 4 | lo);
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        byte[] address = new byte[bytes.length - Integer.BYTES - Long.BYTES];
        buf.get(address);
        int port = buf.getInt();
        long position = buf.getLong();
        try {
            return new OffsetMsgId(new InetSocketAddress(InetAddress.getByAddress(address), port), position);
        } catch (UnknownHostException | IllegalArgumentException e) {
            throw new IllegalArgumentException("offset message id '" + msgId + "' holds an invalid host", e);
        }
    }

    /**
     * The host field bytes as stored in a record: address then big-endian port.
     *
     * @throws IllegalArgumentException when the address is unresolved
     */
    public static byte[] hostBytes(InetSocketAddress host) {
        InetAddress address = host.getAddress();
        if (address == null) {
            throw new IllegalArgumentException("host " + host + " is unresolved");
        }
        byte[] ip = address.getAddress();
        return ByteBuffer.allocate(ip.length + Integer.BYTES).put(ip).putInt(host.getPort()).array();
    }

    /** The offset message id from a precomputed {@link #hostBytes} and a position. */
    public static String offsetMsgId(byte[] hostBytes, long position) {
        byte[] out = new byte[(hostBytes.length + Long.BYTES) * 2];
        int at = writeHex(hostBytes, out, 0);
        writeHex(position, Long.BYTES, out, at);
        return new String(out, StandardCharsets.US_ASCII);
    }

    /**
     * The offset message id of a record, from the store host as a pulled record carries it.
     *
     * @param storeAddress the store host's 4 or 16 address bytes
     * @param storePort the store host's port
     * @param position the record's CommitLog position
     */
    public static String offsetMsgId(byte[] storeAddress, int storePort, long position) {
        byte[] out = new byte[(storeAddress.length + Integer.BYTES + Long.BYTES) * 2];
        int at = writeHex(storeAddress, out, 0);
        at = writeHex(storePort, Integer.BYTES, out, at);
        writeHex(position, Long.BYTES, out, at);
        return new String(out, StandardCharsets.US_ASCII);
    }

    /** Writes {@code bytes} as upper-case hex into {@code out} from {@code at}; returns the index after it. */
    public static int writeHex(byte[] bytes, byte[] out, int at) {
        for (byte b : bytes) {
            out[at++] = HEX[(b >> 4) & 0xF];
            out[at++] = HEX[b & 0xF];
        }
        return at;
    }

    /** Writes the low {@code byteCount} bytes of {@code value}, most significant first, as upper-case hex. */
    public static int writeHex(long value, int byteCount, byte[] out, int at) {
        for (int shift = (byteCount - 1) * 8; shift >= 0; shift -= 8) {
            int b = (int) (value >>> shift);
            out[at++] = HEX[(b >> 4) & 0xF];
            out[at++] = HEX[b & 0xF];
        }
        return at;
    }

    /** Comma-joined offset message ids of {@code positions}, in order. */
    public static String joinOffsetMsgIds(byte[] hostBytes, long[] positions) {
        StringBuilder sb = new StringBuilder(positions.length * ((hostBytes.length + Long.BYTES) * 2 + 1));
        for (int i = 0; i < positions.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(offsetMsgId(hostBytes, positions[i]));
        }
        return sb.toString();
    }
}
