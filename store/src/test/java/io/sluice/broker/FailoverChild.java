package io.sluice.broker;

import io.sluice.broker.config.BrokerConfigLoader;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A controller-mode broker in its own JVM for {@link FailoverKillIT}: {@code FailoverChild <broker.conf>} runs a
 * {@link FailoverBroker} until the JVM is killed or asked to stop.
 */
public final class FailoverChild {

    private FailoverChild() {
    }

    public static void main(String[] args) throws Exception {
        FailoverBroker broker = new FailoverBroker(BrokerConfigLoader.load(Path.of(args[0])));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "failover-child-shutdown"));
        broker.start();
        System.out.println("failover child started at " + broker.address());
        stopped.await();
    }
}
