package io.sluice.cli;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a server command's process alive until the JVM is asked to stop (SIGTERM, SIGINT), then closes what the
 * command started from a shutdown hook. Used by the main thread only.
 */
final class ServerLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ServerLifecycle.class);

    private ServerLifecycle() {
    }

    /**
     * Blocks until the JVM shuts down (it never returns normally: the JVM halts once the hooks are done); the
     * shutdown hook closes {@code running}.
     *
     * @param name    the command, for the log
     * @param running what to close
     */
    static void serveUntilTerminated(String name, AutoCloseable running) {
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("{}: stopping", name);
            try {
                running.close();
            } catch (Exception e) {
                LOG.error("{}: closing failed", name, e);
            } finally {
                closed.countDown();
            }
        }, "sluice-shutdown"));
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
