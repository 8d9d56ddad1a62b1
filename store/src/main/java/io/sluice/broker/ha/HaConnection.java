package io.sluice.broker.ha;

import java.io.InputStream;
import java.nio.channels.GatheringByteChannel;

/**
 * One end of an opened HA connection, plain or TLS ({@link HaTls}): frames are read from {@code in} (blocking,
 * bounded by the socket's read timeout) and written whole to {@code out}; closing {@code out} closes the connection
 * (after close_notify under TLS).
 *
 * @param in        the peer's bytes, plaintext
 * @param out       to the peer; the socket itself for a plain connection
 * @param security  how the bytes travel, for logs: "plain", or the TLS protocol and cipher suite
 * @param refusal   why the master must refuse this connection once it has read the hello (a plain slave on a port
 *                  that takes TLS only); empty when it may go on
 */
record HaConnection(InputStream in, GatheringByteChannel out, String security, String refusal) {

    /** Whether the connection runs under TLS. */
    boolean encrypted() {
        return !security.equals(PLAIN);
    }

    /** {@link #security} of a plain connection. */
    static final String PLAIN = "plain";
}
