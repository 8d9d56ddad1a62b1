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
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timer sends to a broker with {@code timerWheelEnable=false}, and batches carrying timer or transactional messages,
 * are refused with a clear code and remark and store nothing; topics declared TRANSACTION, DELAY or MIXED are
 * accepted now that transactions and timers are served. With the unmodified Apache 5.3 client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UnhonouredSendsIT {

    private static final String TOPIC = "Unhonoured";

    @TempDir
    Path dir;

    @Test
    void disabledTimersAndTimerOrTransactionalBatchesAreRefusedAndStoreNothing() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of("timerWheelEnable", "false"))) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "unhonoured-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();

                assertTimerRefused(producer, m -> m.setDelayTimeSec(5), "TIMER_DELAY_SEC");
                assertTimerRefused(producer, m -> m.setDelayTimeMs(5_000), "TIMER_DELAY_MS");
                assertTimerRefused(producer, m -> m.setDeliverTimeMs(System.currentTimeMillis() + 5_000),
                        "TIMER_DELIVER_MS");
                Message timed = message("batch-timed");
                timed.setDelayTimeSec(5);
                MQBrokerException batch = assertThrows(MQBrokerException.class,
                        () -> producer.send(List.of(message("batch-plain"), timed)));
                assertEquals(ResponseCode.MESSAGE_ILLEGAL, batch.getResponseCode());
                assertTrue(batch.getErrorMessage().contains("TIMER_DELAY_SEC")
                        && batch.getErrorMessage().contains("batch cannot carry timer"), batch.getErrorMessage());
                Message prepared = message("batch-prepared");
                MessageAccessor.putProperty(prepared, MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
                MQBrokerException txBatch = assertThrows(MQBrokerException.class,
                        () -> producer.send(List.of(message("batch-plain"), prepared)));
                assertEquals(ResponseCode.MESSAGE_ILLEGAL, txBatch.getResponseCode());
                assertTrue(txBatch.getErrorMessage().contains("cannot carry transactional"),
                        txBatch.getErrorMessage());

                long stored = admin.examineTopicStats(TOPIC).getOffsetTable().values().stream()
                        .mapToLong(o -> o.getMaxOffset()).sum();
                assertEquals(0, stored, "a refused send stores nothing");
                assertEquals(SendStatus.SEND_OK, producer.send(message("plain")).getSendStatus(),
                        "the broker keeps serving normal sends");

                for (String type : List.of("TRANSACTION", "DELAY", "MIXED")) {
                    TopicConfig declared = new TopicConfig("Declared" + type, 1, 1, 6);
                    declared.setAttributes(Map.of("+message.type", type));
                    admin.createAndUpdateTopicConfig(cluster.brokerAddr(), declared);
                    assertEquals(type, cluster.broker().metadata().getTopic("Declared" + type)
                            .orElseThrow().attributes().get("message.type"), type + " is served now");
                }
            } finally {
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
        assertTrue(e.getErrorMessage().contains(property)
                && e.getErrorMessage().contains("timerWheelEnable=false"),
                e.getErrorMessage());
    }

    private static Message message(String body) {
        return new Message(TOPIC, "TagA", body.getBytes(StandardCharsets.UTF_8));
    }
}
