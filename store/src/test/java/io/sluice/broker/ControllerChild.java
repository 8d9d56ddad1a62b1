package io.sluice.broker;

import io.sluice.namesrv.controller.ControllerSettings;
import io.sluice.namesrv.controller.StandaloneController;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * A standalone controller in its own JVM for {@link ControllerQuorumKillIT}: {@code ControllerChild <conf>} runs a
 * {@link StandaloneController} with the conf's controller keys on 127.0.0.1:{@code listenPort} until the JVM is
 * killed or asked to stop.
 */
public final class ControllerChild {

    private ControllerChild() {
    }

    public static void main(String[] args) throws Exception {
        Properties conf = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            conf.load(in);
        }
        StandaloneController controller = new StandaloneController(ControllerSettings.fromProperties(conf),
                "127.0.0.1", Integer.parseInt(conf.getProperty("listenPort")));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            controller.close();
            stopped.countDown();
        }, "controller-child-shutdown"));
        controller.start();
        System.out.println("controller child started on port " + controller.port());
        stopped.await();
    }
}
