package io.sluice.namesrv;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point: {@code NamesrvMain [-c namesrv.conf]}. The file is a Java properties file with the
 * keys of {@link NamesrvSettings}; an unknown key or bad value stops start-up with a message naming it. Runs until
 * the JVM is asked to stop.
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
        NamesrvSettings settings;
        try {
            settings = settingsFrom(args);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("sluice name server: " + e.getMessage());
            System.err.println("usage: NamesrvMain [-c namesrv.conf]");
            System.exit(2);
            return;
        }
        NameServer server = new NameServer(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "sluice-namesrv-shutdown"));
        server.start();
        LOG.info("name server started on port {}", server.port());
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        if (args.length == 0) {
            return NamesrvSettings.defaults();
        }
        if (args.length != 2 || !args[0].equals("-c")) {
            throw new IllegalArgumentException("unexpected arguments: " + String.join(" ", args));
        }
        Path file = Path.of(args[1]);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        try {
            return NamesrvSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
