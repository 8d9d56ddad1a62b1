package io.sluice.broker.ha;

import static io.sluice.broker.ha.LoopbackPairs.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsMode;
import java.io.DataInputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a master's HA port opens a connection in each {@code tls.server.mode}, and a slave's side: the first byte
 * tells TLS from plain (and is not lost to the plain reader), enforcing marks a plain slave for refusal, disabled
 * does not look, and a TLS slave cannot open a session with a plain port.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HaTlsTest {

    private final LoopbackPairs pairs = new LoopbackPairs();

    @AfterEach
    void closeAll() throws Exception {
        pairs.close();
    }

    private static HaTls master(TlsMode mode) throws URISyntaxException {
        return HaTls.of(mode == TlsMode.DISABLED ? ServerTls.disabled()
                : ServerTls.of(mode, resource("server.crt"), resource("server.key")), ClientTls.disabled());
    }

    private static HaTls slave(boolean tls) throws URISyntaxException {
        return HaTls.of(ServerTls.disabled(), tls ? ClientTls.trusting(resource("server.crt")) : ClientTls.disabled());
    }

    /** One connection: the master's end, opening (it reads the slave's first byte), and the slave's, open. */
    private record Ends(Future<HaConnection> master, HaConnection slave) {
    }

    private Ends open(HaTls master, HaTls slave) throws Exception {
        SocketChannel[] sockets = pairs.sockets();
        Future<HaConnection> accepted = pairs.submit(() -> master.accept(sockets[0], "slave"));
        return new Ends(accepted, slave.connect(sockets[1], "master"));
    }

    /** What the master's end read of the hello. */
    private record Read(HaConnection master, int magic, long value) {
    }

    /** The slave says hello (its magic and a number); returns the master's opened end and what it read. */
    private static Read helloThrough(Ends ends) throws Exception {
        ByteBuffer hello = ByteBuffer.allocate(12).putInt(HaFrameDescriptor.HELLO_MAGIC).putLong(42).flip();
        while (hello.hasRemaining()) {
            ends.slave().out().write(hello);
        }
        HaConnection master = ends.master().get(10, TimeUnit.SECONDS);
        DataInputStream in = new DataInputStream(master.in());
        return new Read(master, in.readInt(), in.readLong());
    }

    @Test
    void aPermissivePortServesATlsSlaveUnderTls() throws Exception {
        Ends ends = open(master(TlsMode.PERMISSIVE), slave(true));
        Read read = helloThrough(ends);
        assertTrue(read.master().encrypted() && ends.slave().encrypted(), read.master().security());
        assertEquals("", read.master().refusal());
        assertEquals(HaFrameDescriptor.HELLO_MAGIC, read.magic());
        assertEquals(42, read.value());
    }

    @Test
    void aPermissivePortServesAPlainSlaveWithItsFirstByteIntact() throws Exception {
        Read read = helloThrough(open(master(TlsMode.PERMISSIVE), slave(false)));
        assertFalse(read.master().encrypted());
        assertEquals("", read.master().refusal());
        assertEquals(HaFrameDescriptor.HELLO_MAGIC, read.magic(), "the peeked byte is read again");
        assertEquals(42, read.value());
    }

    @Test
    void anEnforcingPortMarksAPlainSlaveForRefusalAfterItsHello() throws Exception {
        Read read = helloThrough(open(master(TlsMode.ENFORCING), slave(false)));
        assertTrue(read.master().refusal().contains("tls.enable=true"), read.master().refusal());
        assertEquals(42, read.value(), "the hello is still read, so the refusal reaches the slave");
    }

    @Test
    void aDisabledPortIsPlainAndATlsSlaveFailsOnIt() throws Exception {
        Read plain = helloThrough(open(master(TlsMode.DISABLED), slave(false)));
        assertFalse(plain.master().encrypted());
        assertEquals(42, plain.value());

        SocketChannel[] sockets = pairs.sockets();
        HaConnection masterEnd = master(TlsMode.DISABLED).accept(sockets[0], "slave");
        Future<Integer> masterReads = pairs.submit(() -> {
            // What a plain master does: reads a magic (here the TLS record's first four bytes), refuses, closes.
            int magic = new DataInputStream(masterEnd.in()).readInt();
            sockets[0].close();
            return magic;
        });
        SSLException failure = assertThrows(SSLException.class, () -> slave(true).connect(sockets[1], "master"));
        assertTrue(failure.getMessage().contains("tls.server.mode"), failure.getMessage());
        assertEquals(HaFrameDescriptor.TLS_HANDSHAKE, masterReads.get(10, TimeUnit.SECONDS) >>> 24,
                "the master saw a TLS handshake where a hello starts");
    }
}
