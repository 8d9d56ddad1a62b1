package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code authenticationStrategy=stateful} with the Apache producer: its connection's first signed requests are
 * verified, later ones pass unverified (shown by a hook that breaks the signature of every send after the first);
 * a wrong secret is still refused on its own connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StatefulAuthenticationIT {

    private static final String TOPIC = "StatefulT";

    @TempDir
    static Path dir;

    private static NamesrvAndBroker cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = NamesrvAndBroker.start(dir, Map.of("authenticationEnabled", "true",
                "authenticationStrategy", "org.apache.rocketmq.auth.authentication.strategy"
                        + ".StatefulAuthenticationStrategy",
                "initAuthenticationUser", "{\"username\":\"root\",\"password\":\"root-secret\"}"));
        DefaultMQAdminExt admin = new DefaultMQAdminExt(new AclClientRPCHook(new SessionCredentials("root",
                "root-secret")), 10_000);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName(ApacheClients.instance("admin"));
        admin.start();
        try {
            admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
        } finally {
            admin.shutdown();
        }
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static DefaultMQProducer producer(RPCHook hook) {
        DefaultMQProducer producer = new DefaultMQProducer("stateful-pg", hook);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName(ApacheClients.instance("producer"));
        producer.setSendMsgTimeout(5_000);
        producer.setRetryTimesWhenSendFailed(0);
        return producer;
    }

    private static Message message(int i) {
        return new Message(TOPIC, ("m-" + i).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void laterSendsOnAVerifiedConnectionSkipTheSignatureCheck() throws Exception {
        RPCHook signer = new AclClientRPCHook(new SessionCredentials("root", "root-secret"));
        AtomicInteger sends = new AtomicInteger();
        RPCHook breaksLaterSends = new RPCHook() {
            @Override
            public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
                signer.doBeforeRequest(remoteAddr, request);
                if (request.getCode() == RequestCode.SEND_MESSAGE_V2 && sends.incrementAndGet() > 1) {
                    request.addExtField("Signature", "not-the-signature");
                }
            }

            @Override
            public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            }
        };
        DefaultMQProducer producer = producer(breaksLaterSends);
        producer.start();
        try {
            for (int i = 0; i < 10; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(message(i)).getSendStatus(), "send " + i);
            }
            assertEquals(10, sends.get());
        } finally {
            producer.shutdown();
        }
        assertTrue(cluster.broker().store().maxOffset(TOPIC, 0) >= 10, "the sends were stored");
    }

    @Test
    void aWrongSecretIsStillRefused() throws Exception {
        DefaultMQProducer producer = producer(new AclClientRPCHook(new SessionCredentials("root", "wrong")));
        producer.start();
        try {
            Throwable cause = assertThrows(Exception.class, () -> producer.send(message(0)));
            while (cause != null && !(cause instanceof MQBrokerException)) {
                cause = cause.getCause();
            }
            assertTrue(cause instanceof MQBrokerException refused
                    && refused.getResponseCode() == ResponseCode.NO_PERMISSION, "refused NO_PERMISSION: " + cause);
        } finally {
            producer.shutdown();
        }
    }
}
