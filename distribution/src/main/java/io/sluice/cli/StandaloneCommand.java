package io.sluice.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice standalone [-c FILE]}: a name server and a broker in one process. The first {@code namesrvAddr}
 * entry of FILE says where the embedded name server listens; without it the name server listens on
 * {@code 127.0.0.1:9876}, and the broker binds and advertises {@code 127.0.0.1} unless the file sets
 * {@code bindAddress} and {@code brokerIP1}. Prints one "ready" line on stdout once both accept connections. Not
 * thread-safe.
 */
@Command(name = "standalone", mixinStandardHelpOptions = true,
        description = {"Run a name server and a broker in one process (the embedded default).",
            "The first namesrvAddr entry of the config file is where the name server listens "
                + "(default 127.0.0.1:9876).",
            "The broker binds and advertises 127.0.0.1 unless the file sets bindAddress and brokerIP1."})
final class StandaloneCommand implements Callable<Integer> {

    @Mixin
    DaemonOption daemon;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "broker config file (see conf/broker.conf)")
    Path configFile;

    @Override
    public Integer call() throws IOException {
        Standalone.Running running = Standalone.start(configFile);
        System.out.printf("sluice standalone ready: name server port %d, broker %s at %s, store %s%n",
                running.nameServer().port(), running.broker().settings().brokerName(),
                running.broker().addressText(), running.broker().settings().storePathRootDir());
        System.out.flush();
        ServerLifecycle.serveUntilTerminated("standalone", running);
        return 0;
    }
}
