package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.ReplicaPair;
import io.sluice.broker.testing.SameLog;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsMode;
import io.sluice.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the HA channel, the master written by the unmodified Apache producer over TLS: an enforcing master
 * replicates to a slave with {@code tls.enable} byte for byte and refuses a plain slave, which copies nothing; a
 * permissive master serves a TLS and a plain slave at once; a master requiring client certificates refuses a
 * slave without one and serves one presenting {@code tls.client.certPath}. The name server is permissive, so
 * plain and TLS brokers both register.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReplicationTlsIT {

    private static final String TOPIC = "ReplicatedSealed";
    private static final Map<String, String> PLAIN_SLAVE = Map.of("tls.enable", "false");

    @TempDir
    Path dir;

    @Test
    void anEnforcingMasterReplicatesToATlsSlaveAndRefusesAPlainOne() throws Exception {
        try (ReplicaPair pair = start(tls("enforcing"))) {
            fillMaster(pair, 0, 40, false);
            long masterEnd = pair.master().store().logEndPosition();
            assertTrue(masterEnd > 0);

            Broker plain = pair.startSlave(1, PLAIN_SLAVE);
            Await.until("the master to refuse the plain slave", () -> pair.master().haServer().refusedCount() >= 1
                    && plain.replica().refusals() >= 1, () -> pair.master().haServer().refusedCount());
            assertEquals(0, plain.replica().storedBytes(), "the plain slave copies nothing");
            assertEquals(0, plain.store().logEndPosition());
            assertEquals(0, pair.master().haServer().connectedSlaves());
            pair.stopSlave();

            Broker sealed = pair.startSlave(2, Map.of());
            SameLog.await(pair.master().store(), sealed.store());
            fillMaster(pair, 40, 40, false);
            SameLog.await(pair.master().store(), sealed.store());
            assertTrue(sealed.replica().tlsSessions() >= 1, "the slave copied over TLS");
            assertTrue(pair.master().haServer().tlsSessionCount() >= 1);
            assertEquals(0, sealed.replica().refusals());
        }
    }

    @Test
    void aPermissiveMasterServesATlsAndAPlainSlave() throws Exception {
        try (ReplicaPair pair = start(tls("permissive"))) {
            fillMaster(pair, 0, 30, false);
            Broker sealed = pair.startSlave(1, Map.of());
            Broker plain = pair.startSlave(2, PLAIN_SLAVE);
            SameLog.await(pair.master().store(), sealed.store());
            SameLog.await(pair.master().store(), plain.store());
            assertTrue(sealed.replica().tlsSessions() >= 1, "one slave over TLS");
            assertEquals(0, plain.replica().tlsSessions(), "the other plain");
            assertEquals(0, pair.master().haServer().refusedCount());
        }
    }

    @Test
    void aMasterRequiringClientCertificatesRefusesASlaveWithoutOne() throws Exception {
        Map<String, String> conf = tls("enforcing");
        conf.put("tls.server.need.client.auth", "require");
        conf.put("tls.server.trustCertPath", TestCertificates.resource("client.crt").toString());
        try (ReplicaPair pair = start(conf)) {
            fillMaster(pair, 0, 30, true);
            long masterEnd = pair.master().store().logEndPosition();

            Broker without = pair.startSlave(1, Map.of());
            Await.until("the master to refuse the slave without a certificate",
                    () -> pair.master().haServer().refusedCount() >= 1, () -> pair.master().haServer().refusedCount());
            assertEquals(0, without.replica().sessions(), "no channel was opened");
            assertEquals(0, without.replica().storedBytes(), "the slave without a certificate copies nothing");
            assertEquals(0, without.store().logEndPosition());
            pair.stopSlave();
            assertEquals(masterEnd, pair.master().store().logEndPosition(), "the master's log is untouched");

            Broker with = pair.startSlave(2, Map.of(
                    "tls.client.certPath", TestCertificates.resource("client.crt").toString(),
                    "tls.client.keyPath", TestCertificates.resource("client.key").toString()));
            SameLog.await(pair.master().store(), with.store());
            assertTrue(with.replica().tlsSessions() >= 1);
        }
    }

    /**
     * Both brokers' TLS: the client and HA ports in {@code mode} with the server certificate, and their own
     * connections over TLS, trusting it.
     */
    private static Map<String, String> tls(String mode) throws Exception {
        Map<String, String> conf = new HashMap<>();
        conf.put("tls.server.mode", mode);
        conf.put("tls.server.certPath", TestCertificates.resource("server.crt").toString());
        conf.put("tls.server.keyPath", TestCertificates.resource("server.key").toString());
        conf.put("tls.enable", "true");
        conf.put("tls.client.trustCertPath", TestCertificates.resource("server.crt").toString());
        return conf;
    }

    private ReplicaPair start(Map<String, String> conf) throws Exception {
        return ReplicaPair.startMaster(dir, "ASYNC_MASTER", conf, ServerTls.of(TlsMode.PERMISSIVE,
                TestCertificates.resource("server.crt"), TestCertificates.resource("server.key")));
    }

    /**
     * Creates the topic on the master and sends {@code count} messages over TLS (each SEND_OK), presenting the
     * client certificate when {@code certified}; then stops both clients.
     */
    private static void fillMaster(ReplicaPair pair, int from, int count, boolean certified) throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(pair.namesrvAddr());
        admin.setUseTLS(true);
        DefaultMQProducer producer = ApacheClients.producer(pair.namesrvAddr(), "ha-tls-pg");
        producer.setUseTLS(true);
        try {
            if (certified) {
                TestCertificates.withClientCertificate(admin::start);
                TestCertificates.withClientCertificate(producer::start);
            } else {
                admin.start();
                producer.start();
            }
            admin.createAndUpdateTopicConfig(pair.master().addressText(), new TopicConfig(TOPIC, 2, 2, 6));
            for (int i = from; i < from + count; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(new Message(TOPIC,
                        ("sealed-" + i).getBytes(StandardCharsets.UTF_8))).getSendStatus());
            }
        } finally {
            producer.shutdown();
            admin.shutdown();
        }
    }
}
