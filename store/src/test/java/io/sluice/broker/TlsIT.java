package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsMode;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the name server and the broker with the unmodified Apache 5.3 client: {@code setUseTLS(true)} in its
 * default test mode (any server certificate trusted), and with {@code TlsSystemConfig}'s client-certificate
 * settings ({@code tls.test.mode.enable=false}, {@code tls.client.certPath}, {@code tls.client.keyPath}). The
 * certificates are pre-generated PEM files under {@code src/test/resources/tls} ({@link TestCertificates}).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TlsIT {

    private static final String TOPIC = "Sealed";

    @TempDir
    Path dir;

    private static Path resource(String name) throws URISyntaxException {
        return TestCertificates.resource(name);
    }

    private static Map<String, String> brokerTls(String mode) throws URISyntaxException {
        Map<String, String> conf = new HashMap<>();
        conf.put("tls.server.mode", mode);
        conf.put("tls.server.certPath", resource("server.crt").toString());
        conf.put("tls.server.keyPath", resource("server.key").toString());
        conf.put("tls.enable", "true");
        conf.put("tls.client.trustCertPath", resource("server.crt").toString());
        return conf;
    }

    private static ServerTls namesrvTls(TlsMode mode) throws URISyntaxException {
        return ServerTls.of(mode, resource("server.crt"), resource("server.key"));
    }

    private static DefaultMQProducer producer(NamesrvAndBroker cluster, boolean tls) {
        DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "tls-pg-" + tls);
        producer.setUseTLS(tls);
        producer.setSendMsgTimeout(3_000);
        producer.setRetryTimesWhenSendFailed(0);
        return producer;
    }

    private static void createTopic(NamesrvAndBroker cluster) throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
        admin.setUseTLS(true);
        admin.start();
        try {
            admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
        } finally {
            admin.shutdown();
        }
    }

    private static Message message(String body) {
        return new Message(TOPIC, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void enforcingServesTlsClientsAndRefusesPlainOnes() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, brokerTls("enforcing"),
                namesrvTls(TlsMode.ENFORCING))) {
            createTopic(cluster);
            DefaultMQProducer tls = producer(cluster, true);
            DefaultMQProducer plain = producer(cluster, false);
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), "tls-cg");
            Set<String> received = ConcurrentHashMap.newKeySet();
            try {
                tls.start();
                for (int i = 0; i < 10; i++) {
                    assertEquals(SendStatus.SEND_OK, tls.send(message("sealed-" + i)).getSendStatus());
                }
                consumer.setUseTLS(true);
                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                    messages.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                consumer.start();
                Await.until("the TLS consumer receives all 10 messages", () -> received.size() == 10);

                plain.start();
                assertThrows(Exception.class, () -> plain.send(message("plain")),
                        "a plain client cannot reach a TLS-only name server");
                assertEquals(10, storedMessages(cluster), "nothing arrived over plain connections");
            } finally {
                consumer.shutdown();
                tls.shutdown();
                plain.shutdown();
            }
        }
    }

    @Test
    void permissiveServesTlsAndPlainClientsOnOnePort() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, brokerTls("permissive"),
                namesrvTls(TlsMode.PERMISSIVE))) {
            createTopic(cluster);
            DefaultMQProducer tls = producer(cluster, true);
            DefaultMQProducer plain = producer(cluster, false);
            try {
                tls.start();
                plain.start();
                assertEquals(SendStatus.SEND_OK, tls.send(message("over-tls")).getSendStatus());
                assertEquals(SendStatus.SEND_OK, plain.send(message("plain")).getSendStatus());
                assertEquals(2, storedMessages(cluster));
            } finally {
                tls.shutdown();
                plain.shutdown();
            }
        }
    }

    @Test
    void aRequiredClientCertificateMustBePresented() throws Exception {
        Map<String, String> conf = brokerTls("enforcing");
        conf.put("tls.server.need.client.auth", "require");
        conf.put("tls.server.trustCertPath", resource("client.crt").toString());
        // The name server stays permissive: the broker registers with it without a client certificate.
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, conf, namesrvTls(TlsMode.PERMISSIVE))) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            admin.setUseTLS(true);
            TestCertificates.withClientCertificate(admin::start);
            try {
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
            } finally {
                admin.shutdown();
            }
            DefaultMQProducer without = producer(cluster, true);
            DefaultMQProducer with = producer(cluster, true);
            try {
                without.start();
                assertThrows(Exception.class, () -> without.send(message("no-certificate")),
                        "a TLS client without a certificate is refused in the handshake");
                TestCertificates.withClientCertificate(with::start);
                assertEquals(SendStatus.SEND_OK, with.send(message("certified")).getSendStatus());
                assertEquals(1, storedMessages(cluster), "only the certified send was stored");
            } finally {
                without.shutdown();
                with.shutdown();
            }
        }
    }

    private static long storedMessages(NamesrvAndBroker cluster) {
        long total = 0;
        for (int queue : List.of(0, 1)) {
            total += cluster.broker().store().maxOffset(TOPIC, queue);
        }
        return total;
    }
}
