package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.testing.Await;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone Sluice process killed with SIGKILL while transactions are pending or being committed, then
 * restarted over the same store: every transaction ends committed (delivered exactly once) or rolled back (never
 * delivered). With the Apache 4.9 {@code TransactionMQProducer}.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TransactionKillIT {

    private static final String TOPIC = "TxKillTopic";
    private static final String GROUP = "tx-kill-pg";
    private static final int EACH = 10;

    static {
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");
    }

    @TempDir
    Path dir;

    /** Executes: commit-, rollback- or pending- (unknown) by prefix; checks answer {@code checkPending}. */
    private record Listener(LocalTransactionState checkPending) implements TransactionListener {
        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            return decide(new String(msg.getBody(), StandardCharsets.UTF_8), LocalTransactionState.UNKNOW);
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            return decide(new String(msg.getBody(), StandardCharsets.UTF_8), checkPending);
        }

        private static LocalTransactionState decide(String body, LocalTransactionState pending) {
            if (body.startsWith("rollback-")) {
                return LocalTransactionState.ROLLBACK_MESSAGE;
            }
            return body.startsWith("pending-") ? pending : LocalTransactionState.COMMIT_MESSAGE;
        }
    }

    @Test
    void transactionsSurviveASigkillOfTheBroker() throws Exception {
        int namesrvPort = StandaloneConf.freePort();
        int brokerPort = StandaloneConf.freePort();
        String namesrv = "127.0.0.1:" + namesrvPort;
        String broker = "127.0.0.1:" + brokerPort;
        Path conf = StandaloneConf.write(dir, namesrvPort, brokerPort, "transactionTimeOut=1000",
                "transactionCheckInterval=300", "transactionCheckMax=1000");

        try (SluiceProcess first = SluiceProcess.start(dir, "standalone", "-c", conf.toString());
             RemotingClient admin = new RemotingClient(ClientSettings.defaults())) {
            first.awaitLine("sluice standalone ready", 60_000);
            StandaloneConf.createTopic(admin, broker, TOPIC, 1); // one queue: its max offset counts
            TransactionMQProducer producer = producer(namesrv, "tx-kill-before",
                    new Listener(LocalTransactionState.UNKNOW));
            try {
                producer.start();
                for (int i = 0; i < EACH; i++) {
                    send(producer, "pending-" + i);
                    send(producer, "rollback-" + i);
                    send(producer, "commit-" + i);
                }
            } finally {
                // Killed right after the last send: its END_TRANSACTION may or may not be applied yet.
                first.kill();
                producer.shutdown();
            }
        }

        try (SluiceProcess second = SluiceProcess.start(dir, "standalone", "-c", conf.toString());
             RemotingClient admin = new RemotingClient(ClientSettings.defaults())) {
            second.awaitLine("sluice standalone ready", 60_000);
            Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
            TransactionMQProducer producer = producer(namesrv, "tx-kill-after",
                    new Listener(LocalTransactionState.COMMIT_MESSAGE));
            DefaultMQPushConsumer consumer = StandaloneConf.consumerFromFirst(namesrv, "tx-kill-g",
                    "tx-kill-consumer", TOPIC, (msgs, context) -> {
                        msgs.forEach(m -> delivered.computeIfAbsent(new String(m.getBody(), StandardCharsets.UTF_8),
                                k -> new AtomicInteger()).incrementAndGet());
                        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                    });
            try {
                producer.start();
                send(producer, "commit-after"); // gives the producer a route, hence heartbeats to the broker
                consumer.start();
                Await.until("every committed and pending transaction delivered after the restart", 90_000,
                        () -> delivered.size() == 2 * EACH + 1, delivered::keySet);
                send(producer, "commit-marker");
                Await.until("the marker delivered", 30_000, () -> delivered.containsKey("commit-marker"),
                        delivered::keySet);
                for (int i = 0; i < EACH; i++) {
                    assertFalse(delivered.containsKey("rollback-" + i), "rollback-" + i + " is never delivered");
                }
                delivered.forEach((body, count) -> assertEquals(1, count.get(), body + " delivered once"));
                assertEquals(2 * EACH + 2, maxOffset(admin, broker), "every commit stored exactly once");
            } finally {
                consumer.shutdown();
                producer.shutdown();
            }
        }
    }

    private static TransactionMQProducer producer(String namesrv, String instance, TransactionListener listener) {
        TransactionMQProducer producer = new TransactionMQProducer(GROUP);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(instance);
        producer.setSendMsgTimeout(10_000);
        producer.setHeartbeatBrokerInterval(1_000);
        producer.setTransactionListener(listener);
        return producer;
    }

    private static void send(TransactionMQProducer producer, String body) throws Exception {
        SendStatus status = producer.sendMessageInTransaction(
                new Message(TOPIC, "TagTx", body.getBytes(StandardCharsets.UTF_8)), null).getSendStatus();
        assertEquals(SendStatus.SEND_OK, status, body);
    }

    private static long maxOffset(RemotingClient admin, String brokerAddr) {
        return StandaloneConf.maxOffset(admin, brokerAddr, TOPIC, 0);
    }
}
