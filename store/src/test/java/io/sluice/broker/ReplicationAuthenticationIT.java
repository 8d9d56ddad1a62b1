package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.ReplicaPair;
import io.sluice.broker.testing.SameLog;
import io.sluice.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HA channel of a master with {@code authenticationEnabled}: a slave whose hello is signed with the inner
 * credentials copies the log; one with a wrong secret or none is refused, says why in its log, and copies nothing,
 * while the master's log (written by the unmodified Apache producer, signing with {@code AclClientRPCHook}) stays
 * as it was. Without {@code authenticationEnabled} a master takes signed and unsigned slaves alike.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicationAuthenticationIT {

    /** The brokers' inner credentials: the master's inner user, and what a slave signs its hello with. */
    private static final String INNER = "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}";
    @TempDir
    Path dir;
    private static final String TOPIC = "ReplicatedSecurely";

    @Test
    void onlyASlaveSigningWithKnownCredentialsCopiesTheLog() throws Exception {
        Map<String, String> common = Map.of("authenticationEnabled", "true",
                "innerClientAuthenticationCredentials", INNER);
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "ASYNC_MASTER", common)) {
            RPCHook signing = new AclClientRPCHook(new SessionCredentials("inner", "inner-secret"));
            DefaultMQAdminExt admin = new DefaultMQAdminExt(signing, 10_000);
            admin.setNamesrvAddr(pair.namesrvAddr());
            admin.setInstanceName(ApacheClients.instance("ha-auth-admin"));
            DefaultMQProducer producer = new DefaultMQProducer("ha-auth-pg", signing);
            producer.setNamesrvAddr(pair.namesrvAddr());
            producer.setInstanceName(ApacheClients.instance("ha-auth-producer"));
            fillMaster(pair, admin, producer, 50);
            long masterEnd = pair.master().store().logEndPosition();
            assertTrue(masterEnd > 0);

            assertRefused(pair, Map.of("innerClientAuthenticationCredentials",
                    "{\"accessKey\":\"inner\",\"secretKey\":\"not-the-secret\"}"), 1);
            assertRefused(pair, Map.of("innerClientAuthenticationCredentials", ""), 2);
            assertEquals(masterEnd, pair.master().store().logEndPosition(), "the master's log is untouched");

            Broker slave = pair.startSlave(1, Map.of());
            SameLog.await(pair.master().store(), slave.store());
            // The copy counter moves just after the copied bytes are published in the slave's log.
            Await.until("the signed slave to count the whole log copied", 10_000,
                    () -> slave.replica().storedBytes() == masterEnd, () -> slave.replica().storedBytes());
            assertEquals(0, slave.replica().refusals());
        }
    }

    @Test
    void withoutAuthenticationAMasterTakesSignedAndUnsignedSlavesAlike() throws Exception {
        try (ReplicaPair pair = ReplicaPair.startMaster(dir, "ASYNC_MASTER", Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(pair.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(pair.namesrvAddr(), "ha-open-pg");
            fillMaster(pair, admin, producer, 20);
            Broker signed = pair.startSlave(1, Map.of("innerClientAuthenticationCredentials", INNER));
            Broker unsigned = pair.startSlave(2, Map.of());
            SameLog.await(pair.master().store(), signed.store());
            SameLog.await(pair.master().store(), unsigned.store());
            assertEquals(0, pair.master().haServer().refusedCount());
        }
    }

    /** Creates the topic on the master, sends {@code count} messages (each SEND_OK), then stops both clients. */
    private static void fillMaster(ReplicaPair pair, DefaultMQAdminExt admin, DefaultMQProducer producer, int count)
            throws Exception {
        try {
            admin.start();
            admin.createAndUpdateTopicConfig(pair.master().addressText(), new TopicConfig(TOPIC, 2, 2, 6));
            producer.start();
            for (int i = 0; i < count; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(new Message(TOPIC,
                        ("m" + i).getBytes(StandardCharsets.UTF_8))).getSendStatus());
            }
        } finally {
            producer.shutdown();
            admin.shutdown();
        }
    }

    /** Starts slave 1 with {@code credentials}: refused until it is stopped, having copied nothing. */
    private static void assertRefused(ReplicaPair pair, Map<String, String> credentials, long refusedSoFar)
            throws Exception {
        Broker slave = pair.startSlave(1, credentials);
        try {
            Await.until("the master to refuse the slave", () -> pair.master().haServer().refusedCount()
                    >= refusedSoFar && slave.replica().refusals() >= 1, () -> pair.master().haServer().refusedCount());
            assertEquals(0, pair.master().haServer().connectedSlaves());
            assertEquals(0, slave.replica().storedBytes(), "the refused slave copies nothing");
            assertEquals(0, slave.store().logEndPosition());
        } finally {
            pair.stopSlave();
        }
    }
}
