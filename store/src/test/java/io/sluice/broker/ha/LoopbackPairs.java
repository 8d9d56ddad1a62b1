package io.sluice.broker.ha;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * For tests of the HA channel's TLS: connected loopback socket pairs (blocking, with a read timeout so that a hung
 * test fails instead), threads for the other end's blocking calls, and the test certificates under
 * {@code src/test/resources/tls}. {@link #close} closes what was opened and ends the threads. One per test.
 */
final class LoopbackPairs implements AutoCloseable {

    private static final int READ_TIMEOUT_MS = 10_000;

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** The test certificate file {@code name}, e.g. {@code server.crt}. */
    static Path resource(String name) throws URISyntaxException {
        return Path.of(LoopbackPairs.class.getResource("/tls/" + name).toURI());
    }

    /** [accepted, connected]; both closed by {@link #close}. */
    SocketChannel[] sockets() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(listener.getLocalAddress());
            SocketChannel server = listener.accept();
            opened.add(client);
            opened.add(server);
            server.socket().setSoTimeout(READ_TIMEOUT_MS);
            client.socket().setSoTimeout(READ_TIMEOUT_MS);
            return new SocketChannel[] {server, client};
        }
    }

    /** Closes {@code closeable} with the rest (before the sockets opened later). */
    <T extends AutoCloseable> T closeLater(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** Runs {@code task} on a thread of its own. */
    <T> Future<T> submit(Callable<T> task) {
        return executor.submit(task);
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "test threads ended");
    }
}
