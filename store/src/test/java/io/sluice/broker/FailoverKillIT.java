package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.namesrv.NameServer;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill cycles with brokers in their own JVMs: a name server embedding one controller here, two controller-mode
 * brokers of one group (SYNC_MASTER when elected) as child JVMs on free loopback ports. Each cycle SIGKILLs the
 * master under load from the unmodified Apache producer (sync and async sends), measures the time from the kill
 * to the first acknowledged send (printed), restarts the killed broker and waits until it is back in the in-sync
 * set as a slave. Then the master is frozen (SIGSTOP) until a new one serves, and woken again. At the end every
 * acknowledged message is in the queues once, none twice.
 *
 * <p>{@code -Dfailover.cycles=N} sets the number of cycles (default 3; 20 by hand).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class FailoverKillIT {

    private static final String TOPIC = "KilledOver";
    private static final String GROUP = "broker-a";

    @TempDir
    Path dir;

    private final Map<String, Path> confs = new LinkedHashMap<>();
    private ChildJvms children;

    @Test
    void everyAcknowledgedMessageSurvivesMasterKills() throws Exception {
        int cycles = Integer.getInteger("failover.cycles", 3);
        try (NameServer namesrv = FailoverLoad.namesrvWithController(dir.resolve("ctl"));
             ChildJvms jvms = new ChildJvms(dir)) {
            children = jvms;
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            for (String name : List.of("a", "b")) {
                confs.put("127.0.0.1:" + FailoverLoad.writeBrokerConf(dir, name, namesrvAddr, namesrvAddr),
                        dir.resolve(name + ".conf"));
            }
            confs.keySet().forEach(this::startChild);
            Await.until("a master and an in-sync slave", 60_000, () -> inSync(namesrv) == 2,
                    () -> info(namesrv));
            ReplicaInfo first = info(namesrv).orElseThrow();
            FailoverLoad.createTopic(namesrvAddr, TOPIC, first.masterAddress());
            String slave = first.replicas().stream().filter(r -> r.brokerId() != first.masterBrokerId())
                    .findFirst().orElseThrow().address();
            Await.until("the slave to copy the topic", 30_000, () -> FailoverLoad.hasTopic(namesrvAddr, slave, TOPIC),
                    () -> slave);
            try (FailoverLoad load = new FailoverLoad(namesrvAddr, TOPIC)) {
                load.start();
                List<Long> failoverMs = new ArrayList<>();
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    load.awaitMoreAcks(200, 60_000);
                    ReplicaInfo before = info(namesrv).orElseThrow();
                    String master = before.masterAddress();
                    long killNanos = System.nanoTime();
                    kill(master);
                    long firstAck = load.awaitFirstAckAfter(killNanos, master, 60_000);
                    long ms = TimeUnit.NANOSECONDS.toMillis(firstAck - killNanos);
                    failoverMs.add(ms);
                    ReplicaInfo after = info(namesrv).orElseThrow();
                    System.out.printf("failover cycle %d: killed master %s (epoch %d), new master %s (epoch %d),"
                            + " kill to first acknowledged send %d ms%n", cycle, master, before.masterEpoch(),
                            after.masterAddress(), after.masterEpoch(), ms);
                    assertTrue(after.masterEpoch() > before.masterEpoch());
                    startChild(master);
                    Await.until("the killed broker back in the in-sync set", 60_000,
                            () -> inSync(namesrv) == 2, () -> info(namesrv));
                }
                freezeTheMaster(namesrv, load);
                load.awaitMoreAcks(200, 60_000);
                load.stop();
                List<Long> sorted = failoverMs.stream().sorted().toList();
                System.out.printf("failover over %d kill cycles: kill to first acknowledged send min %d ms, median"
                        + " %d ms, max %d ms; %d sends acknowledged, %d failed or refused%n", cycles,
                        sorted.get(0), sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1),
                        load.ackedCount(), load.failedCount());
                load.verify(namesrvAddr);
                assertEquals(cycles, failoverMs.size());
            }
        }
    }

    /**
     * SIGSTOP of the master (a partition, on one machine): the in-sync slave takes over; once woken (SIGCONT) the
     * old master cannot acknowledge what the new one lacks (its sends wait for a slave that left; the final read
     * back checks every acknowledged key) and rejoins as a slave.
     */
    private void freezeTheMaster(NameServer namesrv, FailoverLoad load) throws Exception {
        load.awaitMoreAcks(200, 60_000);
        ReplicaInfo before = info(namesrv).orElseThrow();
        String master = before.masterAddress();
        long freezeNanos = System.nanoTime();
        children.signal(master, "STOP");
        try {
            long firstAck = load.awaitFirstAckAfter(freezeNanos, master, 60_000);
            System.out.printf("failover after SIGSTOP of master %s: freeze to first acknowledged send %d ms%n",
                    master, TimeUnit.NANOSECONDS.toMillis(firstAck - freezeNanos));
        } finally {
            children.signal(master, "CONT");
        }
        Await.until("the woken master back as a slave in the in-sync set", 60_000,
                () -> inSync(namesrv) == 2 && !info(namesrv).orElseThrow().masterAddress().equals(master),
                () -> info(namesrv));
        assertTrue(info(namesrv).orElseThrow().masterEpoch() > before.masterEpoch());
    }

    private static Optional<ReplicaInfo> info(NameServer namesrv) {
        return namesrv.controller().orElseThrow().replicaInfo(GROUP);
    }

    private static int inSync(NameServer namesrv) {
        return info(namesrv).filter(i -> i.masterBrokerId() > 0).map(i -> i.syncStateSet().size()).orElse(0);
    }

    private void kill(String address) throws InterruptedException {
        children.kill(address);
    }

    private void startChild(String address) {
        Path conf = confs.get(address);
        children.start(address, conf.getFileName().toString(), FailoverChild.class, conf.toString());
    }
}
