package io.sluice.cli;

import io.sluice.broker.Broker;
import io.sluice.broker.BrokerMain;
import io.sluice.broker.FailoverBroker;
import io.sluice.broker.config.BrokerConfigLoader;
import io.sluice.broker.config.BrokerSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice broker -c FILE}: a broker registering with the name servers of FILE's {@code namesrvAddr}; with
 * {@code enableControllerMode}, a {@link FailoverBroker} whose role the controllers of {@code controllerAddr} choose.
 * Prints one "ready" line on stdout once it accepts connections. Not thread-safe.
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Run a broker that registers with the name servers of the config file's namesrvAddr.")
final class BrokerCommand implements Callable<Integer> {

    @Mixin
    DaemonOption daemon;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true,
            description = "broker config file (see conf/broker.conf)")
    Path configFile;

    @Override
    public Integer call() throws IOException {
        BrokerSettings settings = BrokerConfigLoader.load(configFile);
        if (settings.controllerMode()) {
            FailoverBroker failover = new FailoverBroker(settings);
            failover.start();
            System.out.printf("sluice broker ready: broker %s at %s in controller mode (controllers %s), store %s%n",
                    settings.brokerName(), failover.address(), settings.controllerAddresses(),
                    settings.storePathRootDir());
            System.out.flush();
            ServerLifecycle.serveUntilTerminated("broker", failover);
            return 0;
        }
        Broker broker = BrokerMain.startBroker(configFile);
        System.out.printf("sluice broker ready: broker %s at %s, name servers %s, store %s%n",
                broker.settings().brokerName(), broker.addressText(),
                broker.settings().namesrvAddresses(), broker.settings().storePathRootDir());
        System.out.flush();
        ServerLifecycle.serveUntilTerminated("broker", broker);
        return 0;
    }
}
