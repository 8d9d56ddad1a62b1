package io.sluice.cli;

import io.sluice.broker.Broker;
import io.sluice.broker.BrokerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice broker -c FILE}: a broker registering with the name servers of FILE's {@code namesrvAddr}. Prints
 * one "ready" line on stdout once it accepts connections. Not thread-safe.
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Run a broker that registers with the name servers of the config file's namesrvAddr.")
final class BrokerCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true,
            description = "broker config file (see conf/broker.conf)")
    Path configFile;

    @Override
    public Integer call() throws IOException {
        Broker broker = BrokerMain.startBroker(configFile);
        System.out.printf("sluice broker ready: broker %s at %s, name servers %s, store %s%n",
                broker.settings().brokerName(), broker.addressText(),
                broker.settings().namesrvAddresses(), broker.settings().storePathRootDir());
        System.out.flush();
        ServerLifecycle.serveUntilTerminated("broker", broker);
        return 0;
    }
}
