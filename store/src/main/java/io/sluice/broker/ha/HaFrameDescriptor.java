package io.sluice.broker.ha;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The HA channel's wire layout, between a master's {@code haListenPort} and a slave. All integers big-endian.
 *
 * <pre>
 * slave hello (slave -> master), 42 + 12 * epochCount + keyBytes (+ 20 when signed) bytes; opens the channel:
 *   +-----------------+----------------+------------------+------------------+---------------------------+
 *   | magic (int32)   | slaveId (int64)| position (int64) | epochCount       | epochCount entries:       |
 *   | 0x534C4849 SLHI | the slave's    | end of the       | (int32), 0 to    | epoch (int32),            |
 *   |                 | brokerId       | slave's CommitLog| MAX_EPOCHS       | startPosition (int64),    |
 *   |                 |                |                  |                  | oldest first              |
 *   +-----------------+----------------+------------------+------------------+---------------------------+
 *   then its credentials:
 *   +------------------+------------------+------------------+-------------------+-------------------------+
 *   | timestampMs      | nonce (int64)    | keyBytes (int16) | accessKey         | signature (20 bytes,    |
 *   | (int64): the     | random, once per | 0 = unsigned, up | (keyBytes, UTF-8) | only when keyBytes > 0):|
 *   | slave's clock    | hello            | to MAX_KEY_BYTES |                   | HMAC-SHA1 under the     |
 *   |                  |                  |                  |                   | user's secret of every  |
 *   |                  |                  |                  |                   | byte before it          |
 *   +------------------+------------------+------------------+-------------------+-------------------------+
 *
 * master refusal (master -> slave), 8 + reasonBytes bytes; instead of an answer, then the master closes:
 *   +-----------------+---------------------------+---------------------------------+
 *   | magic (int32)   | reasonBytes (int32), 0 to | reason (UTF-8): why the hello   |
 *   | 0x534C4E4F SLNO | MAX_REASON_BYTES          | was refused, for the slave's log|
 *   +-----------------+---------------------------+---------------------------------+
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
 * A master with {@code authenticationEnabled} accepts only a hello signed by a known user (with
 * {@code authorizationEnabled}, a super user) whose timestamp lies within {@link HaAuthentication#MAX_SKEW_MS}
 * of its clock and whose nonce it has not seen in that time, so a recorded hello cannot be replayed; the MAC
 * covers the slave's id, position and epochs, so none of them can be changed either.
 *
 * <p>The answer's position is where the two epoch histories stop agreeing ({@link EpochFile#truncationPoint}); when
 * the master keeps no history (master/slave without a controller) it is the slave's end. A master refuses (logs
 * and closes) a channel that does not open with a hello (or with more than {@link #MAX_EPOCHS} epochs), whose
 * follow position lies beyond the master's end or before its oldest data, or whose later reports go backwards or
 * beyond what was sent. A slave closes a channel
 * whose transfer has a bad magic, a position other than its end, or a body larger than {@link #MAX_BODY_BYTES}.
 *
 * <p>Under TLS ({@link HaTls}) the same frames run inside the TLS session. A master whose {@code tls.server.mode}
 * is permissive or enforcing reads a connection's first byte before anything else:
 * <pre>
 *   +------------------+-------------------------------------------------------------------------------+
 *   | first byte       | the connection                                                                |
 *   +------------------+-------------------------------------------------------------------------------+
 *   | 0x16             | a TLS handshake record (content type 22): TLS, the hello follows inside it    |
 *   | anything else    | plain: the byte is the hello's first (0x53 of SLHI); enforcing refuses it     |
 *   |                  | after reading the hello, with a plain refusal                                 |
 *   +------------------+-------------------------------------------------------------------------------+
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class HaFrameDescriptor {

    /** The first byte of a TLS handshake record (content type 22), as a TLS client's first byte. */
    static final int TLS_HANDSHAKE = 0x16;

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
    /** "SLNO": a master's refusal of a hello. */
    static final int REFUSAL_MAGIC = 0x534C4E4F;
    /** Longest access key in a hello, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 255;
    /** The length of a hello's HMAC-SHA1 signature. */
    static final int SIGNATURE_BYTES = 20;
    /** Longest reason in a refusal, in UTF-8 bytes. */
    static final int MAX_REASON_BYTES = 1024;

    private HaFrameDescriptor() {
    }

    /** Writes a report of {@code position} into {@code frame} (cleared first), ready to send. */
    static ByteBuffer report(ByteBuffer frame, long position) {
        frame.clear();
        frame.putInt(REPORT_MAGIC).putLong(position);
        return frame.flip();
    }

    /**
     * The bytes of a hello up to its signature (all of an unsigned one, whose {@code accessKey} is empty), ready to
     * send or to sign; the array is the buffer's, from 0. Master and slave build the signed bytes with this alone.
     *
     * @throws IllegalArgumentException when the access key is longer than {@link #MAX_KEY_BYTES} in UTF-8
     */
    static ByteBuffer helloUnsigned(SlaveHello hello) {
        byte[] key = hello.accessKey().getBytes(StandardCharsets.UTF_8);
        if (key.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("an access key of " + key.length + " bytes (at most "
                    + MAX_KEY_BYTES + ")");
        }
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + 2 * Long.BYTES + Integer.BYTES
                + hello.epochs().size() * EPOCH_ENTRY_BYTES + 2 * Long.BYTES + Short.BYTES + key.length
                + (key.length > 0 ? SIGNATURE_BYTES : 0));
        frame.putInt(HELLO_MAGIC).putLong(hello.slaveId()).putLong(hello.position());
        putEpochs(frame, hello.epochs());
        frame.putLong(hello.timestampMs()).putLong(hello.nonce()).putShort((short) key.length).put(key);
        return frame.flip();
    }

    /** The whole hello, its signature (none for an unsigned one) after its other bytes, ready to send. */
    static ByteBuffer hello(SlaveHello hello) {
        ByteBuffer unsigned = helloUnsigned(hello);
        ByteBuffer frame = ByteBuffer.wrap(unsigned.array());
        frame.position(unsigned.limit()).put(hello.signature());
        return frame.flip();
    }

    /**
     * Reads a hello after its magic.
     *
     * @throws ProtocolException when a count or length lies outside its bounds
     * @throws IOException       when the stream ends or fails
     */
    static SlaveHello readHello(DataInputStream in) throws IOException {
        long slaveId = in.readLong();
        long position = in.readLong();
        List<EpochEntry> epochs = readEpochs(in);
        long timestampMs = in.readLong();
        long nonce = in.readLong();
        int keyBytes = in.readUnsignedShort();
        if (keyBytes > MAX_KEY_BYTES) {
            throw new ProtocolException("an access key of " + keyBytes + " bytes (0 to " + MAX_KEY_BYTES + ")");
        }
        byte[] key = new byte[keyBytes];
        in.readFully(key);
        byte[] signature = new byte[keyBytes > 0 ? SIGNATURE_BYTES : 0];
        in.readFully(signature);
        return new SlaveHello(slaveId, position, epochs, timestampMs, nonce, new String(key, StandardCharsets.UTF_8),
                signature);
    }

    /** A refusal saying {@code reason} (cut to {@link #MAX_REASON_BYTES}), ready to send. */
    static ByteBuffer refusal(String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, MAX_REASON_BYTES);
        ByteBuffer frame = ByteBuffer.allocate(2 * Integer.BYTES + length);
        frame.putInt(REFUSAL_MAGIC).putInt(length).put(text, 0, length);
        return frame.flip();
    }

    /**
     * Reads a refusal's reason after its magic.
     *
     * @throws ProtocolException when its length lies outside its bounds
     */
    static String readRefusalReason(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_REASON_BYTES) {
            throw new ProtocolException("a refusal reason of " + length + " bytes (0 to " + MAX_REASON_BYTES + ")");
        }
        byte[] text = new byte[length];
        in.readFully(text);
        return new String(text, StandardCharsets.UTF_8);
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
