package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.store.MessageStore;
import io.sluice.store.StoreEnvironment;
import io.sluice.store.retention.RetentionOutcome;
import io.sluice.store.retention.SimulatedDisk;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
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
 * Retention under disk pressure with the unmodified Apache client, on 256 KiB CommitLog files and a simulated disk:
 * only what the consumer group has consumed is deleted, unread messages stay and sends are refused instead (the
 * group then reads every one of them); a pending timer and an unresolved half message keep their files even from
 * forced deletion.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RetentionIT {

    private static final String TOPIC = "Retained";
    private static final String GROUP = "retained-cg";
    private static final long TOTAL_BYTES = 1L << 30;
    private static final int SEGMENT_BYTES = 256 * 1024;
    private static final int BODY_BYTES = 2 * 1024;
    private static final int BATCH = 400;
    private static final Map<String, String> CONF = Map.of("mappedFileSizeCommitLog", Integer.toString(SEGMENT_BYTES),
            "maxMessageSize", Integer.toString(64 * 1024), "cleanResourceInterval", "3600000");
    private static final Map<String, String> FORCED_CONF = withForcedCleaning();

    @TempDir
    Path dir;

    private final AtomicLong usedBytes = new AtomicLong(TOTAL_BYTES / 10);

    private StoreEnvironment simulatedDisk() {
        return StoreEnvironment.system().withDiskUsage(new SimulatedDisk(TOTAL_BYTES, usedBytes::get));
    }

    private void diskAt(int percent) {
        usedBytes.set(TOTAL_BYTES * percent / 100);
    }

    @Test
    void onlyConsumedMessagesAreDeletedUnderPressureAndUnreadOnesWaitBehindRefusedSends() throws Exception {
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, CONF, simulatedDisk())) {
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "retained-pg");
            producer.setRetryTimesWhenSendFailed(0);
            Set<Integer> received = ConcurrentHashMap.newKeySet();
            Set<Integer> corrupt = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer reader = consumer(c, received, corrupt);
            DefaultMQPushConsumer second = null;
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();
                sendRange(producer, 0, BATCH);
                reader.start();
                Await.until("the group consumed the first batch", 30_000,
                        () -> received.size() == BATCH && committed(c) == BATCH, () -> committed(c));
                reader.shutdown();
                sendRange(producer, BATCH, 2 * BATCH); // nobody has read these

                MessageStore store = c.broker().store();
                diskAt(80); // above diskMaxUsedSpaceRatio: pressure, nothing expired
                RetentionOutcome pressed = store.runRetention();
                assertTrue(pressed.deletedSegments() > 0, "consumed files go under pressure: " + pressed);
                long firstKept = store.minOffset(TOPIC, 0);
                assertTrue(firstKept > 0 && firstKept <= BATCH, "only consumed messages deleted, first kept "
                        + firstKept);
                assertEquals(0, store.stats().unreadBytesDeleted());

                diskAt(95);
                RetentionOutcome full = store.runRetention();
                assertEquals(0, full.deletedSegments(), "unread messages stay (cleanFileForciblyEnable=false)");
                MQClientException refused = assertThrows(MQClientException.class,
                        () -> producer.send(message(-1)));
                MQBrokerException answer = (MQBrokerException) refused.getCause();
                assertEquals(ResponseCode.SERVICE_NOT_AVAILABLE, answer.getResponseCode());
                assertTrue(answer.getErrorMessage().contains("disk is full"), answer.getErrorMessage());

                diskAt(50);
                store.runRetention();
                assertEquals(SendStatus.SEND_OK, producer.send(message(2 * BATCH)).getSendStatus());
                second = consumer(c, received, corrupt);
                second.start();
                Await.until("the group read every unread message", 30_000,
                        () -> received.size() == 2 * BATCH + 1, received::size);
                assertEquals(Set.of(), corrupt);
            } finally {
                if (second != null) {
                    second.shutdown();
                }
                reader.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void aPendingTimerKeepsItsFileEvenFromForcedDeletion() throws Exception {
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, FORCED_CONF, simulatedDisk())) {
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "retained-timer-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();
                Message timer = message(-2);
                timer.setDelayTimeSec(3_600);
                assertEquals(SendStatus.SEND_OK, producer.send(timer).getSendStatus());
                Await.until("the timer is pending", 10_000, () -> c.broker().timers().pendingCount() == 1,
                        () -> c.broker().timers().pendingCount());
                sendRange(producer, 0, BATCH);

                MessageStore store = c.broker().store();
                diskAt(95); // forced deletion wanted, and nothing was consumed
                RetentionOutcome outcome = store.runRetention();
                assertTrue(outcome.forced(), outcome.toString());
                assertEquals(0, outcome.deletedSegments(), "the file holding the pending timer stays, and all after");
                assertEquals(0, store.stats().minPosition());
                assertEquals(1, c.broker().timers().pendingCount());
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    @Test
    void anUnresolvedHalfMessageKeepsItsFileEvenFromForcedDeletion() throws Exception {
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, FORCED_CONF, simulatedDisk())) {
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "retained-plain-pg");
            TransactionMQProducer transactional = new TransactionMQProducer("retained-tx-pg");
            transactional.setNamesrvAddr(c.namesrvAddr());
            transactional.setInstanceName(ApacheClients.instance("tx-producer"));
            transactional.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                    return LocalTransactionState.UNKNOW;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                    return LocalTransactionState.UNKNOW;
                }
            });
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 1, 1, 6));
                producer.start();
                transactional.start();
                assertEquals(SendStatus.SEND_OK,
                        transactional.sendMessageInTransaction(message(-3), null).getSendStatus());
                sendRange(producer, 0, BATCH);

                MessageStore store = c.broker().store();
                diskAt(95);
                RetentionOutcome outcome = store.runRetention();
                assertTrue(outcome.forced(), outcome.toString());
                assertEquals(0, outcome.deletedSegments(), "the file holding the unresolved half message stays");
                assertEquals(0, store.stats().minPosition());
            } finally {
                transactional.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    private static Map<String, String> withForcedCleaning() {
        Map<String, String> conf = new java.util.HashMap<>(CONF);
        conf.put("cleanFileForciblyEnable", "true");
        return Map.copyOf(conf);
    }

    private static long committed(NamesrvAndBroker c) {
        return c.broker().metadata().queryOffset(GROUP, TOPIC, 0);
    }

    private static DefaultMQPushConsumer consumer(NamesrvAndBroker c, Set<Integer> received, Set<Integer> corrupt)
            throws MQClientException {
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(c.namesrvAddr(), GROUP);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener(NumberedMessages.recording(received, corrupt));
        return consumer;
    }

    private static void sendRange(DefaultMQProducer producer, int from, int to) throws Exception {
        for (int n = from; n < to; n++) {
            assertEquals(SendStatus.SEND_OK, producer.send(message(n)).getSendStatus());
        }
    }

    private static Message message(int n) {
        return new Message(TOPIC, body(n));
    }

    private static byte[] body(int n) {
        return NumberedMessages.body(n, BODY_BYTES);
    }
}
