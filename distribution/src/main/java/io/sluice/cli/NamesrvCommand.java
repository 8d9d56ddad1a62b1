package io.sluice.cli;

import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.namesrv.controller.ControllerSettings;
import io.sluice.namesrv.metrics.NamesrvMetricsSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice namesrv [-c FILE]}: a name server. FILE is a properties file with the keys of
 * {@link NamesrvSettings} (see {@code conf/namesrv.conf}); an unknown key or bad value is an error naming it and
 * the file. Prints one "ready" line on stdout once it accepts connections. Not thread-safe.
 */
@Command(name = "namesrv", mixinStandardHelpOptions = true, description = "Run a name server.")
final class NamesrvCommand implements Callable<Integer> {

    @Mixin
    DaemonOption daemon;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "name server config file (see conf/namesrv.conf)")
    Path configFile;

    @Override
    public Integer call() throws IOException {
        Properties properties = configFile == null ? new Properties() : load(configFile);
        NameServer server = new NameServer(settings(configFile), Optional.of(controllerSettings(properties)),
                metricsSettings(properties));
        server.start();
        System.out.printf("sluice namesrv ready: listening on port %d%s%n", server.port(), server.metricsPort() < 0
                ? "" : ", metrics on port " + server.metricsPort());
        System.out.flush();
        ServerLifecycle.serveUntilTerminated("namesrv", server);
        return 0;
    }

    /** The embedded controller's settings (enableControllerInNamesrv and the controller keys). */
    static ControllerSettings controllerSettings(Properties properties) {
        try {
            return ControllerSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("controller settings: " + e.getMessage(), e);
        }
    }

    /** The metrics endpoint's settings (metricsExporterType and the metricsProm* keys). */
    static NamesrvMetricsSettings metricsSettings(Properties properties) {
        try {
            return NamesrvMetricsSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("metrics settings: " + e.getMessage(), e);
        }
    }

    /** The properties of {@code file}. */
    static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        return properties;
    }

    /** Defaults, overridden by the keys of {@code file} when it is not null. */
    static NamesrvSettings settings(Path file) throws IOException {
        if (file == null) {
            return NamesrvSettings.defaults();
        }
        Properties properties = load(file);
        try {
            return NamesrvSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
