package io.sluice.client;

import io.sluice.testing.Await;
import io.sluice.format.ConsumeQueueType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientTls;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sluice's client against a Sluice broker and name server (child JVM, standalone) with TLS enforcing and
 * authentication and authorization on: with TLS settings and the initial super user's credentials it creates a
 * topic, produces and consumes; with a wrong secret its sends are refused.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SecureClusterIT {

    private static TestCluster cluster;
    private static Path serverCert;

    @BeforeAll
    static void start() throws URISyntaxException {
        serverCert = resource("server.crt");
        List<String> conf = List.of(
                "tls.server.mode=enforcing",
                "tls.server.certPath=" + serverCert,
                "tls.server.keyPath=" + resource("server.key"),
                "tls.enable=true",
                "tls.client.trustCertPath=" + serverCert,
                "authenticationEnabled=true",
                "authorizationEnabled=true",
                "initAuthenticationUser={\"username\":\"root\",\"password\":\"root-secret\"}");
        cluster = TestCluster.startSluice(conf, settings -> settings.withTls(ClientTls.trusting(serverCert))
                .withCredentials("root", "root-secret"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(SecureClusterIT.class.getResource("/tls/" + name).toURI());
    }

    @Test
    void aSignedTlsClientProducesAndConsumes() throws Exception {
        String topic = ClusterExtension.createTopic(cluster, "Sealed", 2, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()).build())) {
            for (int i = 0; i < 10; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(Message.of(topic, ("sealed-" + i).getBytes()))
                        .status());
            }
        }
        Set<String> received = ConcurrentHashMap.newKeySet();
        PushConsumer consumer = PushConsumer.create(PushSettings.builder(cluster.connection()
                .withIntervals(30_000, 1000), "sealed-readers").consumeFrom(ConsumeFrom.FIRST_OFFSET)
                .rebalanceIntervalMs(1000).build());
        consumer.subscribe(topic, "*");
        consumer.registerListener(messages -> {
            messages.forEach(message -> received.add(new String(message.body())));
            return ConsumeStatus.SUCCESS;
        });
        consumer.start();
        try {
            Await.until("10 messages consumed over TLS with signed requests", () -> received.size() == 10);
        } finally {
            consumer.close();
        }
    }

    @Test
    void aWrongSecretIsRefused() {
        String topic = ClusterExtension.createTopic(cluster, "Sealed", 1, ConsumeQueueType.SIMPLE);
        try (Producer producer = Producer.start(ProducerSettings.builder(cluster.connection()
                .withCredentials("root", "wrong-secret")).build())) {
            Throwable thrown = assertThrows(ClientException.class,
                    () -> producer.send(Message.of(topic, "forged".getBytes())));
            while (thrown != null && !(thrown instanceof BrokerErrorException)) {
                thrown = thrown.getCause();
            }
            assertTrue(thrown instanceof BrokerErrorException, "a broker refusal");
            BrokerErrorException refused = (BrokerErrorException) thrown;
            assertEquals(ResponseCode.NO_PERMISSION, refused.code());
            assertTrue(refused.remark().contains("authentication failed"), refused.remark());
        }
    }
}
