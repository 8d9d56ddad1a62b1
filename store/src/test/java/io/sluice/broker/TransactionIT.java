package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.broker.schedule.StoredMessage;
import io.sluice.broker.transaction.HalfMessages;
import io.sluice.broker.transaction.TransactionService;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import io.sluice.store.GetResult;
import io.sluice.store.GetStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactional messages with the unmodified Apache 5.3 {@code TransactionMQProducer}: commit, rollback, unknown
 * then checked back, duplicate and late END_TRANSACTIONs, END_TRANSACTIONs naming nothing, and half messages
 * pending across a broker restart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TransactionIT {

    private static final String TOPIC = "TxOrders";
    private static final int QUEUES = 4;
    private static final int EACH = 10;
    /** Half messages unresolved for 1 s are checked every 300 ms. */
    private static final Map<String, String> SHORT_CHECKS = Map.of("transactionTimeOut", "1000",
            "transactionCheckInterval", "300", "transactionCheckMax", "1000");

    @TempDir
    Path dir;
    /** The running broker of the test, for reading its half topic. */
    private Broker broker;

    /** Decides by body prefix: commit-, rollback- or unknown- (unknown when sent, commit when checked). */
    private static final class Listener implements TransactionListener {
        final Set<String> checked = ConcurrentHashMap.newKeySet();
        final LocalTransactionState checkAnswer;

        Listener(LocalTransactionState checkAnswer) {
            this.checkAnswer = checkAnswer;
        }

        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            String body = new String(msg.getBody(), StandardCharsets.UTF_8);
            if (body.startsWith("commit-")) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
            return body.startsWith("rollback-") ? LocalTransactionState.ROLLBACK_MESSAGE
                    : LocalTransactionState.UNKNOW;
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            String body = new String(msg.getBody(), StandardCharsets.UTF_8);
            checked.add(body);
            if (body.startsWith("rollback-")) {
                return LocalTransactionState.ROLLBACK_MESSAGE;
            }
            return body.startsWith("commit-") ? LocalTransactionState.COMMIT_MESSAGE : checkAnswer;
        }
    }

    @Test
    void commitIsDeliveredOnceRollbackNeverAndUnknownAfterItsCheckBack() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, SHORT_CHECKS);
             RemotingClient raw = new RemotingClient(ClientSettings.defaults())) {
            broker = cluster.broker();
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            Listener listener = new Listener(LocalTransactionState.COMMIT_MESSAGE);
            TransactionMQProducer producer = producer(cluster.namesrvAddr(), "tx-pg", listener);
            Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = consumer(cluster.namesrvAddr(), "tx-g", delivered);
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                consumer.start();
                producer.start();

                List<TransactionSendResult> commits = new ArrayList<>();
                List<TransactionSendResult> rollbacks = new ArrayList<>();
                for (int i = 0; i < EACH; i++) {
                    commits.add(send(producer, "commit-" + i, LocalTransactionState.COMMIT_MESSAGE));
                    rollbacks.add(send(producer, "rollback-" + i, LocalTransactionState.ROLLBACK_MESSAGE));
                    send(producer, "unknown-" + i, LocalTransactionState.UNKNOW);
                }

                TransactionService tx = cluster.broker().transactions();
                Await.until("every commit and checked-back unknown delivered", 60_000,
                        () -> delivered.size() == 2 * EACH, () -> delivered.keySet());
                Await.until("every transaction resolved", 30_000,
                        () -> tx.committedCount() == 2 * EACH && tx.rolledBackCount() == EACH,
                        () -> "committed " + tx.committedCount() + ", rolled back " + tx.rolledBackCount());
                for (int i = 0; i < EACH; i++) {
                    assertTrue(listener.checked.contains("unknown-" + i), "unknown-" + i + " was checked back");
                    assertFalse(delivered.containsKey("rollback-" + i), "rollback-" + i + " is never delivered");
                }
                assertEquals(2 * EACH, storedInTopic(cluster), "each committed message is stored once");

                // The same outcome again, late, from a check-back answer, or the opposite: nothing changes.
                TransactionSendResult first = commits.get(0);
                RemotingCommand again = raw.invoke(cluster.brokerAddr(),
                        end("tx-pg", first, 8, true), 10_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.SUCCESS, again.code(), again.remark());
                assertTrue(again.remark().contains("already resolved"), again.remark());
                RemotingCommand reversed = raw.invoke(cluster.brokerAddr(),
                        end("tx-pg", rollbacks.get(0), 8, false), 10_000).get(10, TimeUnit.SECONDS);
                assertTrue(reversed.remark().contains("already resolved"), reversed.remark());
                long duplicates = tx.duplicateEndCount();
                for (TransactionSendResult commit : commits) {
                    raw.invokeOneway(cluster.brokerAddr(), end("tx-pg", commit, 8, true)).get(10, TimeUnit.SECONDS);
                }
                Await.until("the oneway duplicates are applied", 10_000,
                        () -> tx.duplicateEndCount() == duplicates + EACH, () -> tx.duplicateEndCount());
                assertEquals(2 * EACH, tx.committedCount());
                assertEquals(2 * EACH, storedInTopic(cluster), "a duplicate END_TRANSACTION stores nothing");
                delivered.forEach((body, count) -> assertEquals(1, count.get(), body + " delivered once"));
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void endTransactionNamingNoHalfMessageChangesNothing() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of());
             RemotingClient raw = new RemotingClient(ClientSettings.defaults())) {
            broker = cluster.broker();
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            Listener listener = new Listener(LocalTransactionState.UNKNOW);
            TransactionMQProducer producer = producer(cluster.namesrvAddr(), "tx-bad-pg", listener);
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                TransactionSendResult pending = send(producer, "unknown-0", LocalTransactionState.UNKNOW);
                TransactionService tx = cluster.broker().transactions();

                RemotingCommand unknownOffset = RemotingCommand.request(RequestCode.END_TRANSACTION)
                        .putExtField("producerGroup", "tx-bad-pg").putExtField("tranStateTableOffset", 5)
                        .putExtField("commitLogOffset", 123_456_789L).putExtField("commitOrRollback", 8);
                RemotingCommand answer = raw.invoke(cluster.brokerAddr(), unknownOffset, 10_000)
                        .get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.INVALID_PARAMETER, answer.code(), answer.remark());
                assertTrue(answer.remark().contains("no half message"), answer.remark());

                RemotingCommand wrongGroup = raw.invoke(cluster.brokerAddr(), end("other-pg", pending, 8, false),
                        10_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.INVALID_PARAMETER, wrongGroup.code(), wrongGroup.remark());

                RemotingCommand badOutcome = raw.invoke(cluster.brokerAddr(), end("tx-bad-pg", pending, 5, false),
                        10_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.INVALID_PARAMETER, badOutcome.code(), badOutcome.remark());
                assertTrue(badOutcome.remark().contains("commitOrRollback"), badOutcome.remark());

                RemotingCommand stillUnknown = raw.invoke(cluster.brokerAddr(), end("tx-bad-pg", pending, 0, false),
                        10_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.SUCCESS, stillUnknown.code(), stillUnknown.remark());

                assertEquals(0, storedInTopic(cluster));
                assertEquals(0, tx.committedCount() + tx.rolledBackCount());
                assertEquals(2, tx.unknownEndCount());
                assertEquals(1, tx.rejectedEndCount());

                RemotingCommand commit = raw.invoke(cluster.brokerAddr(), end("tx-bad-pg", pending, 8, false),
                        10_000).get(10, TimeUnit.SECONDS);
                assertEquals(ResponseCode.SUCCESS, commit.code(), commit.remark());
                assertTrue(commit.remark().startsWith("committed"), commit.remark());
                Await.until("the commit is indexed", () -> storedInTopic(cluster) == 1);
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void halfMessagesPendingAcrossARestartAreResolvedByCheckBack() throws Exception {
        List<String> sent = new ArrayList<>();
        // No check before the restart: the interval is longer than the test.
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of("transactionCheckInterval", "600000"))) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            TransactionMQProducer producer = producer(cluster.namesrvAddr(), "tx-restart-pg",
                    new Listener(LocalTransactionState.UNKNOW));
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                for (int i = 0; i < EACH; i++) {
                    send(producer, "unknown-" + i, LocalTransactionState.UNKNOW);
                    sent.add("unknown-" + i);
                }
                send(producer, "commit-before", LocalTransactionState.COMMIT_MESSAGE);
                Await.until("the commit before the restart is indexed", () -> storedInTopic(cluster) == 1);
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, SHORT_CHECKS)) {
            Listener listener = new Listener(LocalTransactionState.COMMIT_MESSAGE);
            TransactionMQProducer producer = producer(cluster.namesrvAddr(), "tx-restart-pg", listener);
            Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = consumer(cluster.namesrvAddr(), "tx-restart-g", delivered);
            try {
                producer.start();
                // The producer heartbeats to brokers it has a route to: a first send gives it one.
                send(producer, "commit-after", LocalTransactionState.COMMIT_MESSAGE);
                consumer.start();
                Await.until("every pending transaction checked back and delivered", 60_000,
                        () -> delivered.size() == EACH + 2, () -> delivered.keySet());
                TransactionService tx = cluster.broker().transactions();
                Await.until("every transaction resolved", 30_000, () -> tx.committedCount() == EACH + 1,
                        () -> tx.committedCount());
                assertTrue(listener.checked.containsAll(sent), () -> "checked " + listener.checked);
                assertEquals(EACH + 2, storedInTopic(cluster), "nothing doubled or resurrected by the restart");
                delivered.forEach((body, count) -> assertEquals(1, count.get(), body + " delivered once"));
            } finally {
                consumer.shutdown();
                producer.shutdown();
            }
        }
    }

    private static TransactionMQProducer producer(String namesrv, String group, TransactionListener listener) {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(ApacheClients.instance("tx-producer"));
        producer.setSendMsgTimeout(10_000);
        producer.setHeartbeatBrokerInterval(1_000);
        producer.setTransactionListener(listener);
        return producer;
    }

    private static DefaultMQPushConsumer consumer(String namesrv, String group,
                                                  Map<String, AtomicInteger> delivered) throws Exception {
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(namesrv, group);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                assertEquals(TOPIC, m.getTopic());
                assertNull(m.getProperty("TRAN_MSG"), "a delivered message is no longer prepared");
                delivered.computeIfAbsent(new String(m.getBody(), StandardCharsets.UTF_8), k -> new AtomicInteger())
                        .incrementAndGet();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        return consumer;
    }

    private static TransactionSendResult send(TransactionMQProducer producer, String body,
                                              LocalTransactionState expected) throws Exception {
        TransactionSendResult result = producer.sendMessageInTransaction(
                new Message(TOPIC, "TagTx", body.getBytes(StandardCharsets.UTF_8)), null);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus());
        assertEquals(expected, result.getLocalTransactionState());
        assertEquals(result.getMsgId(), result.getTransactionId(), "transactionId is the UNIQ_KEY");
        return result;
    }

    /**
     * END_TRANSACTION as the Apache client builds it from a send result (whose offset message id
     * TransactionSendResult does not carry: the half message's position is read from the broker's half topic).
     */
    private RemotingCommand end(String group, TransactionSendResult sent, int outcome, boolean fromCheck) {
        GetResult half = broker.store().getMessages(HalfMessages.HALF_TOPIC, 0, sent.getQueueOffset(), 1, 1 << 20,
                null);
        assertEquals(GetStatus.FOUND, half.status(), "the half message of " + sent.getMsgId());
        long commitLogOffset = StoredMessage.decode(half.records().get(0)).position();
        return RemotingCommand.request(RequestCode.END_TRANSACTION)
                .putExtField("producerGroup", group)
                .putExtField("tranStateTableOffset", sent.getQueueOffset())
                .putExtField("commitLogOffset", commitLogOffset)
                .putExtField("commitOrRollback", outcome)
                .putExtField("fromTransactionCheck", fromCheck)
                .putExtField("msgId", sent.getMsgId())
                .putExtField("transactionId", sent.getTransactionId());
    }

    private static long storedInTopic(NamesrvAndBroker cluster) {
        long total = 0;
        for (int q = 0; q < QUEUES; q++) {
            total += cluster.broker().store().maxOffset(TOPIC, q);
        }
        return total;
    }
}
