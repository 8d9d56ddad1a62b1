package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.testing.Await;
import io.sluice.namesrv.NameServer;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Automatic failover in one process: a name server embedding a single controller, and two brokers of one group in
 * controller mode (SYNC_MASTER when elected) on free loopback ports. The master is closed under load from the
 * unmodified Apache producer (sync and async sends); the controller elects the in-sync slave with the next epoch,
 * the name server routes to it and the sends go on; the old master comes back as a slave of the new one. Every
 * acknowledged message is stored exactly once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailoverIT {

    private static final String TOPIC = "FailingOver";

    @TempDir
    Path dir;

    @Test
    void theInSyncSlaveTakesOverAndTheOldMasterRejoinsAsItsSlave() throws Exception {
        try (NameServer namesrv = FailoverLoad.namesrvWithController(dir.resolve("ctl"))) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            FailoverBroker a = start(namesrvAddr, "a");
            FailoverBroker b = null;
            try {
                Await.until("a to be elected master", 20_000, () -> a.role() == FailoverBroker.Role.MASTER,
                        a::role);
                b = start(namesrvAddr, "b");
                FailoverBroker slave = b;
                Await.until("b to follow a", 20_000, () -> slave.role() == FailoverBroker.Role.SLAVE, slave::role);
                FailoverLoad.createTopic(namesrvAddr, TOPIC, a.broker().orElseThrow().addressText());
                Await.until("b to copy the topic", 20_000, () -> slave.broker()
                        .map(broker -> broker.metadata().getTopic(TOPIC).isPresent()).orElse(false), () -> "not yet");
                Await.until("b in the in-sync set", 30_000, () -> inSync(namesrv) == 2, () -> inSync(namesrv));

                try (FailoverLoad load = new FailoverLoad(namesrvAddr, TOPIC)) {
                    load.start();
                    load.awaitMoreAcks(300, 30_000);
                    long killNanos = System.nanoTime();
                    a.close();
                    Await.until("b to be elected master", 20_000, () -> slave.role() == FailoverBroker.Role.MASTER,
                            slave::role);
                    long firstAckNanos = load.awaitFirstAckAfter(killNanos, a.address(), 30_000);
                    System.out.printf("failover: kill to first acknowledged send %d ms (epoch %d)%n",
                            TimeUnit.NANOSECONDS.toMillis(firstAckNanos - killNanos), slave.epoch());
                    assertEquals(2, slave.epoch());
                    load.awaitMoreAcks(300, 30_000);

                    FailoverBroker back = start(namesrvAddr, "a");
                    try {
                        Await.until("a to rejoin as slave of b", 30_000,
                                () -> back.role() == FailoverBroker.Role.SLAVE, back::role);
                        Await.until("a back in the in-sync set", 30_000, () -> inSync(namesrv) == 2,
                                () -> inSync(namesrv));
                        load.awaitMoreAcks(300, 30_000);
                        load.stop();
                        assertTrue(back.epochs().size() >= 2, back.epochs()::toString);
                        load.verify(namesrvAddr);
                    } finally {
                        back.close();
                    }
                }
            } finally {
                a.close();
                if (b != null) {
                    b.close();
                }
            }
        }
    }

    private static int inSync(NameServer namesrv) {
        return namesrv.controller().orElseThrow().replicaInfo("broker-a").map(ReplicaInfo::syncStateSet)
                .map(java.util.Set::size).orElse(0);
    }

    private FailoverBroker start(String namesrvAddr, String name) throws IOException {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("namesrvAddr", namesrvAddr);
        conf.put("enableControllerMode", "true");
        conf.put("controllerAddr", namesrvAddr);
        conf.put("brokerName", "broker-a");
        conf.put("brokerRole", "SYNC_MASTER");
        conf.put("listenPort", Integer.toString(port(name)));
        conf.put("haListenPort", Integer.toString(port(name + "-ha")));
        conf.put("brokerIP1", "127.0.0.1");
        conf.put("storePathRootDir", dir.resolve(name).toString());
        conf.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        conf.put("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000));
        conf.put("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000));
        BrokerSettings.Builder settings = BrokerSettings.builder();
        conf.forEach(settings::setText);
        FailoverBroker broker = new FailoverBroker(settings.build());
        broker.start();
        return broker;
    }

    private final Map<String, Integer> ports = new LinkedHashMap<>();

    /** The same port for a broker across its restarts: the controller knows it by its address. */
    private int port(String name) throws IOException {
        Integer known = ports.get(name);
        if (known == null) {
            known = FailoverLoad.freePort();
            ports.put(name, known);
        }
        return known;
    }


}
