package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.broker.timer.TimerService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timer messages with the unmodified Apache 5.3 client: by deliver time, delay seconds and delay milliseconds they
 * arrive no earlier than their time minus the precision and within a few seconds after; a time in the past arrives
 * at once; timers pending across a broker restart still arrive, once; bad values are refused naming the property.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TimerIT {

    private static final String TOPIC = "Timers";
    private static final int QUEUES = 2;
    private static final long PRECISION_MS = 100;
    /** How late after its time a timer may arrive at the consumer ("a few seconds"). */
    private static final long LATE_MS = 3_000;
    private static final Map<String, String> CONF = Map.of("timerPrecisionMs", Long.toString(PRECISION_MS));

    @TempDir
    Path dir;

    /** A delivered message and when the consumer saw it. */
    private record Arrival(MessageExt message, long receivedMs) {
    }

    @Test
    void timersArriveAtTheirTimeAndAPastTimeArrivesAtOnce() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, CONF)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "timer-pg");
            Map<String, Arrival> arrived = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = consumer(cluster.namesrvAddr(), "timer-g", arrived, counts);
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                consumer.start();
                send(producer, "warm-up", m -> { });
                Await.until("the consumer receives", 30_000, () -> arrived.containsKey("warm-up"), arrived::keySet);

                long beforeMs = System.currentTimeMillis();
                SendResult byTime = send(producer, "deliver-ms", m -> m.setDeliverTimeMs(beforeMs + 3_000));
                send(producer, "delay-sec", m -> m.setDelayTimeSec(2));
                send(producer, "delay-ms", m -> m.setDelayTimeMs(2_500));
                send(producer, "past", m -> m.setDeliverTimeMs(beforeMs - 60_000));
                long afterMs = System.currentTimeMillis();

                TimerService timers = cluster.broker().timers();
                Await.until("three timers pending", 5_000, () -> timers.pendingCount() == 3,
                        timers::pendingCount);
                Map<String, String> runtime = admin.fetchBrokerRuntimeStats(cluster.brokerAddr()).getTable();
                if (System.currentTimeMillis() < beforeMs + 2_000 - PRECISION_MS) {
                    assertEquals("3", runtime.get("timerPendingCount"), runtime.toString());
                    assertEquals(2, storedInTopic(cluster), "timers wait outside their topic until due");
                }

                Await.until("every timer delivered", 30_000, () -> arrived.size() == 5, arrived::keySet);
                assertOnTime(arrived.get("deliver-ms"), beforeMs + 3_000, beforeMs + 3_000);
                assertOnTime(arrived.get("delay-sec"), beforeMs + 2_000, afterMs + 2_000);
                assertOnTime(arrived.get("delay-ms"), beforeMs + 2_500, afterMs + 2_500);
                MessageExt past = arrived.get("past").message();
                assertTrue(past.getStoreTimestamp() <= afterMs, "a past time is stored at once: "
                        + (past.getStoreTimestamp() - afterMs) + " ms after the send returned");

                MessageExt delivered = arrived.get("deliver-ms").message();
                assertEquals(TOPIC, delivered.getTopic());
                assertEquals(byTime.getMsgId(), delivered.getMsgId(), "the UNIQ_KEY is kept");
                assertEquals("key-deliver-ms", delivered.getKeys());
                assertEquals("TagT", delivered.getTags());
                assertNull(delivered.getProperty("REAL_TOPIC"));
                Await.until("nothing pending", 5_000, () -> timers.pendingCount() == 0, timers::pendingCount);
                assertEquals(5, storedInTopic(cluster), "the warm-up, the past and three timers, once each");
                counts.forEach((body, n) -> assertEquals(1, n.get(), body + " delivered once"));
                Map<String, String> after = admin.fetchBrokerRuntimeStats(cluster.brokerAddr()).getTable();
                assertEquals("0", after.get("timerPendingCount"), after.toString());
                assertEquals("0", after.get("timerOffsetBehind"), after.toString());
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    /** Longer than a broker restart takes on a loaded CI machine, so that the timers are still pending after it. */
    private static final long RESTART_DELAY_MS = 10_000;

    @Test
    void timersPendingAcrossARestartStillArriveOnce() throws Exception {
        int timers = 5;
        long beforeMs = System.currentTimeMillis();
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, CONF)) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "timer-restart-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                for (int i = 0; i < timers; i++) {
                    send(producer, "pending-" + i, m -> m.setDelayTimeSec((int) (RESTART_DELAY_MS / 1_000)));
                }
                TimerService service = cluster.broker().timers();
                Await.until("every timer indexed", 5_000, () -> service.pendingCount() == timers,
                        service::pendingCount);
                assertEquals(0, storedInTopic(cluster), "none due before the restart");
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, CONF)) {
            Map<String, Arrival> arrived = new ConcurrentHashMap<>();
            Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = consumer(cluster.namesrvAddr(), "timer-restart-g", arrived, counts);
            try {
                assertEquals(timers, cluster.broker().timers().pendingCount(), "the index survives the restart");
                consumer.start();
                Await.until("every pending timer delivered", 30_000, () -> arrived.size() == timers,
                        arrived::keySet);
                for (Arrival a : arrived.values()) {
                    assertTrue(a.message().getStoreTimestamp() >= beforeMs + RESTART_DELAY_MS - PRECISION_MS,
                            "stored " + (beforeMs + RESTART_DELAY_MS - a.message().getStoreTimestamp())
                                    + " ms early");
                }
                assertEquals(timers, storedInTopic(cluster), "nothing doubled by the restart");
                assertEquals(0, cluster.broker().timers().pendingCount());
                counts.forEach((body, n) -> assertEquals(1, n.get(), body + " delivered once"));
            } finally {
                consumer.shutdown();
            }
        }
    }

    @Test
    void badTimersAreRefusedNamingThePropertyAndStoreNothing() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of("timerMaxDelaySec", "60"))) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "timer-bad-pg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, QUEUES, QUEUES, 6));
                producer.start();
                assertRefused(producer, m -> MessageAccessor.putProperty(m, "TIMER_DELAY_SEC", "soon"),
                        "TIMER_DELAY_SEC");
                assertRefused(producer, m -> MessageAccessor.putProperty(m, "TIMER_DELIVER_MS", "12:00"),
                        "TIMER_DELIVER_MS");
                assertRefused(producer, m -> m.setDelayTimeSec(61), "timerMaxDelaySec");
                assertRefused(producer, m -> m.setDelayTimeMs(61_000), "timerMaxDelaySec");
                assertRefused(producer, m -> m.setDeliverTimeMs(System.currentTimeMillis() + 120_000),
                        "timerMaxDelaySec");
                assertEquals(0, storedInTopic(cluster), "a refused timer stores nothing");
                assertEquals(0, cluster.broker().store().maxOffset(TimerService.TIMER_TOPIC, 0));
                assertEquals(SendStatus.SEND_OK, send(producer, "plain", m -> { }).getSendStatus());
            } finally {
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    private static void assertOnTime(Arrival arrival, long earliestDueMs, long latestDueMs) {
        long storedMs = arrival.message().getStoreTimestamp();
        assertTrue(storedMs >= earliestDueMs - PRECISION_MS, "stored " + (earliestDueMs - storedMs) + " ms early");
        assertTrue(arrival.receivedMs() <= latestDueMs + LATE_MS,
                "received " + (arrival.receivedMs() - latestDueMs) + " ms late");
    }

    private static void assertRefused(DefaultMQProducer producer, Consumer<Message> timer, String named) {
        Message m = message("bad");
        timer.accept(m);
        MQBrokerException e = assertThrows(MQBrokerException.class, () -> producer.send(m));
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, e.getResponseCode(), e.getErrorMessage());
        assertTrue(e.getErrorMessage().contains(named), e.getErrorMessage());
    }

    private static SendResult send(DefaultMQProducer producer, String body, Consumer<Message> timer)
            throws Exception {
        Message m = message(body);
        m.setKeys("key-" + body);
        timer.accept(m);
        SendResult result = producer.send(m);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), body);
        return result;
    }

    private static Message message(String body) {
        return new Message(TOPIC, "TagT", body.getBytes(StandardCharsets.UTF_8));
    }

    private static DefaultMQPushConsumer consumer(String namesrv, String group, Map<String, Arrival> arrived,
                                                  Map<String, AtomicInteger> counts) throws Exception {
        DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(namesrv, group);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            long nowMs = System.currentTimeMillis();
            for (MessageExt m : msgs) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                arrived.putIfAbsent(body, new Arrival(m, nowMs));
                counts.computeIfAbsent(body, k -> new AtomicInteger()).incrementAndGet();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        return consumer;
    }

    private static long storedInTopic(NamesrvAndBroker cluster) {
        long total = 0;
        for (int q = 0; q < QUEUES; q++) {
            total += cluster.broker().store().maxOffset(TOPIC, q);
        }
        return total;
    }
}
