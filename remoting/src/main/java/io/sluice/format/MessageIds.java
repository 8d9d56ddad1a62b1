package io.sluice.format;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Offset message ids: uppercase hex of {@code storeHost address (4|16 bytes) + port (int) + position (long)},
 * 32 characters for IPv4 and 56 for IPv6, e.g. {@code 7F00000100002A9F00000000000009CF} = 127.0.0.1:10911 at
 * position 2511. The Apache client derives the same id from a pulled record, and admin tools decode it to find
 * the broker and the record.
 *
 * <p>Stateless; thread-safe.
 */
public final class MessageIds {

    /** Hex length of an IPv4 offset message id. */
    public static final int IPV4_ID_LENGTH = 32;
    /** Hex length of an IPv6 offset message id. */
    public static final int IPV6_ID_LENGTH = 56;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private MessageIds() {
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
        char[] out = new char[(hostBytes.length + Long.BYTES) * 2];
        int at = 0;
        for (byte b : hostBytes) {
            out[at++] = HEX[(b >> 4) & 0xF];
            out[at++] = HEX[b & 0xF];
        }
        for (int shift = 60; shift >= 0; shift -= 4) {
            out[at++] = HEX[(int) (position >>> shift) & 0xF];
        }
        return new String(out);
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
