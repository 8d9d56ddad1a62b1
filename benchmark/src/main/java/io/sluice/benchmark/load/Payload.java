package io.sluice.benchmark.load;

import java.util.Arrays;

/**
 * Message bodies of the harness. Layout (big-endian):
 * <pre>
 *   0        8                                  size
 *   +--------+----------------------------------+
 *   | intend | filler ('x')                     |
 *   +--------+----------------------------------+
 *   intend: System.nanoTime() of the message's intended send time in the harness JVM
 * </pre>
 * Producers and consumers run in the same JVM, so the consumer's {@code nanoTime() - intend} is the end-to-end
 * latency measured from the intended send time. Stateless.
 */
final class Payload {

    /** Bytes of the header. */
    static final int HEADER_BYTES = 8;

    private Payload() {
    }

    /** A new body of {@code sizeBytes} carrying {@code intendedNanos}. */
    static byte[] create(int sizeBytes, long intendedNanos) {
        byte[] body = new byte[sizeBytes];
        Arrays.fill(body, HEADER_BYTES, sizeBytes, (byte) 'x');
        for (int i = 0; i < HEADER_BYTES; i++) {
            body[i] = (byte) (intendedNanos >>> (56 - 8 * i));
        }
        return body;
    }

    /** The intended send time in a body made by {@link #create}, or {@code Long.MIN_VALUE} if it is too short. */
    static long intendedNanos(byte[] body) {
        if (body.length < HEADER_BYTES) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (int i = 0; i < HEADER_BYTES; i++) {
            value = value << 8 | (body[i] & 0xFF);
        }
        return value;
    }
}
