package io.sluice.cli;

import io.sluice.namesrv.controller.ControllerSettings;
import io.sluice.namesrv.controller.StandaloneController;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice controller [-c FILE]}: a standalone failover controller. FILE is a properties file with the
 * controller keys of {@link ControllerSettings} and {@code listenAddress}/{@code listenPort} (default 0.0.0.0:9878),
 * the port brokers name in {@code controllerAddr}. Prints one "ready" line on stdout once it accepts connections.
 * Not thread-safe.
 */
@Command(name = "controller", mixinStandardHelpOptions = true, description = "Run a failover controller.")
final class ControllerCommand implements Callable<Integer> {

    @Mixin
    DaemonOption daemon;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "controller config file (controllerDLegerGroup, controllerDLegerPeers, "
                    + "controllerDLegerSelfId, controllerStorePath, listenPort)")
    Path configFile;

    @Override
    public Integer call() throws IOException {
        Properties properties = configFile == null ? new Properties() : NamesrvCommand.load(configFile);
        ControllerSettings settings;
        int port;
        try {
            settings = ControllerSettings.fromProperties(properties);
            port = Integer.parseInt(properties.getProperty("listenPort",
                    Integer.toString(StandaloneController.DEFAULT_PORT)).trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(configFile + ": " + e.getMessage(), e);
        }
        StandaloneController controller = new StandaloneController(settings,
                properties.getProperty("listenAddress", "0.0.0.0").trim(), port);
        controller.start();
        System.out.printf("sluice controller ready: listening on port %d%n", controller.port());
        System.out.flush();
        ServerLifecycle.serveUntilTerminated("controller", controller);
        return 0;
    }
}
