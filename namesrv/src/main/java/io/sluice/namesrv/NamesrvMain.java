package io.sluice.namesrv;

import io.sluice.namesrv.controller.ControllerSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point: {@code NamesrvMain [-c namesrv.conf]}. The file is a Java properties file with the
 * keys of {@link NamesrvSettings} and of {@link ControllerSettings} ({@code enableControllerInNamesrv=true} embeds
 * a failover controller); an unknown key or bad value stops start-up with a message naming it. Runs until the JVM
 * is asked to stop.
 */
public final class NamesrvMain {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvMain.class);

    private NamesrvMain() {
    }

    /**
     * Starts a name server and blocks until shutdown.
     *
     * @param args optional {@code -c <file>}
     */
    public static void main(String[] args) {
        NameServer server;
        try {
            server = nameServerFrom(args);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("sluice name server: " + e.getMessage());
            System.err.println("usage: NamesrvMain [-c namesrv.conf]");
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "sluice-namesrv-shutdown"));
        server.start();
        LOG.info("name server started on port {}{}", server.port(),
                server.controller().isPresent() ? " with an embedded controller" : "");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The name server the command line describes, not started: with an embedded controller when the file says
     * {@code enableControllerInNamesrv=true}.
     *
     * @throws IllegalArgumentException for unknown arguments, keys or bad values (the message names them)
     * @throws IOException if the file cannot be read
     */
    static NameServer nameServerFrom(String[] args) throws IOException {
        Properties properties = propertiesFrom(args);
        NamesrvSettings settings = settingsFrom(args, properties);
        ControllerSettings controller;
        try {
            controller = ControllerSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(args[1] + ": " + e.getMessage(), e);
        }
        return new NameServer(settings, Optional.of(controller));
    }

    /**
     * The settings named by the command line: defaults, or defaults overridden by the {@code -c} file.
     *
     * @param args the command-line arguments
     * @return validated settings
     * @throws IllegalArgumentException for unknown arguments, keys or bad values (the message names them)
     * @throws IOException if the file cannot be read
     */
    static NamesrvSettings settingsFrom(String[] args) throws IOException {
        return settingsFrom(args, propertiesFrom(args));
    }

    private static NamesrvSettings settingsFrom(String[] args, Properties properties) {
        if (args.length == 0) {
            return NamesrvSettings.defaults();
        }
        try {
            return NamesrvSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(args[1] + ": " + e.getMessage(), e);
        }
    }

    /** The {@code -c} file's properties; none without arguments. */
    private static Properties propertiesFrom(String[] args) throws IOException {
        Properties properties = new Properties();
        if (args.length == 0) {
            return properties;
        }
        if (args.length != 2 || !args[0].equals("-c")) {
            throw new IllegalArgumentException("unexpected arguments: " + String.join(" ", args));
        }
        try (Reader reader = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        return properties;
    }
}
