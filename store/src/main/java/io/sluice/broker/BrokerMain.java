package io.sluice.broker;

import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line entry point of a broker alone: {@code BrokerMain broker -c FILE} starts a broker that registers
 * with the name servers of FILE's {@code namesrvAddr}. Standalone mode (an embedded name server) is the
 * distribution's ({@code sluice standalone}), so that this module does not depend on the name server's.
 *
 * <p>The process runs until it is terminated; a shutdown hook closes the broker. Stateless; {@link #startBroker}
 * may be called from tests.
 */
public final class BrokerMain {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerMain.class);

    private static final String USAGE = "usage: BrokerMain broker -c FILE";

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
            Broker running = startBroker(command.configFile());
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
     * Starts a broker.
     *
     * @param configFile its broker.conf
     * @return the started broker, to close at shutdown
     */
    public static Broker startBroker(Path configFile) throws IOException {
        Broker broker = new Broker(BrokerConfigLoader.load(configFile));
        broker.start();
        return broker;
    }

    /** Parsed command line. */
    record Command(Path configFile) {

        static Command parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("missing mode");
            }
            if (!"broker".equals(args[0])) {
                throw new IllegalArgumentException("unknown mode '" + args[0] + "'");
            }
            Path file = null;
            for (int i = 1; i < args.length; i++) {
                if (("-c".equals(args[i]) || "--config".equals(args[i])) && i + 1 < args.length && file == null) {
                    file = Path.of(args[++i]);
                } else {
                    throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("mode broker needs -c FILE");
            }
            return new Command(file);
        }
    }
}
