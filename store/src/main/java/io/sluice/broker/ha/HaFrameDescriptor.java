package io.sluice.broker.ha;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The HA channel's wire layout, between a master's {@code haListenPort} and a slave. All integers big-endian.
 *
 * <pre>
 * slave hello (slave -> master), 24 + 12 * epochCount bytes; opens the channel:
 *   +-----------------+----------------+------------------+------------------+---------------------------+
 *   | magic (int32)   | slaveId (int64)| position (int64) | epochCount       | epochCount entries:       |
 *   | 0x534C4849 SLHI | the slave's    | end of the       | (int32), 0 to    | epoch (int32),            |
 *   |                 | brokerId       | slave's CommitLog| MAX_EPOCHS       | startPosition (int64),    |
 *   |                 |                |                  |                  | oldest first              |
 *   +-----------------+----------------+------------------+------------------+---------------------------+
 *
 * master answer (master -> slave), 16 + 12 * epochCount bytes; answers the hello:
 *   +-----------------+---------------------------------------+------------------+-----------------------+
 *   | magic (int32)   | position (int64): where the slave's   | epochCount       | the master's epochs,  |
 *   | 0x534C4841 SLHA | log must end to follow this master.   | (int32)          | as in the hello       |
 *   |                 | Its own end: transfers follow from    |                  |                       |
 *   |                 | there. Below it: the slave cuts its   |                  |                       |
 *   |                 | log there first; the master closes    |                  |                       |
 *   +-----------------+---------------------------------------+------------------+-----------------------+
 *
 * slave report (slave -> master), 12 bytes; one after every transfer the slave has stored and after every
 * heartbeat:
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
 * The answer's position is where the two epoch histories stop agreeing ({@link EpochFile#truncationPoint}); when
 * the master keeps no history (master/slave without a controller) it is the slave's end. A master refuses (logs
 * and closes) a channel that does not open with a hello (or with more than {@link #MAX_EPOCHS} epochs), whose
 * follow position lies beyond the master's end or before its oldest data, or whose later reports go backwards or
 * beyond what was sent. A slave closes a channel
 * whose transfer has a bad magic, a position other than its end, or a body larger than {@link #MAX_BODY_BYTES}.
 *
 * <p>Stateless; thread-safe.
 */
final class HaFrameDescriptor {

    /** "SLRP": a slave report. */
    static final int REPORT_MAGIC = 0x534C5250;
    /** "SLHI": a slave hello. */
    static final int HELLO_MAGIC = 0x534C4849;
    /** "SLHA": a master's answer to a hello. */
    static final int ANSWER_MAGIC = 0x534C4841;
    /** "SLTX": a master transfer. */
    static final int TRANSFER_MAGIC = 0x534C5458;
    static final int REPORT_BYTES = Integer.BYTES + Long.BYTES;
    static final int TRANSFER_HEADER_BYTES = Integer.BYTES + Long.BYTES + Integer.BYTES;
    static final int MAGIC_OFFSET = 0;
    static final int POSITION_OFFSET = 4;
    static final int BODY_SIZE_OFFSET = 12;
    static final int EPOCH_ENTRY_BYTES = Integer.BYTES + Long.BYTES;
    /** Most epochs a hello or answer may carry: far above any real history, bounding what a peer makes us read. */
    static final int MAX_EPOCHS = 1 << 16;
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

    /** The hello of slave {@code slaveId} whose log ends at {@code position}, ready to send. */
    static ByteBuffer hello(long slaveId, long position, List<EpochEntry> epochs) {
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + 2 * Long.BYTES + Integer.BYTES
                + epochs.size() * EPOCH_ENTRY_BYTES);
        frame.putInt(HELLO_MAGIC).putLong(slaveId).putLong(position);
        putEpochs(frame, epochs);
        return frame.flip();
    }

    /** The answer telling a slave to end its log at {@code position}, with the master's epochs, ready to send. */
    static ByteBuffer answer(long position, List<EpochEntry> epochs) {
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + Long.BYTES + Integer.BYTES
                + epochs.size() * EPOCH_ENTRY_BYTES);
        frame.putInt(ANSWER_MAGIC).putLong(position);
        putEpochs(frame, epochs);
        return frame.flip();
    }

    private static void putEpochs(ByteBuffer frame, List<EpochEntry> epochs) {
        frame.putInt(epochs.size());
        for (EpochEntry entry : epochs) {
            frame.putInt(entry.epoch()).putLong(entry.startPosition());
        }
    }

    /**
     * Reads an epoch count and that many epochs.
     *
     * @throws ProtocolException when the count is negative or above {@link #MAX_EPOCHS}
     * @throws IOException       when the stream ends or fails
     */
    static List<EpochEntry> readEpochs(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > MAX_EPOCHS) {
            throw new ProtocolException("an epoch count of " + count + " (0 to " + MAX_EPOCHS + " allowed)");
        }
        List<EpochEntry> epochs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            epochs.add(new EpochEntry(in.readInt(), in.readLong()));
        }
        return epochs;
    }

    /** Writes a transfer header into {@code frame} (cleared first), ready to send. */
    static ByteBuffer transferHeader(ByteBuffer frame, long position, int bodySizeBytes) {
        frame.clear();
        frame.putInt(TRANSFER_MAGIC).putLong(position).putInt(bodySizeBytes);
        return frame.flip();
    }
}
