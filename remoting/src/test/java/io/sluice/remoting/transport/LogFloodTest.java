package io.sluice.remoting.transport;

import io.sluice.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * A flood of malformed frames, or of requests answered SYSTEM_ERROR, writes a bounded number of log lines, counts
 * every event, and the server keeps serving.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LogFloodTest {

    private static final int FLOOD = 300;
    private static final int FAILING_CODE = 2;

    private RemotingServer server;
    private RemotingClient client;
    private String address;
    private final ListAppender<ILoggingEvent> decoderLines = new ListAppender<>();
    private final ListAppender<ILoggingEvent> connectionLines = new ListAppender<>();

    @BeforeEach
    void start() {
        attach(FrameDecoder.class, decoderLines);
        attach(Connection.class, connectionLines);
        server = new RemotingServer(ServerSettings.builder().bindAddress("127.0.0.1").port(0).build());
        server.registerHandler(1, RequestHandler.sync((connection, request) -> RemotingCommand.responseTo(request)));
        server.registerHandler(FAILING_CODE, RequestHandler.sync((connection, request) -> {
            throw new IllegalStateException("the handler's own failure");
        }));
        server.start();
        address = "127.0.0.1:" + server.port();
        client = new RemotingClient(ClientSettings.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        ((Logger) LoggerFactory.getLogger(FrameDecoder.class)).detachAppender(decoderLines);
        ((Logger) LoggerFactory.getLogger(Connection.class)).detachAppender(connectionLines);
    }

    private static void attach(Class<?> source, ListAppender<ILoggingEvent> appender) {
        appender.start();
        ((Logger) LoggerFactory.getLogger(source)).addAppender(appender);
    }

    /** The most lines the limiter lets through in {@code elapsedNs}. */
    private static long bound(long elapsedNs) {
        return LogLimiter.DEFAULT_LINES_PER_WINDOW * (1 + elapsedNs / LogLimiter.DEFAULT_WINDOW_NS);
    }

    @Test
    void aFloodOfMalformedFramesWritesABoundedNumberOfLines() throws Exception {
        long startNs = System.nanoTime();
        byte[] garbage = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < FLOOD; i++) {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(garbage);
                assertEquals(-1, readUntilClosed(socket.getInputStream()), "the server closes the connection");
            }
        }
        Await.until("every bad frame counted", () -> server.counters().framesRejected() == FLOOD);
        long elapsedNs = System.nanoTime() - startNs;

        List<ILoggingEvent> lines = List.copyOf(decoderLines.list);
        assertTrue(lines.size() >= 1 && lines.size() <= bound(elapsedNs), lines.size() + " lines");
        assertEquals(FLOOD - lines.size(), server.counters().logLinesSuppressed());
        assertServes();
    }

    @Test
    void everySystemErrorIsCountedAndLoggedWithItsCauseWithinTheBound() throws Exception {
        long startNs = System.nanoTime();
        for (int i = 0; i < FLOOD; i++) {
            RemotingCommand response = client.invoke(address, RemotingCommand.request(FAILING_CODE), 5_000)
                    .get(5, TimeUnit.SECONDS);
            assertEquals(ResponseCode.SYSTEM_ERROR, response.code());
            assertTrue(response.remark().contains("the handler's own failure"), response.remark());
        }
        long elapsedNs = System.nanoTime() - startNs;

        assertEquals(FLOOD, server.counters().systemErrors());
        List<ILoggingEvent> lines = List.copyOf(connectionLines.list);
        assertTrue(lines.size() >= 1 && lines.size() <= bound(elapsedNs), lines.size() + " lines");
        ILoggingEvent first = lines.get(0);
        assertTrue(first.getFormattedMessage().contains("answered SYSTEM_ERROR"), first.getFormattedMessage());
        assertNotNull(first.getThrowableProxy(), "the cause is logged");
        assertEquals("the handler's own failure", first.getThrowableProxy().getMessage());
        assertEquals(FLOOD - lines.size(), server.counters().logLinesSuppressed());
        assertServes();
    }

    private static int readUntilClosed(InputStream in) throws java.io.IOException {
        try {
            return in.read();
        } catch (SocketException reset) {
            return -1;
        }
    }

    private void assertServes() throws Exception {
        RemotingCommand response = client.invoke(address, RemotingCommand.request(1), 5_000).get(5, TimeUnit.SECONDS);
        assertEquals(ResponseCode.SUCCESS, response.code());
    }
}
