package io.sluice.broker.ha;

import static io.sluice.broker.ha.LoopbackPairs.resource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.transport.ClientTls;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsClientAuth;
import io.sluice.remoting.transport.TlsEngines;
import io.sluice.remoting.transport.TlsMode;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link TlsChannel} over a loopback socket pair, with the test certificates ({@code src/test/resources/tls}): the
 * handshake, transfers far larger than a record in both directions at once, read in fragments of every size,
 * gathering writes from direct and heap buffers, the peer's close_notify and an abrupt end, and handshakes that
 * must fail (an untrusted server, a missing client certificate).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TlsChannelTest {

    private final LoopbackPairs pairs = new LoopbackPairs();

    @AfterEach
    void closeAll() throws Exception {
        pairs.close();
    }

    private static Supplier<SSLEngine> serverEngines(TlsClientAuth auth) throws URISyntaxException {
        ServerTls tls = ServerTls.of(TlsMode.ENFORCING, resource("server.crt"), resource("server.key"));
        return TlsEngines.forServer(auth == TlsClientAuth.NONE ? tls : tls.withClientAuth(auth,
                resource("client.crt")));
    }

    private static Supplier<SSLEngine> clientEngines() throws URISyntaxException {
        return TlsEngines.forClient(ClientTls.trusting(resource("server.crt")));
    }

    /** Two ends of one loopback connection, each a TlsChannel whose handshake has run. */
    private record Pair(TlsChannel server, TlsChannel client, SocketChannel serverSocket, SocketChannel clientSocket) {
    }

    private Pair connect(Supplier<SSLEngine> server, Supplier<SSLEngine> client) throws Exception {
        SocketChannel[] sockets = pairs.sockets();
        TlsChannel serverEnd = channel(server.get(), sockets[0], "client");
        TlsChannel clientEnd = channel(client.get(), sockets[1], "server");
        Future<?> serverHandshake = pairs.submit(() -> {
            serverEnd.handshake();
            return null;
        });
        clientEnd.handshake();
        serverHandshake.get(10, TimeUnit.SECONDS);
        return new Pair(serverEnd, clientEnd, sockets[0], sockets[1]);
    }

    private TlsChannel channel(SSLEngine engine, SocketChannel socket, String peer) throws IOException {
        return pairs.closeLater(new TlsChannel(engine, socket.socket().getInputStream(), socket, socket,
                new byte[0], peer));
    }

    @Test
    void smallFramesCrossBothWays() throws Exception {
        Pair pair = connect(serverEngines(TlsClientAuth.NONE), clientEngines());
        assertTrue(pair.client().describe().startsWith("TLS"), pair.client().describe());
        pair.client().write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        DataInputStream serverIn = new DataInputStream(pair.server().inputStream());
        byte[] three = new byte[3];
        serverIn.readFully(three);
        assertArrayEquals(new byte[] {1, 2, 3}, three);
        pair.server().write(ByteBuffer.allocate(12).putInt(0x534C5250).putLong(42).flip());
        DataInputStream clientIn = new DataInputStream(pair.client().inputStream());
        assertEquals(0x534C5250, clientIn.readInt());
        assertEquals(42, clientIn.readLong());
    }

    @Test
    void largeTransfersInBothDirectionsAtOnceArriveByteForByteInAnyFragments() throws Exception {
        Pair pair = connect(serverEngines(TlsClientAuth.NONE), clientEngines());
        byte[] toClient = random(9 * 1024 * 1024 + 17, 1);
        byte[] toServer = random(3 * 1024 * 1024 + 5, 2);
        Future<byte[]> clientReads = pairs.submit(() -> readInFragments(pair.client().inputStream(),
                toClient.length, 3));
        Future<byte[]> serverReads = pairs.submit(() -> readInFragments(pair.server().inputStream(),
                toServer.length, 4));
        // Gathering writes of a small heap header and a direct body, as the master's transfers are.
        Future<?> serverWrites = pairs.submit(() -> {
            writeGathered(pair.server(), toClient);
            return null;
        });
        writeGathered(pair.client(), toServer);
        serverWrites.get(20, TimeUnit.SECONDS);
        assertArrayEquals(toServer, serverReads.get(20, TimeUnit.SECONDS));
        assertArrayEquals(toClient, clientReads.get(20, TimeUnit.SECONDS));
    }

    @Test
    void aReadIntoALargeBufferTakesWholeRecordsWithoutLoss() throws Exception {
        Pair pair = connect(serverEngines(TlsClientAuth.NONE), clientEngines());
        byte[] data = random(1024 * 1024, 3);
        Future<?> writes = pairs.submit(() -> pair.server().write(ByteBuffer.wrap(data)));
        ByteBuffer into = ByteBuffer.allocate(data.length);
        while (into.hasRemaining()) {
            assertTrue(pair.client().read(into) > 0);
        }
        writes.get(10, TimeUnit.SECONDS);
        assertArrayEquals(data, into.array());
    }

    @Test
    void thePeersCloseNotifyEndsTheStreamAndAnAbruptEndIsAnError() throws Exception {
        Pair pair = connect(serverEngines(TlsClientAuth.NONE), clientEngines());
        // The client reads first, so that nothing (a session ticket) is left unread to turn its close into a reset.
        pair.server().write(ByteBuffer.wrap(new byte[] {8}));
        assertEquals(8, pair.client().inputStream().read());
        pair.client().write(ByteBuffer.wrap(new byte[] {9}));
        pair.client().close();
        InputStream serverIn = pair.server().inputStream();
        assertEquals(9, serverIn.read());
        assertEquals(-1, serverIn.read(), "close_notify: end of stream");

        Pair abrupt = connect(serverEngines(TlsClientAuth.NONE), clientEngines());
        abrupt.clientSocket().close();
        // An end or a reset (the client closed with the server's session ticket unread), never a clean -1.
        assertThrows(IOException.class, () -> abrupt.server().inputStream().read());
    }

    @Test
    void aClientThatDoesNotTrustTheServerFailsTheHandshakeOnBothEnds() throws Exception {
        Supplier<SSLEngine> distrusting = TlsEngines.forClient(ClientTls.trusting(resource("client.crt")));
        SocketChannel[] sockets = pairs.sockets();
        TlsChannel serverEnd = channel(serverEngines(TlsClientAuth.NONE).get(), sockets[0], "client");
        TlsChannel clientEnd = channel(distrusting.get(), sockets[1], "server");
        Future<?> serverHandshake = pairs.submit(() -> {
            serverEnd.handshake();
            return null;
        });
        assertThrows(SSLException.class, clientEnd::handshake);
        ExecutionException serverFailure = assertThrows(ExecutionException.class,
                () -> serverHandshake.get(10, TimeUnit.SECONDS));
        assertInstanceOf(SSLException.class, serverFailure.getCause(), "the client's alert reached it");
    }

    @Test
    void aServerRequiringClientCertificatesRefusesAClientWithout() throws Exception {
        SocketChannel[] sockets = pairs.sockets();
        TlsChannel serverEnd = channel(serverEngines(TlsClientAuth.REQUIRE).get(), sockets[0], "client");
        TlsChannel clientEnd = channel(clientEngines().get(), sockets[1], "server");
        Future<?> serverHandshake = pairs.submit(() -> {
            serverEnd.handshake();
            return null;
        });
        IOException clientFailure = assertThrows(IOException.class, () -> {
            // TLS 1.2 fails the handshake itself; TLS 1.3 finishes the client's side first, and the server's
            // refusal arrives as an alert on the client's next read.
            clientEnd.handshake();
            clientEnd.write(ByteBuffer.wrap(new byte[] {1}));
            clientEnd.inputStream().read();
        });
        assertTrue(clientFailure.getMessage() != null, "the client learns why: " + clientFailure);
        ExecutionException serverFailure = assertThrows(ExecutionException.class,
                () -> serverHandshake.get(10, TimeUnit.SECONDS));
        assertInstanceOf(SSLException.class, serverFailure.getCause());
    }

    @Test
    void aClientPresentingATrustedCertificateIsAccepted() throws Exception {
        Supplier<SSLEngine> withCertificate = TlsEngines.forClient(ClientTls.trusting(resource("server.crt"))
                .withCertificate(resource("client.crt"), resource("client.key")));
        Pair pair = connect(serverEngines(TlsClientAuth.REQUIRE), withCertificate);
        pair.client().write(ByteBuffer.wrap(new byte[] {7}));
        assertEquals(7, pair.server().inputStream().read());
    }

    private static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code data} as frames of a 16-byte heap header and a direct body of varying size. */
    private static void writeGathered(TlsChannel channel, byte[] data) throws IOException {
        Random sizes = new Random(data.length);
        int at = 0;
        while (at < data.length) {
            int headerBytes = Math.min(16, data.length - at);
            int bodyBytes = Math.min(1 + sizes.nextInt(300_000), data.length - at - headerBytes);
            ByteBuffer header = ByteBuffer.wrap(data, at, headerBytes);
            ByteBuffer body = ByteBuffer.allocateDirect(bodyBytes).put(data, at + headerBytes, bodyBytes).flip();
            assertEquals(headerBytes + bodyBytes, channel.write(new ByteBuffer[] {header, body}));
            at += headerBytes + bodyBytes;
        }
    }

    /** Reads {@code length} bytes with reads of random sizes, single bytes among them. */
    private static byte[] readInFragments(InputStream in, int length, long seed) throws IOException {
        Random sizes = new Random(seed);
        byte[] out = new byte[length];
        int at = 0;
        while (at < length) {
            int choice = sizes.nextInt(4);
            if (choice == 0) {
                int b = in.read();
                assertTrue(b >= 0, "stream ended early at " + at);
                out[at++] = (byte) b;
                continue;
            }
            int want = Math.min(length - at, choice == 1 ? 1 + sizes.nextInt(100) : 1 + sizes.nextInt(200_000));
            int n = in.read(out, at, want);
            assertTrue(n > 0, "stream ended early at " + at);
            at += n;
        }
        return out;
    }
}
