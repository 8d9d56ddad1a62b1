package io.sluice.remoting.transport;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Frames that cannot be decoded close their own connection; other connections keep working. */
class BadInputTest {
    private static final int MAX_FRAME_BYTES = 64 * 1024;

    private RemotingServer server;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void startServer() throws Exception {
        server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0)
                .maxFrameBytes(MAX_FRAME_BYTES).build());
        server.registerHandler(1, RequestHandler.sync((connection, request) -> RemotingCommand.responseTo(request)));
        server.start();
        address = "127.0.0.1:" + server.port();
        client = new RemotingClient(ClientSettings.defaults());
        assertWorks();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void garbageBytesCloseTheConnection() throws Exception {
        assertClosedAfter("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 1);
    }

    @Test
    void anOversizedFrameClosesTheConnection() throws Exception {
        assertClosedAfter(frameStart(MAX_FRAME_BYTES, 0x0000_0010), 1);
    }

    @Test
    void aNegativeLengthClosesTheConnection() throws Exception {
        assertClosedAfter(frameStart(-1, 0), 1);
    }

    @Test
    void aHeaderLongerThanTheFrameClosesTheConnection() throws Exception {
        assertClosedAfter(frameWithHeader(0x0000_0100, new byte[16]), 1);
    }

    @Test
    void anUnknownSerializeTypeClosesTheConnection() throws Exception {
        assertClosedAfter(frameWithHeader(0x0700_0002, "{}".getBytes(StandardCharsets.US_ASCII)), 1);
    }

    @Test
    void anUnparseableHeaderClosesTheConnection() throws Exception {
        byte[] header = "{\"code\":1,\"flag\":".getBytes(StandardCharsets.US_ASCII);
        assertClosedAfter(frameWithHeader(header.length, header), 1);
        byte[] binary = new byte[21];
        binary[16] = 100; // remark length 100 in a 21-byte header
        assertClosedAfter(frameWithHeader(0x0100_0000 | binary.length, binary), 2);
    }

    private void assertClosedAfter(byte[] bytes, int expectedClosures) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            assertEquals(-1, readUntilClosed(socket.getInputStream()), "server closes the connection");
        }
        Await.until("bad input counted", () -> server.counters().connectionsClosedForBadInput() == expectedClosures);
        assertEquals(expectedClosures, server.counters().framesRejected());
        assertWorks();
    }

    private static int readUntilClosed(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (SocketException reset) {
            return -1;
        }
    }

    private void assertWorks() throws Exception {
        RemotingCommand response = client.invoke(address, RemotingCommand.request(1), 5_000)
                .get(5, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SUCCESS, response.code());
        assertTrue(response.isResponse());
    }

    private static byte[] frameStart(int totalLength, int headerWord) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(totalLength);
        out.writeInt(headerWord);
        return bytes.toByteArray();
    }

    private static byte[] frameWithHeader(int headerWord, byte[] rest) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(4 + rest.length);
        out.writeInt(headerWord);
        out.write(rest);
        return bytes.toByteArray();
    }
}
