package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every HA frame the master or the slave writes is read back by the other side as written, its length is the one
 * the layout states, and a count or length outside its bounds is refused before anything is allocated for it.
 */
class HaFrameDescriptorPropertyTest {

    @Property(tries = 300)
    void aHelloReadsBackAsWritten(@ForAll long slaveId, @ForAll long position,
                                  @ForAll @Size(max = 20) List<@IntRange(min = 0) Integer> epochNumbers,
                                  @ForAll long timestampMs, @ForAll long nonce,
                                  @ForAll @StringLength(max = 40) String accessKey) throws IOException {
        List<EpochEntry> epochs = epochs(epochNumbers);
        byte[] key = accessKey.getBytes(StandardCharsets.UTF_8);
        if (key.length > HaFrameDescriptor.MAX_KEY_BYTES) {
            return;
        }
        byte[] signature = new byte[accessKey.isEmpty() ? 0 : HaFrameDescriptor.SIGNATURE_BYTES];
        for (int i = 0; i < signature.length; i++) {
            signature[i] = (byte) (nonce >>> i);
        }
        SlaveHello written = new SlaveHello(slaveId, position, epochs, timestampMs, nonce, accessKey, signature);

        ByteBuffer frame = HaFrameDescriptor.hello(written);
        int expectedBytes = 42 + 12 * epochs.size() + key.length + signature.length;
        assertEquals(expectedBytes, frame.remaining(), "the layout's length");

        DataInputStream in = streamOf(frame);
        assertEquals(HaFrameDescriptor.HELLO_MAGIC, in.readInt());
        SlaveHello read = HaFrameDescriptor.readHello(in);
        assertEquals(slaveId, read.slaveId());
        assertEquals(position, read.position());
        assertEquals(epochs, read.epochs());
        assertEquals(timestampMs, read.timestampMs());
        assertEquals(nonce, read.nonce());
        assertEquals(accessKey, read.accessKey());
        assertArrayEquals(signature, read.signature());
        assertEquals(!accessKey.isEmpty(), read.signed());
        assertEquals(-1, in.read(), "nothing after the hello");
    }

    @Property(tries = 200)
    void theUnsignedPartIsTheHelloWithoutItsSignature(@ForAll long slaveId,
                                                      @ForAll @StringLength(min = 1, max = 30) @AlphaChars
                                                      String accessKey) {
        byte[] signature = new byte[HaFrameDescriptor.SIGNATURE_BYTES];
        signature[0] = 7;
        SlaveHello hello = new SlaveHello(slaveId, 4096, List.of(new EpochEntry(1, 0)), 1L, 2L, accessKey, signature);
        ByteBuffer unsigned = HaFrameDescriptor.helloUnsigned(hello);
        ByteBuffer whole = HaFrameDescriptor.hello(hello);
        assertEquals(whole.remaining() - HaFrameDescriptor.SIGNATURE_BYTES, unsigned.remaining());
        for (int i = 0; i < unsigned.remaining(); i++) {
            assertEquals(unsigned.get(i), whole.get(i), "byte " + i);
        }
        assertEquals(7, whole.get(unsigned.remaining()), "the signature follows the signed bytes");
    }

    @Property(tries = 200)
    void anAnswerCarriesThePositionAndTheMastersEpochs(@ForAll long position,
                                                       @ForAll @Size(max = 30) List<@IntRange(min = 0) Integer>
                                                               epochNumbers) throws IOException {
        List<EpochEntry> epochs = epochs(epochNumbers);
        ByteBuffer frame = HaFrameDescriptor.answer(position, epochs);
        assertEquals(16 + 12 * epochs.size(), frame.remaining());
        DataInputStream in = streamOf(frame);
        assertEquals(HaFrameDescriptor.ANSWER_MAGIC, in.readInt());
        assertEquals(position, in.readLong());
        assertEquals(epochs, HaFrameDescriptor.readEpochs(in));
        assertEquals(-1, in.read());
    }

    @Property(tries = 200)
    void aRefusalCarriesItsReasonCutToTheLimit(@ForAll @StringLength(max = 1500) @AlphaChars String reason)
            throws IOException {
        ByteBuffer frame = HaFrameDescriptor.refusal(reason);
        int kept = Math.min(reason.length(), HaFrameDescriptor.MAX_REASON_BYTES);
        assertEquals(8 + kept, frame.remaining());
        DataInputStream in = streamOf(frame);
        assertEquals(HaFrameDescriptor.REFUSAL_MAGIC, in.readInt());
        assertEquals(reason.substring(0, kept), HaFrameDescriptor.readRefusalReason(in));
    }

    @Property(tries = 200)
    void reportsAndTransferHeadersReuseTheirBuffer(@ForAll long first, @ForAll long second,
                                                   @ForAll @IntRange(min = 0) int bodySizeBytes) {
        ByteBuffer report = ByteBuffer.allocate(HaFrameDescriptor.REPORT_BYTES);
        HaFrameDescriptor.report(report, first);
        report.position(report.limit());
        ByteBuffer again = HaFrameDescriptor.report(report, second);
        assertEquals(HaFrameDescriptor.REPORT_BYTES, again.remaining(), "cleared before it is written again");
        assertEquals(HaFrameDescriptor.REPORT_MAGIC, again.getInt(HaFrameDescriptor.MAGIC_OFFSET));
        assertEquals(second, again.getLong(HaFrameDescriptor.POSITION_OFFSET));

        ByteBuffer header = ByteBuffer.allocate(HaFrameDescriptor.TRANSFER_HEADER_BYTES);
        HaFrameDescriptor.transferHeader(header, first, 1);
        ByteBuffer next = HaFrameDescriptor.transferHeader(header, second, bodySizeBytes);
        assertEquals(HaFrameDescriptor.TRANSFER_HEADER_BYTES, next.remaining());
        assertEquals(HaFrameDescriptor.TRANSFER_MAGIC, next.getInt(HaFrameDescriptor.MAGIC_OFFSET));
        assertEquals(second, next.getLong(HaFrameDescriptor.POSITION_OFFSET));
        assertEquals(bodySizeBytes, next.getInt(HaFrameDescriptor.BODY_SIZE_OFFSET));
    }

    @Test
    @Timeout(10)
    void anAccessKeyOverTheLimitIsRefusedWhenWritten() {
        String key = "k".repeat(HaFrameDescriptor.MAX_KEY_BYTES + 1);
        SlaveHello hello = new SlaveHello(1, 0, List.of(), 0, 0, key, new byte[HaFrameDescriptor.SIGNATURE_BYTES]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HaFrameDescriptor.helloUnsigned(hello));
        assertEquals("an access key of 256 bytes (at most 255)", e.getMessage());
        String atLimit = "k".repeat(HaFrameDescriptor.MAX_KEY_BYTES);
        SlaveHello fits = new SlaveHello(1, 0, List.of(), 0, 0, atLimit, new byte[HaFrameDescriptor.SIGNATURE_BYTES]);
        assertEquals(42 + 255 + 20, HaFrameDescriptor.hello(fits).remaining());
    }

    @Test
    @Timeout(10)
    void anAccessKeyLengthOverTheLimitIsRefusedWhenRead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(3);
        out.writeLong(0);
        out.writeInt(0);
        out.writeLong(0);
        out.writeLong(0);
        out.writeShort(HaFrameDescriptor.MAX_KEY_BYTES + 1);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        ProtocolException e = assertThrows(ProtocolException.class, () -> HaFrameDescriptor.readHello(in));
        assertEquals("an access key of 256 bytes (0 to 255)", e.getMessage());
    }

    @Test
    @Timeout(10)
    void epochCountsOutsideTheirBoundsAreRefused() throws IOException {
        for (int count : new int[] {-1, Integer.MIN_VALUE, HaFrameDescriptor.MAX_EPOCHS + 1, Integer.MAX_VALUE}) {
            DataInputStream in = streamOf(ByteBuffer.allocate(4).putInt(0, count));
            ProtocolException e = assertThrows(ProtocolException.class, () -> HaFrameDescriptor.readEpochs(in));
            assertEquals("an epoch count of " + count + " (0 to 65536 allowed)", e.getMessage());
        }
        DataInputStream truncated = streamOf(ByteBuffer.allocate(4 + 12).putInt(0, 2));
        assertThrows(EOFException.class, () -> HaFrameDescriptor.readEpochs(truncated),
                "a count promising more entries than the stream holds ends the read");
    }

    @Test
    @Timeout(10)
    void refusalLengthsOutsideTheirBoundsAreRefused() throws IOException {
        for (int length : new int[] {-1, HaFrameDescriptor.MAX_REASON_BYTES + 1}) {
            DataInputStream in = streamOf(ByteBuffer.allocate(4).putInt(0, length));
            assertThrows(ProtocolException.class, () -> HaFrameDescriptor.readRefusalReason(in));
        }
        DataInputStream empty = streamOf(HaFrameDescriptor.refusal(""));
        assertEquals(HaFrameDescriptor.REFUSAL_MAGIC, empty.readInt());
        assertEquals("", HaFrameDescriptor.readRefusalReason(empty));
    }

    @Test
    @Timeout(10)
    void theMagicsSpellTheirNamesAndPlainHelloIsNotTls() {
        assertEquals("SLHI", ascii(HaFrameDescriptor.HELLO_MAGIC));
        assertEquals("SLHA", ascii(HaFrameDescriptor.ANSWER_MAGIC));
        assertEquals("SLRP", ascii(HaFrameDescriptor.REPORT_MAGIC));
        assertEquals("SLTX", ascii(HaFrameDescriptor.TRANSFER_MAGIC));
        assertEquals("SLNO", ascii(HaFrameDescriptor.REFUSAL_MAGIC));
        SlaveHello hello = new SlaveHello(1, 0, List.of(), 0, 0, "", new byte[0]);
        int firstByte = HaFrameDescriptor.hello(hello).get(0) & 0xFF;
        assertEquals(0x53, firstByte);
        assertEquals(false, firstByte == HaFrameDescriptor.TLS_HANDSHAKE, "a plain hello never looks like TLS");
    }

    private static List<EpochEntry> epochs(List<Integer> numbers) {
        List<EpochEntry> epochs = new ArrayList<>();
        long start = 0;
        for (int n : numbers) {
            start += n;
            epochs.add(new EpochEntry(n, start));
        }
        return epochs;
    }

    private static DataInputStream streamOf(ByteBuffer frame) {
        ByteBuffer copy = frame.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    private static String ascii(int magic) {
        return new String(ByteBuffer.allocate(4).putInt(magic).array(), StandardCharsets.US_ASCII);
    }
}
