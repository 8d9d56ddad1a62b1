package io.sluice.broker.ha;

import java.nio.ByteBuffer;

/**
 * The HA channel's wire layout, between a master's {@code haListenPort} and a slave. All integers big-endian.
 *
 * <pre>
 * slave report (slave -> master), 12 bytes; the first one opens the channel, then one after every transfer
 * the slave has stored and after every heartbeat:
 *   +------------------+------------------------------------------+
 *   | magic (int32)    | position (int64)                         |
 *   | 0x534C5250 SLRP  | end of the slave's CommitLog: every byte |
 *   |                  | below it is stored there                 |
 *   +------------------+------------------------------------------+
 *
 * master transfer (master -> slave), 16-byte header + body:
 *   +------------------+------------------+-----------------+---------------------------+
 *   | magic (int32)    | position (int64) | bodySize (int32)| body (bodySize bytes)     |
 *   | 0x534C5458 SLTX  | where the body   | 0 = heartbeat   | whole CommitLog records,  |
 *   |                  | starts in the    | (position = the | byte for byte, within one |
 *   |                  | master's log     | slave's end)    | segment                   |
 *   +------------------+------------------+-----------------+---------------------------+
 * </pre>
 *
 * A master refuses (logs and closes) a channel whose first 12 bytes are not a report, whose first position lies
 * beyond the master's end, or whose later reports go backwards or beyond what was sent. A slave closes a channel
 * whose transfer has a bad magic, a position other than its end, or a body larger than {@link #MAX_BODY_BYTES}.
 *
 * <p>Stateless; thread-safe.
 */
final class HaFrameDescriptor {

    /** "SLRP": a slave report. */
    static final int REPORT_MAGIC = 0x534C5250;
    /** "SLTX": a master transfer. */
    static final int TRANSFER_MAGIC = 0x534C5458;
    static final int REPORT_BYTES = Integer.BYTES + Long.BYTES;
    static final int TRANSFER_HEADER_BYTES = Integer.BYTES + Long.BYTES + Integer.BYTES;
    static final int MAGIC_OFFSET = 0;
    static final int POSITION_OFFSET = 4;
    static final int BODY_SIZE_OFFSET = 12;
    /** Largest body a slave accepts: a chunk of records, or one record up to the largest segment. */
    static final int MAX_BODY_BYTES = 1 << 30;

    private HaFrameDescriptor() {
    }

    /** Writes a report of {@code position} into {@code frame} (cleared first), ready to send. */
    static ByteBuffer report(ByteBuffer frame, long position) {
        frame.clear();
        frame.putInt(REPORT_MAGIC).putLong(position);
        return frame.flip();
    }

    /** Writes a transfer header into {@code frame} (cleared first), ready to send. */
    static ByteBuffer transferHeader(ByteBuffer frame, long position, int bodySizeBytes) {
        frame.clear();
        frame.putInt(TRANSFER_MAGIC).putLong(position).putInt(bodySizeBytes);
        return frame.flip();
    }
}
