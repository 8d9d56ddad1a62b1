package io.sluice.namesrv.controller;

import io.sluice.remoting.transport.RemotingServer;
import io.sluice.remoting.transport.ServerSettings;
import java.io.IOException;

/**
 * A controller in its own process ({@code bin/sluice controller}): a {@link Controller} answering brokers on its
 * own remoting port ({@code listenPort}, default {@link #DEFAULT_PORT}), beside its Raft port.
 *
 * <p>Lifecycle: {@link #start()} once, then {@link #close()} (idempotent). Thread-safe.
 */
public final class StandaloneController implements AutoCloseable {

    /** Apache's controller port. */
    public static final int DEFAULT_PORT = 9878;

    private final Controller controller;
    private final RemotingServer server;

    /**
     * @param listenAddress address the broker-facing port binds
     * @param listenPort    the broker-facing port; 0 = any free port
     */
    public StandaloneController(ControllerSettings settings, String listenAddress, int listenPort) {
        this.controller = new Controller(settings);
        this.server = new RemotingServer(ServerSettings.builder().bindAddress(listenAddress).port(listenPort).build());
        controller.registerHandlers(server);
    }

    /**
     * Starts the controller, then the port brokers use.
     *
     * @throws IOException when the Raft store cannot be opened or its port bound
     */
    public synchronized void start() throws IOException {
        controller.start();
        server.start();
    }

    /** The bound broker-facing port. */
    public int port() {
        return server.port();
    }

    /** The controller. */
    public Controller controller() {
        return controller;
    }

    @Override
    public synchronized void close() {
        server.close();
        controller.close();
    }
}
