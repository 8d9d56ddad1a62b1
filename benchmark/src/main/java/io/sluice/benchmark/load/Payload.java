package io.sluice.benchmark.load;

import java.util.Arrays;

/**
 * The message body of a run: one array of filler bytes that every send of the run passes, as OMB sends one
 * payload read from its payload file. Nothing travels in the body: end-to-end latency is measured from the
 * client's born timestamp of each message (OMB's way), so no send allocates or writes a body. Stateless.
 */
final class Payload {

    private Payload() {
    }

    /** A body of {@code sizeBytes} filler bytes ('x'), to be shared by every send and never written again. */
    static byte[] filler(int sizeBytes) {
        byte[] body = new byte[sizeBytes];
        Arrays.fill(body, (byte) 'x');
        return body;
    }
}
