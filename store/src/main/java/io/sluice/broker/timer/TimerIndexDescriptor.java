package io.sluice.broker.timer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The on-disk layout of the timer index (a RocksDB database of its own, {@code <storePathRootDir>/timer/index}).
 *
 * <pre>
 * column family "timers": one entry per pending timer message, value empty
 *   key (16 bytes, big-endian, so byte order = time order):
 *   +----------------------------+----------------------------+
 *   | deliverMs (int64)          | position (int64)           |
 *   | epoch ms the message is    | CommitLog position of the  |
 *   | due                        | record in rmq_sys_wheel_timer |
 *   +----------------------------+----------------------------+
 *
 * column family "default": progress, each value an int64 big-endian
 *   "format"          format version ({@value #FORMAT_VERSION})
 *   "ingestedOffset"  next rmq_sys_wheel_timer queue offset to index; written in the same batch as the keys
 *                     it adds, so the keys and the offset never disagree after a crash
 *   "pendingCount"    number of keys in "timers"; updated in the batch that adds or removes keys
 * </pre>
 * Delivery times are non-negative (epoch ms), so the signed values sort as unsigned bytes. Stateless; thread-safe.
 */
final class TimerIndexDescriptor {

    /** Column family of the pending keys. */
    static final String CF_TIMERS = "timers";
    /** RocksDB's default column family: the progress values. */
    static final String CF_DEFAULT = "default";
    static final byte[] FORMAT_KEY = ascii("format");
    static final byte[] INGESTED_OFFSET_KEY = ascii("ingestedOffset");
    static final byte[] PENDING_COUNT_KEY = ascii("pendingCount");
    static final int FORMAT_VERSION = 1;
    static final int KEY_BYTES = 2 * Long.BYTES;
    static final byte[] EMPTY_VALUE = new byte[0];

    private TimerIndexDescriptor() {
    }

    /** The key of the timer due at {@code deliverMs} whose record starts at {@code position}. */
    static byte[] key(long deliverMs, long position) {
        if (deliverMs < 0 || position < 0) {
            throw new IllegalArgumentException("deliverMs " + deliverMs + " and position " + position
                    + " must be >= 0");
        }
        return ByteBuffer.allocate(KEY_BYTES).order(ByteOrder.BIG_ENDIAN).putLong(deliverMs).putLong(position)
                .array();
    }

    /** The delivery time of a key. */
    static long deliverMs(byte[] key) {
        return decodeLong(key, 0);
    }

    /** The CommitLog position of a key. */
    static long position(byte[] key) {
        return decodeLong(key, Long.BYTES);
    }

    static byte[] encodeLong(long value) {
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.BIG_ENDIAN).putLong(value).array();
    }

    static long decodeLong(byte[] bytes, int at) {
        if (bytes.length < at + Long.BYTES) {
            throw new IllegalArgumentException("a timer index value of " + bytes.length + " bytes holds no int64 at "
                    + at);
        }
        return ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN).getLong(at);
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
