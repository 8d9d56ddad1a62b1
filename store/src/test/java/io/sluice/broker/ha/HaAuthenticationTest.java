package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class HaAuthenticationTest {

    private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);
    private final HaAuthentication master = HaAuthentication.requiring(
            key -> Optional.ofNullable(Map.of("inner", "inner-secret").get(key)), nowMs::get);

    @Test
    void aHelloSignedByAKnownUserIsAcceptedOnceAndItsReplayIsRefused() throws IOException {
        SlaveHello hello = roundTrip(signed(hello(7, "inner"), "inner-secret"));
        assertEquals(Optional.empty(), master.refusalOf(hello));
        nowMs.addAndGet(1_000);
        assertTrue(master.refusalOf(hello).orElseThrow().contains("a replay"), "the same nonce again");
        nowMs.addAndGet(HaAuthentication.MAX_SKEW_MS);
        assertTrue(master.refusalOf(hello).orElseThrow().contains("timestamp"), "too old once the nonce is gone");
    }

    @Test
    void unsignedUnknownWrongAndTamperedHellosAreRefused() throws IOException {
        assertTrue(master.refusalOf(roundTrip(hello(1, ""))).orElseThrow().contains("no credentials"));
        assertTrue(master.refusalOf(roundTrip(signed(hello(2, "stranger"), "inner-secret"))).orElseThrow()
                .contains("not allowed"));
        assertTrue(master.refusalOf(roundTrip(signed(hello(3, "inner"), "guess"))).orElseThrow()
                .contains("does not match"));
        SlaveHello genuine = signed(hello(4, "inner"), "inner-secret");
        SlaveHello moved = new SlaveHello(genuine.slaveId(), genuine.position() + 100, genuine.epochs(),
                genuine.timestampMs(), genuine.nonce(), genuine.accessKey(), genuine.signature());
        assertTrue(master.refusalOf(roundTrip(moved)).orElseThrow().contains("does not match"),
                "a position changed after signing");
        SlaveHello future = signed(new SlaveHello(5, 0, List.of(), nowMs.get() + HaAuthentication.MAX_SKEW_MS + 1,
                5, "inner", new byte[0]), "inner-secret");
        assertTrue(master.refusalOf(roundTrip(future)).orElseThrow().contains("timestamp"));
    }

    @Test
    void withAuthenticationOffEveryHelloIsAccepted() throws IOException {
        assertFalse(HaAuthentication.OFF.required());
        assertEquals(Optional.empty(), HaAuthentication.OFF.refusalOf(roundTrip(hello(1, ""))));
        assertEquals(Optional.empty(), HaAuthentication.OFF.refusalOf(
                roundTrip(signed(hello(2, "inner"), "any"))));
    }

    @Test
    void theHelloAndTheRefusalRoundTripAndBadLengthsAreRefused() throws IOException {
        SlaveHello original = signed(new SlaveHello(3, 4096, List.of(new EpochEntry(1, 0), new EpochEntry(2, 2048)),
                nowMs.get(), 42, "inner", new byte[0]), "inner-secret");
        SlaveHello read = roundTrip(original);
        assertEquals(original.epochs(), read.epochs());
        assertEquals(original.position(), read.position());
        assertEquals("inner", read.accessKey());
        assertArrayEquals(original.signature(), read.signature());

        ByteBuffer refusal = HaFrameDescriptor.refusal("x".repeat(5000));
        DataInputStream in = stream(refusal);
        assertEquals(HaFrameDescriptor.REFUSAL_MAGIC, in.readInt());
        assertEquals(HaFrameDescriptor.MAX_REASON_BYTES, HaFrameDescriptor.readRefusalReason(in).length());

        ByteBuffer tooLong = ByteBuffer.allocate(64);
        tooLong.putLong(1).putLong(0).putInt(0).putLong(0).putLong(0).putShort((short) 300);
        assertThrows(ProtocolException.class, () -> HaFrameDescriptor.readHello(stream(tooLong.flip())));
        assertThrows(IllegalArgumentException.class,
                () -> HaFrameDescriptor.helloUnsigned(hello(1, "k".repeat(300))));
    }

    private SlaveHello hello(long slaveId, String accessKey) {
        return new SlaveHello(slaveId, 1024, List.of(), nowMs.get(), slaveId * 31, accessKey, new byte[0]);
    }

    private static SlaveHello signed(SlaveHello hello, String secret) {
        return hello.withSignature(HaAuthentication.sign(hello, secret));
    }

    /** The hello as the master reads it from the wire. */
    private static SlaveHello roundTrip(SlaveHello hello) throws IOException {
        DataInputStream in = stream(HaFrameDescriptor.hello(hello));
        assertEquals(HaFrameDescriptor.HELLO_MAGIC, in.readInt());
        SlaveHello read = HaFrameDescriptor.readHello(in);
        assertEquals(-1, in.read(), "nothing left over");
        return read;
    }

    private static DataInputStream stream(ByteBuffer frame) {
        return new DataInputStream(new ByteArrayInputStream(Arrays.copyOfRange(frame.array(), frame.position(),
                frame.limit())));
    }
}
