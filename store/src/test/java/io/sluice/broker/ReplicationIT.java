package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.ReplicaPair;
import io.sluice.broker.testing.SameLog;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Master/slave replication with the unmodified Apache 5.3 client: a slave copies the master's CommitLog byte for
 * byte and catches up from its own end after a restart; SYNC_MASTER answers SLAVE_NOT_AVAILABLE and
 * FLUSH_SLAVE_TIMEOUT, and waits for inSyncReplicas replicas, itself included; the HA port refuses garbage and
 * impossible positions and the master keeps serving; consumers read from the slave, from the offsets copied from
 * the master, once the master is gone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicationIT {

    private static final String TOPIC = "Replicated";

    @TempDir
    Path dir;

    @Test
    void slaveCopiesTheLogByteForByteAndCatchesUpFromItsOwnEndAfterARestart() throws Exception {
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "ASYNC_MASTER", Map.of())) {
            pair.startSlave();
            withClients(pair, "replicated-pg", 4, (admin, producer) -> {
                Await.until("the route to list the slave", () -> slaveListed(admin, pair.slave().addressText()));
                sendSync(producer, "first", 300);
                awaitSameLog(pair);
                // What slave 1's link acknowledged, as a master in controller mode judges its in-sync set by it.
                long end = pair.master().store().logEndPosition();
                Await.until("the slave's link to acknowledge the master's end", 10_000,
                        () -> pair.master().haServer().slaveAcks().equals(Map.of(1L, end)),
                        () -> pair.master().haServer().slaveAcks() + " vs " + end);

                long endBefore = pair.slave().store().logEndPosition();
                pair.stopSlave();
                sendSync(producer, "second", 300);
                pair.startSlave();
                awaitSameLog(pair);
                long copied = pair.master().store().logEndPosition() - endBefore;
                // The copy counter moves just after the copied bytes are published in the slave's log.
                Await.until("the restarted slave to continue from its own end", 10_000,
                        () -> pair.slave().replica().storedBytes() == copied,
                        () -> pair.slave().replica().storedBytes() + " of " + copied);
                long total = 0;
                for (int queue = 0; queue < 4; queue++) {
                    int q = queue;
                    Await.until("queue " + q + " indexed on the slave", () -> pair.slave().store().maxOffset(TOPIC, q)
                            == pair.master().store().maxOffset(TOPIC, q));
                    total += pair.slave().store().maxOffset(TOPIC, queue);
                }
                assertEquals(600, total);
            });
        }
    }

    @Test
    void syncMasterAnswersWhetherASlaveHasTheMessage() throws Exception {
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "SYNC_MASTER", Map.of("syncFlushTimeout", "1000"))) {
            withClients(pair, "sync-pg", 4, (admin, producer) -> {
                assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, producer.send(message("alone")).getSendStatus());

                pair.startSlave();
                Await.until("the slave to connect", () -> pair.master().haServer().connectedSlaves() == 1);
                assertEquals(SendStatus.SEND_OK, producer.send(message("replicated")).getSendStatus());
                int asyncSends = 500;
                CountDownLatch done = new CountDownLatch(asyncSends);
                ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
                for (int i = 0; i < asyncSends; i++) {
                    producer.send(message("async-" + i), new SendCallback() {
                        @Override
                        public void onSuccess(SendResult result) {
                            outcomes.add(result.getSendStatus().name());
                            done.countDown();
                        }

                        @Override
                        public void onException(Throwable e) {
                            outcomes.add(e.toString());
                            done.countDown();
                        }
                    });
                }
                assertTrue(done.await(60, TimeUnit.SECONDS));
                assertEquals(asyncSends, outcomes.stream().filter("SEND_OK"::equals).count(), outcomes::toString);
                assertTrue(pair.slave().store().logEndPosition() >= pair.master().store().logEndPosition(),
                        "every acknowledged send is on the slave");

                pair.stopSlave();
                Await.until("the master to see the slave go", () -> pair.master().haServer().connectedSlaves() == 0);
                assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, producer.send(message("gone")).getSendStatus());

                // A slave that connects but never acknowledges: the send waits syncFlushTimeout, then is answered.
                try (Socket silent = connectHa(pair, pair.master().store().logEndPosition())) {
                    Await.until("the silent slave to connect", () -> pair.master().haServer().connectedSlaves() == 1);
                    long started = System.nanoTime();
                    assertEquals(SendStatus.FLUSH_SLAVE_TIMEOUT, producer.send(message("late")).getSendStatus());
                    assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(900));
                    assertTrue(pair.master().syncReplication().timedOutCount() >= 1);
                }
            });
        }
    }

    @Test
    void syncMasterWaitsForInSyncReplicasCountingItself() throws Exception {
        Map<String, String> twoReplicas = Map.of("inSyncReplicas", "2", "syncFlushTimeout", "1000");
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "SYNC_MASTER", twoReplicas)) {
            pair.startSlave();
            pair.startSlave(2, Map.of());
            withClients(pair, "two-replicas-pg", 4, (admin, producer) -> {
                Await.until("both slaves to connect", () -> pair.master().haServer().connectedSlaves() == 2);
                sendSync(producer, "both", 20);
                pair.stopSlave(2);
                // The master and slave 1 make two replicas: slave 2's absence does not matter.
                sendSync(producer, "one", 20);
                assertTrue(pair.slave().store().logEndPosition() >= pair.master().store().logEndPosition(),
                        "every acknowledged send is on slave 1");
                pair.stopSlave(1);
                Await.until("the master to see both slaves go", () -> pair.master().haServer().connectedSlaves() == 0);
                assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, producer.send(message("none")).getSendStatus());
            });
        }
        try (ReplicaPair pair = ReplicaPair.startMaster(dir.resolve("three"), "SYNC_MASTER",
                Map.of("inSyncReplicas", "3", "syncFlushTimeout", "1000"))) {
            pair.startSlave();
            withClients(pair, "three-replicas-pg", 4, (admin, producer) -> {
                Await.until("slave 1 to connect", () -> pair.master().haServer().connectedSlaves() == 1);
                assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, producer.send(message("short")).getSendStatus(),
                        "three replicas needed, two connected");
                pair.startSlave(2, Map.of());
                Await.until("slave 2 to connect", () -> pair.master().haServer().connectedSlaves() == 2);
                sendSync(producer, "three", 20);
                long end = pair.master().store().logEndPosition();
                assertTrue(pair.slave().store().logEndPosition() >= end && pair.slave(2).store().logEndPosition()
                        >= end, "every acknowledged send is on both slaves");
            });
        }
    }

    @Test
    void haPortRefusesGarbageAndPositionsBeyondTheEndAndTheMasterKeepsServing() throws Exception {
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "ASYNC_MASTER", Map.of())) {
            pair.startSlave();
            withClients(pair, "garbage-pg", 4, (admin, producer) -> {
                sendSync(producer, "before", 20);
                awaitSameLog(pair);

                try (Socket garbage = new Socket("127.0.0.1", pair.master().haServer().port())) {
                    garbage.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    assertEquals(-1, readUntilClosed(garbage.getInputStream()), "refused: closed by the master");
                }
                assertEquals(1, pair.master().haServer().refusedCount());
                long beyond = pair.master().store().logEndPosition() + 1_000_000;
                try (Socket ahead = connectHa(pair, beyond)) {
                    assertEquals(-1, readUntilClosed(ahead.getInputStream()), "refused: closed by the master");
                }
                assertEquals(2, pair.master().haServer().refusedCount());
                try (Socket lying = connectHa(pair, 0, -1)) {
                    assertEquals(-1, readUntilClosed(lying.getInputStream()), "refused: closed by the master");
                }
                assertEquals(3, pair.master().haServer().refusedCount());

                sendSync(producer, "after", 20);
                awaitSameLog(pair);
                assertEquals(1, pair.master().haServer().connectedSlaves());
            });
        }
    }

    @Test
    void consumersReadFromTheSlaveFromTheCopiedOffsetsOnceTheMasterIsGone() throws Exception {
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "ASYNC_MASTER", Map.of("slaveReadEnable", "true"))) {
            pair.startSlave();
            String group = "reads-cg";
            withClients(pair, "reads-pg", 2, (admin, producer) -> {
                sendSync(producer, "old", 40);
                Set<String> old = ConcurrentHashMap.newKeySet();
                DefaultMQPushConsumer first = consumer(pair, group, old);
                try {
                    Await.until("the first consumer to read every old message", 30_000, () -> old.size() == 40,
                            old::size);
                    Await.until("the slave to copy the committed offsets", 30_000,
                            () -> committed(pair.slave(), group) == 40, () -> committed(pair.slave(), group));
                } finally {
                    first.shutdown();
                }
                sendSync(producer, "new", 30);
                awaitSameLog(pair);
                pair.stopMaster();

                Set<String> fresh = ConcurrentHashMap.newKeySet();
                DefaultMQPushConsumer second = consumer(pair, group, fresh);
                try {
                    Await.until("every new message read from the slave", 60_000, () -> fresh.size() >= 30,
                            fresh::size);
                    assertTrue(fresh.stream().allMatch(body -> body.startsWith("new-")), fresh::toString);
                    assertTrue(pair.slave().pullHandler().transferredMessages() >= 30);
                } finally {
                    second.shutdown();
                }
            });
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** What a test does with an admin client and a started producer; the topic exists on the master. */
    private interface WithClients {
        void run(DefaultMQAdminExt admin, DefaultMQProducer producer) throws Exception;
    }

    /** Creates {@link #TOPIC} with {@code queues} queues on the master, runs {@code body}, stops the clients. */
    private static void withClients(ReplicaPair pair, String producerGroup, int queues, WithClients body)
            throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(pair.namesrvAddr());
        DefaultMQProducer producer = ApacheClients.producer(pair.namesrvAddr(), producerGroup);
        try {
            admin.start();
            admin.createAndUpdateTopicConfig(pair.master().addressText(), new TopicConfig(TOPIC, queues, queues, 6));
            producer.start();
            body.run(admin, producer);
        } finally {
            producer.shutdown();
            admin.shutdown();
        }
    }

    private static DefaultMQPushConsumer consumer(ReplicaPair pair, String group, Set<String> bodies)
            throws Exception {
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(pair.namesrvAddr(), group);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt m : messages) {
                bodies.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    private static long committed(Broker broker, String group) {
        long sum = 0;
        for (int queue = 0; queue < 2; queue++) {
            sum += Math.max(0, broker.metadata().queryOffset(group, TOPIC, queue));
        }
        return sum;
    }

    private static boolean slaveListed(DefaultMQAdminExt admin, String slaveAddr) {
        try {
            for (BrokerData broker : admin.examineTopicRouteInfo(TOPIC).getBrokerDatas()) {
                if (slaveAddr.equals(broker.getBrokerAddrs().get(1L))) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    private static void sendSync(DefaultMQProducer producer, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            assertEquals(SendStatus.SEND_OK, producer.send(message(prefix + "-" + i)).getSendStatus());
        }
    }

    private static Message message(String body) {
        return new Message(TOPIC, "tag", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void awaitSameLog(ReplicaPair pair) {
        SameLog.await(pair.master().store(), pair.slave().store());
    }

    /** A raw HA connection that sends one slave hello (no epochs) at {@code position} and nothing else. */
    private static Socket connectHa(ReplicaPair pair, long position) throws IOException {
        return connectHa(pair, position, 0);
    }

    /**
     * A raw HA connection that sends one unsigned slave hello of brokerId 9 and claims {@code epochCount} epochs
     * (none follow).
     */
    private static Socket connectHa(ReplicaPair pair, long position, int epochCount) throws IOException {
        Socket socket = new Socket("127.0.0.1", pair.master().haServer().port());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(0x534C4849);
        out.writeLong(9);
        out.writeLong(position);
        out.writeInt(epochCount);
        out.writeLong(System.currentTimeMillis());
        out.writeLong(System.nanoTime());
        out.writeShort(0);
        out.flush();
        return socket;
    }

    /** Reads and drops what arrives until the peer closes; the last read's result (-1 at the end). */
    private static int readUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        int n;
        do {
            n = in.read(buffer);
        } while (n >= 0);
        return n;
    }
}
