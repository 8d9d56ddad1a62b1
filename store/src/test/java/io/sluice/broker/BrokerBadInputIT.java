package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.remoting.transport.RemotingCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad bytes on a raw socket: garbage and a frame longer than the broker accepts each close their own connection,
 * while a well-behaved client on another connection keeps getting answers; unknown request codes are answered
 * REQUEST_CODE_NOT_SUPPORTED.
 */
class BrokerBadInputIT {

    @TempDir
    Path dir;

    private EmbeddedCluster cluster;
    private RemotingClient client;

    @BeforeEach
    void start() throws Exception {
        cluster = EmbeddedCluster.start(dir);
        client = new RemotingClient(ClientSettings.defaults());
    }

    @AfterEach
    void stop() {
        try {
            client.close();
        } finally {
            cluster.close();
        }
    }

    private RemotingCommand call(RemotingCommand request) throws Exception {
        return client.invoke(cluster.brokerAddr(), request, 5_000).get(10, TimeUnit.SECONDS);
    }

    private void assertHealthy() throws Exception {
        RemotingCommand answer = call(RemotingCommand.request(RequestCode.GET_MAX_OFFSET).putExtField("topic", "none")
                .putExtField("queueId", "0"));
        assertEquals(ResponseCode.SUCCESS, answer.code());
        assertEquals("0", answer.extField("offset"));
    }

    /** Writes {@code bytes} on a fresh socket and waits until the broker closes it. */
    private void assertClosedAfter(byte[] bytes) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", cluster.broker().port()), 3_000);
            socket.setSoTimeout(200);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    if (in.read() < 0) {
                        return;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    assertTrue(System.nanoTime() < deadline, "the broker kept the connection open");
                } catch (IOException reset) {
                    return;
                }
            }
        }
    }

    @Test
    void garbageAndOversizedFramesCloseOnlyTheirConnection() throws Exception {
        assertHealthy();
        RemotingCounters counters = cluster.broker().server().counters();
        long closedBefore = counters.connectionsClosedForBadInput();

        // A header longer than its frame, then random-looking bytes.
        byte[] garbage = ByteBuffer.allocate(24).putInt(20).putInt(1000).put("not a header".getBytes(
                StandardCharsets.US_ASCII)).putInt(0xCAFEBABE).array();
        assertClosedAfter(garbage);
        assertHealthy();

        // A JSON header that is not JSON.
        byte[] badJson = "{{{{{{{{".getBytes(StandardCharsets.US_ASCII);
        assertClosedAfter(ByteBuffer.allocate(8 + badJson.length).putInt(4 + badJson.length).putInt(badJson.length)
                .put(badJson).array());
        assertHealthy();

        // A frame announcing 2 GiB, far beyond serverMaxFrameBytes.
        assertClosedAfter(ByteBuffer.allocate(8).putInt(0x7FFFFFF0).putInt(16).array());
        assertHealthy();

        Await.until("three connections closed for bad input", 10_000,
                () -> counters.connectionsClosedForBadInput() - closedBefore >= 3,
                counters::connectionsClosedForBadInput);
    }

    @Test
    void unknownRequestCodesAreNotSupported() throws Exception {
        RemotingCommand answer = call(RemotingCommand.request(9999));
        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, answer.code());
        assertTrue(answer.remark().contains("9999"), answer.remark());
        assertHealthy();
    }
}
