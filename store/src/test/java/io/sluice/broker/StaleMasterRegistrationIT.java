package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master frozen while the controller elected another replica wakes up still serving as master, registers as such
 * and, once it hears of its demotion, closes and unregisters. {@link FailoverBroker} gives each {@link Broker} the
 * master epoch of its role; here plain brokers of one broker name stand in for the elected master (epoch 2) and the
 * woken one (epoch 1), against a real name server: the elected master keeps its route throughout.
 */
class StaleMasterRegistrationIT {

    private static final String CLUSTER = "DefaultCluster";
    private static final String BROKER_NAME = "broker-a";

    @TempDir
    Path dir;

    @Test
    void aDemotedMastersRegistrationAndUnregistrationLeaveTheElectedMastersRoute() throws IOException {
        try (NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0))) {
            namesrv.start();
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            try (Broker elected = start(namesrvAddr, "elected", 0, 2)) {
                Map<Long, String> electedOnly = Map.of(0L, elected.addressText());
                try (Broker woken = start(namesrvAddr, "woken", 0, 1)) {
                    assertEquals(1, woken.registrar().failures(), "refused as master");
                    assertEquals(electedOnly, addrs(namesrv));
                }
                assertEquals(electedOnly, addrs(namesrv), "its unregistration removed nothing");
                assertTrue(namesrv.routes().routeOf(BROKER_NAME).isPresent());
                try (Broker slave = start(namesrvAddr, "rejoined", 1, 2)) {
                    assertEquals(Map.of(0L, elected.addressText(), 1L, slave.addressText()), addrs(namesrv));
                    assertEquals(elected.addressText(), slave.registrar().master().orElseThrow().brokerAddr());
                }
            }
        }
    }

    private static Map<Long, String> addrs(NameServer namesrv) {
        return namesrv.routes().clusterInfo().brokerAddrTable().get(BROKER_NAME).brokerAddrs();
    }

    private Broker start(String namesrvAddr, String name, long brokerId, int masterEpoch) throws IOException {
        BrokerSettings settings = BrokerSettings.builder()
                .setText("brokerClusterName", CLUSTER)
                .setText("brokerName", BROKER_NAME)
                .setText("brokerId", Long.toString(brokerId))
                .setText("brokerRole", brokerId == 0 ? "ASYNC_MASTER" : "SLAVE")
                .setText("namesrvAddr", namesrvAddr)
                .setText("listenPort", "0")
                .setText("haListenPort", "0")
                .setText("brokerIP1", "127.0.0.1")
                .setText("storePathRootDir", dir.resolve(name).toString())
                .setText("mappedFileSizeCommitLog", Integer.toString(64 << 20))
                .setText("mappedFileSizeConsumeQueue", Integer.toString(20 * 10_000))
                .setText("mapperFileSizeBatchConsumeQueue", Integer.toString(46 * 10_000))
                .setText("serverWorkerThreads", "2")
                .setText("pullMessageThreadPoolNums", "4")
                .build();
        Broker broker = new Broker(settings);
        broker.masterEpoch(masterEpoch);
        broker.start();
        return broker;
    }
}
