package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerSettings;
import io.sluice.broker.testing.SameLog;
import io.sluice.namesrv.NameServer;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Automatic failover in one process: a name server embedding a single controller, and two brokers of one group in
 * controller mode (SYNC_MASTER when elected) on free loopback ports. The master is closed under load from the
 * unmodified Apache producer (sync and async sends); the controller elects the in-sync slave with the next epoch,
 * the name server routes to it and the sends go on; the old master comes back as a slave of the new one. Every
 * acknowledged message is stored exactly once. An old master whose log holds a tail the new master lacks is told
 * by the new master's HA handshake where to cut it, and copies from there. A SYNC_MASTER acknowledges a send only
 * once every slave of the in-sync set has it (allAckInSyncStateSet), or with allAckInSyncStateSet=false once
 * inSyncReplicas replicas have it, and refuses sends while the in-sync set is below minInSyncReplicas.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FailoverIT {

    private static final String TOPIC = "FailingOver";
    /**
     * What a test's steps may take together: each wait and blocking call is bounded by its own deadline and by what
     * is left of this, so a test that stalls fails naming the step, not at the class timeout. The cleanup's bounds
     * (four closes of {@link #CLEANUP_MS} and the load's stop, 80 s) come on top: 280 s, within the 300 s timeout.
     */
    private static final long BUDGET_MS = 200_000;
    /** Bound of each close at the end of a test; closing the load (stop, then its producer's shutdown) 20 s. */
    private static final long CLEANUP_MS = 15_000;
    private static final long LOAD_CLEANUP_MS = 20_000;
    /** Bound of a blocking call: a broker's start or close, creating a topic, a batch of sends. */
    private static final long CALL_MS = 20_000;

    @TempDir
    Path dir;

    private final Steps steps = new Steps(BUDGET_MS);

    @Test
    void theInSyncSlaveTakesOverAndTheOldMasterRejoinsAsItsSlave() throws Exception {
        NameServer namesrv = steps.call("start the name server", CALL_MS,
                () -> FailoverLoad.namesrvWithController(dir.resolve("ctl")));
        try (AutoCloseable closeNamesrv = steps.closer("close the name server", CLEANUP_MS, namesrv::close)) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            FailoverBroker a = start(namesrvAddr, "a");
            try (AutoCloseable closeA = steps.closer("close a", CLEANUP_MS, a::close)) {
                steps.until("a to be elected master", 20_000, () -> a.role() == FailoverBroker.Role.MASTER,
                        () -> cluster(namesrv, a));
                FailoverBroker b = start(namesrvAddr, "b");
                try (AutoCloseable closeB = steps.closer("close b", CLEANUP_MS, b::close)) {
                    steps.until("b to follow a", 20_000, () -> b.role() == FailoverBroker.Role.SLAVE,
                            () -> cluster(namesrv, a, b));
                    steps.run("create the topic", CALL_MS, () -> FailoverLoad.createTopic(namesrvAddr, TOPIC,
                            a.broker().orElseThrow().addressText()));
                    steps.until("b to copy the topic", 20_000, () -> b.broker()
                            .map(broker -> broker.metadata().getTopic(TOPIC).isPresent()).orElse(false),
                            () -> cluster(namesrv, a, b));
                    steps.until("b in the in-sync set", 30_000, () -> inSync(namesrv) == 2,
                            () -> cluster(namesrv, a, b));
                    FailoverLoad load = steps.call("start the producer", CALL_MS,
                            () -> new FailoverLoad(namesrvAddr, TOPIC));
                    try (AutoCloseable closeLoad = steps.closer("close the load", LOAD_CLEANUP_MS, load::close)) {
                        load.start();
                        awaitMoreAcks(load, "300 acknowledged sends before the kill", namesrv, a, b);
                        long killNanos = System.nanoTime();
                        steps.run("close master a under load", CALL_MS, a::close);
                        steps.until("b to be elected master", 20_000, () -> b.role() == FailoverBroker.Role.MASTER,
                                () -> cluster(namesrv, a, b));
                        long firstAckNanos = steps.call("a send acknowledged by b", 30_000,
                                () -> load.awaitFirstAckAfter(killNanos, a.address(), 30_000,
                                        () -> cluster(namesrv, a, b)));
                        System.out.printf("failover: kill to first acknowledged send %d ms (epoch %d)%n",
                                TimeUnit.NANOSECONDS.toMillis(firstAckNanos - killNanos), b.epoch());
                        assertEquals(2, b.epoch(), () -> cluster(namesrv, a, b));
                        awaitMoreAcks(load, "300 acknowledged sends after the failover", namesrv, a, b);

                        FailoverBroker back = start(namesrvAddr, "a");
                        try (AutoCloseable closeBack = steps.closer("close a (rejoined)", CLEANUP_MS, back::close)) {
                            steps.until("a to rejoin as slave of b", 30_000,
                                    () -> back.role() == FailoverBroker.Role.SLAVE, () -> cluster(namesrv, back, b));
                            steps.until("a back in the in-sync set", 30_000, () -> inSync(namesrv) == 2,
                                    () -> cluster(namesrv, back, b));
                            awaitMoreAcks(load, "300 acknowledged sends with a back", namesrv, back, b);
                            steps.run("stop the load", 50_000, load::stop);
                            assertTrue(back.epochs().size() >= 2, back.epochs()::toString);
                            steps.run("read every message back", 180_000, () -> load.verify(namesrvAddr, steps));
                            System.out.println("failover steps: " + steps.timeline());
                        }
                    }
                }
            }
        }
    }

    /** Waits for 300 more acknowledged sends of {@code load}, as a step named {@code what}. */
    private void awaitMoreAcks(FailoverLoad load, String what, NameServer namesrv, FailoverBroker... brokers) {
        int target = load.ackedCount() + 300;
        steps.until(what, 30_000, () -> load.ackedCount() >= target, () -> load.ackedCount() + " of " + target
                + ", " + load.failedCount() + " failed sends" + cluster(namesrv, brokers));
    }

    /** The controller's view of the group and each broker's, for failure messages. */
    private static String cluster(NameServer namesrv, FailoverBroker... brokers) {
        StringBuilder text = new StringBuilder("; controller: ").append(namesrv.controller()
                .flatMap(controller -> controller.replicaInfo("broker-a")).map(Object::toString).orElse("no group"));
        for (FailoverBroker broker : brokers) {
            text.append("; ").append(broker.address()).append(": ").append(broker.role()).append(" at epoch ")
                    .append(broker.epoch()).append(", log end ").append(endOf(broker)).append(", epochs ")
                    .append(broker.epochs());
        }
        return text.toString();
    }

    @Test
    void theHandshakeCutsAnOldMastersDivergentTailBeforeItCopies() throws Exception {
        try (NameServer namesrv = FailoverLoad.namesrvWithController(dir.resolve("ctl"))) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            FailoverBroker a = start(namesrvAddr, "a", Map.of("syncFlushTimeout", "1000"));
            // b's lease outlives it by 30 s, so that a keeps b in the in-sync set while it stores what b lacks.
            FailoverBroker b = startInSyncSlave(namesrv, namesrvAddr, a, "b",
                    Map.of("controllerHeartBeatTimeoutMills", "30000"));
            DefaultMQProducer producer = ApacheClients.producer(namesrvAddr, "divergent-pg");
            producer.start();
            try {
                assertEquals(SendStatus.SEND_OK, send(producer, 20));
                steps.until("b to have every acknowledged message", 20_000, () -> endOf(b) == endOf(a),
                        () -> endOf(b) + " vs " + endOf(a));
                steps.run("close b", CALL_MS, b::close);
                // Stored on a only: b, still in the in-sync set, is gone.
                assertTrue(send(producer, 10) != SendStatus.SEND_OK);
            } finally {
                producer.shutdown();
            }
            long oldMasterEnd = endOf(a);
            steps.run("close a", CALL_MS, a::close);

            FailoverBroker newMaster = start(namesrvAddr, "b");
            steps.until("b to be elected master", 40_000, () -> newMaster.role() == FailoverBroker.Role.MASTER,
                    () -> cluster(namesrv, newMaster));
            long newMasterStart = newMaster.epochs().get(newMaster.epochs().size() - 1).startPosition();
            assertTrue(newMasterStart < oldMasterEnd, newMasterStart + " vs " + oldMasterEnd);

            FailoverBroker oldMaster = start(namesrvAddr, "a");
            // The in-sync set, which elections choose from, takes a in only once a shares b's log: not while a's log
            // still holds the tail b lacks (a's heartbeats report that log's end, beyond b's end at the election).
            String[] inSyncBeforeTheCut = {""};
            steps.until("a to follow b after cutting its tail", 40_000, () -> {
                boolean inSync = inSync(namesrv) == 2;
                if (inSync && oldMaster.truncatedBytes() == 0 && inSyncBeforeTheCut[0].isEmpty()) {
                    inSyncBeforeTheCut[0] = "a is in the in-sync set with its tail uncut"
                            + cluster(namesrv, newMaster, oldMaster);
                }
                return oldMaster.role() == FailoverBroker.Role.SLAVE && oldMaster.truncatedBytes() > 0 && inSync;
            }, () -> oldMaster.truncatedBytes() + " bytes cut" + cluster(namesrv, newMaster, oldMaster));
            assertEquals("", inSyncBeforeTheCut[0]);
            assertEquals(oldMasterEnd - newMasterStart, oldMaster.truncatedBytes());
            assertTrue(newMaster.broker().orElseThrow().haServer().divergentCount() >= 1);
            DefaultMQProducer again = ApacheClients.producer(namesrvAddr, "divergent-pg2");
            again.start();
            try {
                assertEquals(SendStatus.SEND_OK, send(again, 20));
            } finally {
                again.shutdown();
            }
            steps.run("a's log to be b's", 40_000, () -> SameLog.await(newMaster.broker().orElseThrow().store(),
                    oldMaster.broker().orElseThrow().store()));
            assertEquals(newMaster.epochs(), oldMaster.epochs());
        }
    }

    @Test
    void aSyncMasterWaitsForEveryInSyncSlave() throws Exception {
        // 3 s, not 1 s: every send of the setup waits for all three brokers, on a shared 2-core machine. Leases of
        // 8 s, not 3 s: c, stopped, must stay in the in-sync set until the 3 s wait below has timed out.
        Map<String, String> allAck = Map.of("allAckInSyncStateSet", "true", "syncFlushTimeout", "3000",
                "controllerHeartBeatTimeoutMills", "8000");
        afterCStopsOfThreeInSync(allAck, "every-slave-pg", (namesrv, producer) -> {
            // b alone has it: not acknowledged while c is in the in-sync set; the send waits for c in vain.
            long startedNanos = System.nanoTime();
            assertEquals(SendStatus.FLUSH_SLAVE_TIMEOUT, send(producer, 1));
            assertTrue(System.nanoTime() - startedNanos >= TimeUnit.MILLISECONDS.toNanos(2_900));
            assertEquals(3, inSync(namesrv), "c is still in the in-sync set");
            steps.until("a to take c out of the in-sync set", 40_000, () -> inSync(namesrv) == 2,
                    () -> inSync(namesrv));
            // a learns that the controller applied its change when its call returns, a moment after the test.
            steps.until("a send acknowledged by a and b", 10_000, () -> sendOne(producer) == SendStatus.SEND_OK,
                    () -> "not yet");
            assertEquals(SendStatus.SEND_OK, send(producer, 10));
        });
    }

    @Test
    void withoutAllAckASyncMasterWaitsForInSyncReplicasCountingItself() throws Exception {
        Map<String, String> twoOfThree = Map.of("allAckInSyncStateSet", "false", "inSyncReplicas", "2");
        afterCStopsOfThreeInSync(twoOfThree, "two-of-three-pg", (namesrv, producer) -> {
            // The master and b make two replicas: acknowledged at once, while c is still in the in-sync set.
            assertEquals(SendStatus.SEND_OK, send(producer, 10));
            assertEquals(3, inSync(namesrv), "c is still in the in-sync set");
        });
    }

    /** What a test does once c, one of three in-sync brokers, stopped. */
    private interface AfterCStops {
        void run(NameServer namesrv, DefaultMQProducer producer) throws Exception;
    }

    /**
     * Starts a (master), b and c of group broker-a, all with {@code extra} keys; once the in-sync set holds all
     * three, sends 10 messages (acknowledged), stops c and runs {@code body} with a started producer.
     */
    private void afterCStopsOfThreeInSync(Map<String, String> extra, String producerGroup, AfterCStops body)
            throws Exception {
        try (NameServer namesrv = FailoverLoad.namesrvWithController(dir.resolve("ctl"))) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            FailoverBroker a = start(namesrvAddr, "a", extra);
            startInSyncSlave(namesrv, namesrvAddr, a, "b", extra);
            FailoverBroker c = start(namesrvAddr, "c", extra);
            steps.until("b and c in the in-sync set", 30_000, () -> inSync(namesrv) == 3, () -> inSync(namesrv));
            DefaultMQProducer producer = ApacheClients.producer(namesrvAddr, producerGroup);
            producer.start();
            try {
                // c has just joined the in-sync set: the first send may wait for it to catch up.
                steps.until("a send acknowledged by all three", 30_000,
                        () -> sendOne(producer) == SendStatus.SEND_OK, () -> "not yet");
                assertEquals(SendStatus.SEND_OK, send(producer, 10));
                steps.run("close c", CALL_MS, c::close);
                body.run(namesrv, producer);
            } finally {
                producer.shutdown();
            }
        }
    }

    @Test
    void aSyncMasterRefusesSendsWhileTheInSyncSetIsBelowMinInSyncReplicas() throws Exception {
        try (NameServer namesrv = FailoverLoad.namesrvWithController(dir.resolve("ctl"))) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            Map<String, String> twoReplicas = Map.of("minInSyncReplicas", "2");
            FailoverBroker a = start(namesrvAddr, "a", twoReplicas);
            steps.until("a to be elected master", 20_000, () -> a.role() == FailoverBroker.Role.MASTER, a::role);
            steps.run("create the topic", CALL_MS, () -> FailoverLoad.createTopic(namesrvAddr, TOPIC,
                    a.broker().orElseThrow().addressText()));
            DefaultMQProducer producer = ApacheClients.producer(namesrvAddr, "min-in-sync-pg");
            producer.setRetryTimesWhenSendFailed(0);
            producer.start();
            try {
                long endBefore = endOf(a);
                MQClientException refused = assertThrows(MQClientException.class, () -> send(producer, 1));
                assertEquals(ResponseCode.SYSTEM_ERROR, refused.getResponseCode());
                MQBrokerException cause = (MQBrokerException) refused.getCause();
                assertTrue(cause.getErrorMessage().contains("in-sync replicas not enough"), cause::toString);
                assertEquals(endBefore, endOf(a), "a refused send is not stored");

                start(namesrvAddr, "b", twoReplicas);
                steps.until("b in the in-sync set", 30_000, () -> inSync(namesrv) == 2, () -> inSync(namesrv));
                assertEquals(SendStatus.SEND_OK, send(producer, 10));
            } finally {
                producer.shutdown();
            }
        }
    }

    /** Stops every broker a test started (closing one twice does nothing). */
    @AfterEach
    void closeStarted() throws Exception {
        for (FailoverBroker broker : started) {
            steps.closer("close " + broker.address(), CLEANUP_MS, broker::close).close();
        }
    }

    /** Starts broker {@code name} (with {@code extra} keys) as the in-sync slave of master {@code a}; the topic. */
    private FailoverBroker startInSyncSlave(NameServer namesrv, String namesrvAddr, FailoverBroker a, String name,
                                            Map<String, String> extra) throws Exception {
        steps.until("a to be elected master", 20_000, () -> a.role() == FailoverBroker.Role.MASTER, a::role);
        FailoverBroker slave = start(namesrvAddr, name, extra);
        steps.until(name + " to follow a", 20_000, () -> slave.role() == FailoverBroker.Role.SLAVE, slave::role);
        steps.run("create the topic", CALL_MS, () -> FailoverLoad.createTopic(namesrvAddr, TOPIC,
                a.broker().orElseThrow().addressText()));
        steps.until(name + " in the in-sync set", 30_000, () -> inSync(namesrv) == 2, () -> inSync(namesrv));
        return slave;
    }

    /**
     * Sends {@code count} messages one by one, a step bounded by {@link #CALL_MS}; the status of the last one that
     * was not SEND_OK, else SEND_OK.
     */
    private SendStatus send(DefaultMQProducer producer, int count) throws Exception {
        return steps.call("send " + count + " messages", CALL_MS, () -> sendNow(producer, count));
    }

    private static SendStatus sendNow(DefaultMQProducer producer, int count) throws Exception {
        SendStatus status = SendStatus.SEND_OK;
        for (int i = 0; i < count; i++) {
            SendStatus one = producer.send(new Message(TOPIC, ("m" + i).getBytes(StandardCharsets.UTF_8)))
                    .getSendStatus();
            if (one != SendStatus.SEND_OK) {
                status = one;
            }
        }
        return status;
    }

    /** One send's status; null when it failed. */
    private static SendStatus sendOne(DefaultMQProducer producer) {
        try {
            return sendNow(producer, 1);
        } catch (Exception e) {
            return null;
        }
    }

    private static long endOf(FailoverBroker broker) {
        return broker.broker().map(running -> running.store().logEndPosition()).orElse(-1L);
    }

    private static int inSync(NameServer namesrv) {
        return namesrv.controller().orElseThrow().replicaInfo("broker-a").map(ReplicaInfo::syncStateSet)
                .map(java.util.Set::size).orElse(0);
    }

    private FailoverBroker start(String namesrvAddr, String name) throws Exception {
        return start(namesrvAddr, name, Map.of());
    }

    /** Starts broker {@code name} of group broker-a with {@code extra} broker.conf keys. */
    private FailoverBroker start(String namesrvAddr, String name, Map<String, String> extra) throws Exception {
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
        conf.putAll(extra);
        BrokerSettings.Builder settings = BrokerSettings.builder();
        conf.forEach(settings::setText);
        FailoverBroker broker = new FailoverBroker(settings.build());
        started.add(broker);
        steps.run("start " + name, CALL_MS, broker::start);
        return broker;
    }

    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final List<FailoverBroker> started = new ArrayList<>();

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
