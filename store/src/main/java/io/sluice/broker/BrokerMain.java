package io.sluice.broker;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.config.ConfigException;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line entry point.
 *
 * <pre>
 *   BrokerMain standalone [-c FILE]   a name server and a broker in one process
 *   BrokerMain broker -c FILE         a broker that registers with the name servers of FILE's namesrvAddr
 * </pre>
 *
 * In standalone mode the first {@code namesrvAddr} entry of the file says where the embedded name server listens
 * (host and port), so several standalone brokers with distinct ports and store directories can run side by side.
 * Without a file, or when the file sets no {@code namesrvAddr}, every other setting keeps its value, the name
 * server listens on {@code 0.0.0.0:9876} and the broker registers with {@code 127.0.0.1:9876}.
 *
 * <p>The process runs until it is terminated; a shutdown hook closes the broker, then the name server. Stateless;
 * {@link #startStandalone} and {@link #startBroker} may be called from tests.
 */
public final class BrokerMain {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerMain.class);

    private static final String USAGE = "usage: BrokerMain standalone [-c FILE] | BrokerMain broker -c FILE";

    private BrokerMain() {
    }

    /** Parses the arguments, starts, and waits until the process is terminated. Exit code 2 on bad arguments. */
    public static void main(String[] args) {
        Command command;
        try {
            command = Command.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        try {
            Running running = command.standalone() ? startStandalone(command.configFile())
                    : startBroker(command.configFile());
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                running.close();
                stopped.countDown();
            }, "sluice-shutdown"));
            stopped.await();
        } catch (ConfigException | IOException | IllegalStateException e) {
            LOG.error("start-up failed: {}", e.getMessage(), e);
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts an embedded name server and a broker registered with it; the name server's port has the broker's TLS
     * settings ({@code tls.server.*}).
     *
     * @param configFile a broker.conf, or null for the defaults
     * @return what to close at shutdown
     */
    public static Running startStandalone(Path configFile) throws IOException {
        BrokerSettings loaded = configFile == null ? BrokerConfigLoader.defaults()
                : BrokerConfigLoader.load(configFile);
        List<String> namesrvs = loaded.namesrvAddresses();
        String namesrvAddr = namesrvs.isEmpty() ? "127.0.0.1:" + NamesrvSettings.DEFAULT_PORT : namesrvs.get(0);
        int colon = namesrvAddr.lastIndexOf(':');
        String host = namesrvAddr.substring(0, colon);
        int port = Integer.parseInt(namesrvAddr.substring(colon + 1));
        String bindHost = namesrvs.isEmpty() ? "0.0.0.0" : host;
        BrokerSettings settings = namesrvs.isEmpty() ? withNamesrv(loaded, namesrvAddr) : loaded;
        // The embedded name server speaks TLS as the broker's port does (tls.server.*); with enforcing, the broker's
        // own registration needs tls.enable=true.
        NameServer nameServer = new NameServer(NamesrvSettings.defaults().withListen(bindHost, port)
                .withTls(Broker.serverTls(settings)));
        nameServer.start();
        Broker broker = new Broker(settings);
        try {
            broker.start();
        } catch (IOException | RuntimeException e) {
            nameServer.close();
            throw e;
        }
        LOG.info("standalone: name server on {}:{}, broker {} on {}", bindHost, nameServer.port(),
                settings.brokerName(), broker.addressText());
        return new Running(nameServer, broker);
    }

    /**
     * Starts a broker.
     *
     * @param configFile its broker.conf
     * @return what to close at shutdown
     */
    public static Running startBroker(Path configFile) throws IOException {
        Broker broker = new Broker(BrokerConfigLoader.load(configFile));
        broker.start();
        return new Running(null, broker);
    }

    /** A copy of {@code settings} registering with {@code namesrvAddr}. */
    static BrokerSettings withNamesrv(BrokerSettings settings, String namesrvAddr) {
        Properties properties = new Properties();
        for (Map.Entry<String, String> e : settings.toProperties().entrySet()) {
            properties.setProperty(e.getKey(), e.getValue());
        }
        properties.setProperty("namesrvAddr", namesrvAddr);
        return BrokerConfigLoader.parse(properties, "standalone settings");
    }

    /**
     * What {@link #main} runs: a broker and, in standalone mode, its name server.
     *
     * @param nameServer the embedded name server, or null
     * @param broker     the broker
     */
    public record Running(NameServer nameServer, Broker broker) implements AutoCloseable {

        /** Closes the broker (it unregisters), then the name server. */
        @Override
        public void close() {
            broker.close();
            if (nameServer != null) {
                nameServer.close();
            }
        }
    }

    /** Parsed command line. */
    record Command(boolean standalone, Path configFile) {

        static Command parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("missing mode");
            }
            boolean standalone = switch (args[0]) {
                case "standalone" -> true;
                case "broker" -> false;
                default -> throw new IllegalArgumentException("unknown mode '" + args[0] + "'");
            };
            Path file = null;
            for (int i = 1; i < args.length; i++) {
                if (("-c".equals(args[i]) || "--config".equals(args[i])) && i + 1 < args.length && file == null) {
                    file = Path.of(args[++i]);
                } else {
                    throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                }
            }
            if (!standalone && file == null) {
                throw new IllegalArgumentException("mode broker needs -c FILE");
            }
            return new Command(standalone, file);
        }
    }
}
