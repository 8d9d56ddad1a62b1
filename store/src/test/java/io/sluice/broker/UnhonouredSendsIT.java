package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactional and timer sends, which Sluice cannot deliver as asked yet, are refused with a clear code and
 * remark and store nothing; so are topics declared for them. With the unmodified Apache 5.3 client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UnhonouredSendsIT {

    private static final String TOPIC = "Unhonoured";

    @TempDir
    Path dir;

    @Test
    void transactionalAndTimerSendsAreRefusedAndStoreNothing() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "unhonoured-pg");
            TransactionMQProducer transactional = new TransactionMQProducer("unhonoured-tx-pg");
            transactional.setNamesrvAddr(cluster.namesrvAddr());
            transactional.setInstanceName(ApacheClients.instance("tx-producer"));
            transactional.setSendMsgTimeout(10_000);
            transactional.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }
            });
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();
                transactional.start();

                MQClientException tx = assertThrows(MQClientException.class,
                        () -> transactional.sendMessageInTransaction(message("tx"), null));
                MQBrokerException txCause = brokerCause(tx);
                assertEquals(ResponseCode.NO_PERMISSION, txCause.getResponseCode());
                assertTrue(txCause.getErrorMessage().contains("transactional messages are not supported"),
                        txCause.getErrorMessage());

                assertTimerRefused(producer, m -> m.setDelayTimeSec(5), "TIMER_DELAY_SEC");
                assertTimerRefused(producer, m -> m.setDelayTimeMs(5_000), "TIMER_DELAY_MS");
                assertTimerRefused(producer, m -> m.setDeliverTimeMs(System.currentTimeMillis() + 5_000),
                        "TIMER_DELIVER_MS");
                Message timed = message("batch-timed");
                timed.setDelayTimeSec(5);
                MQBrokerException batch = assertThrows(MQBrokerException.class,
                        () -> producer.send(List.of(message("batch-plain"), timed)));
                assertEquals(ResponseCode.MESSAGE_ILLEGAL, batch.getResponseCode());
                assertTrue(batch.getErrorMessage().contains("TIMER_DELAY_SEC"), batch.getErrorMessage());

                long stored = admin.examineTopicStats(TOPIC).getOffsetTable().values().stream()
                        .mapToLong(o -> o.getMaxOffset()).sum();
                assertEquals(0, stored, "a refused send stores nothing");
                assertEquals(SendStatus.SEND_OK, producer.send(message("plain")).getSendStatus(),
                        "the broker keeps serving normal sends");

                for (String type : List.of("TRANSACTION", "DELAY", "MIXED")) {
                    TopicConfig declared = new TopicConfig("Declared" + type, 1, 1, 6);
                    declared.setAttributes(Map.of("+message.type", type));
                    Exception refused = assertThrows(Exception.class,
                            () -> admin.createAndUpdateTopicConfig(cluster.brokerAddr(), declared));
                    assertTrue(refused.getMessage().contains("message.type " + type + " is not supported"),
                            refused.getMessage());
                }
            } finally {
                transactional.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    private static void assertTimerRefused(DefaultMQProducer producer, Consumer<Message> timer, String property) {
        Message m = message("timed-" + property);
        timer.accept(m);
        MQBrokerException e = assertThrows(MQBrokerException.class, () -> producer.send(m));
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, e.getResponseCode());
        assertTrue(e.getErrorMessage().contains(property) && e.getErrorMessage().contains("not supported"),
                e.getErrorMessage());
    }

    private static MQBrokerException brokerCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof MQBrokerException broker) {
                return broker;
            }
        }
        throw new AssertionError("no broker refusal in the cause chain", t);
    }

    private static Message message(String body) {
        return new Message(TOPIC, "TagA", body.getBytes(StandardCharsets.UTF_8));
    }
}
