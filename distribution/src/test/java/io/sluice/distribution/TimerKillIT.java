package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone Sluice process killed with SIGKILL while timers are falling due, then restarted over the same store:
 * every timer is delivered, none early, none lost; a timer stored twice (at-least-once across the crash) is one
 * that was due before the kill, and GET_BROKER_RUNTIME_INFO reports the timers pending after the restart. With the
 * Apache 4.9 producer, which sets {@code TIMER_DELIVER_MS} as a user property (4.9 has no timer API).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TimerKillIT {

    private static final String TOPIC = "TimerKillTopic";
    private static final int TIMERS = 300;
    /** Delivery times: from {@value #FIRST_DUE_MS} ms after the first send, one every {@value #SPACING_MS} ms. */
    private static final long FIRST_DUE_MS = 2_000;
    private static final long SPACING_MS = 25;
    private static final long PRECISION_MS = 100;
    /** Killed once this many are stored in the topic: some delivered, most still pending. */
    private static final long KILL_AFTER_DELIVERED = 40;
    private static final Pattern PENDING = Pattern.compile("\"timerPendingCount\"\\s*:\\s*\"(\\d+)\"");

    static {
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");
    }

    @TempDir
    Path dir;

    @Test
    void pendingTimersSurviveASigkillOfTheBroker() throws Exception {
        long[] dueMs = new long[TIMERS];
        long killedAtMs;
        int namesrvPort = StandaloneConf.freePort();
        int brokerPort = StandaloneConf.freePort();
        Path conf = StandaloneConf.write(dir, namesrvPort, brokerPort, "timerPrecisionMs=" + PRECISION_MS);
        String namesrv = "127.0.0.1:" + namesrvPort;
        String broker = "127.0.0.1:" + brokerPort;

        try (SluiceProcess first = SluiceProcess.start(dir, "standalone", "-c", conf.toString());
             RemotingClient admin = new RemotingClient(ClientSettings.defaults())) {
            first.awaitLine("sluice standalone ready", 60_000);
            StandaloneConf.createTopic(admin, broker, TOPIC, 1); // one queue: its max offset counts the copies
            DefaultMQProducer producer = new DefaultMQProducer("timer-kill-pg");
            producer.setNamesrvAddr(namesrv);
            producer.setInstanceName("timer-kill-before");
            producer.setSendMsgTimeout(10_000);
            try {
                producer.start();
                long t0 = System.currentTimeMillis();
                for (int i = 0; i < TIMERS; i++) {
                    dueMs[i] = t0 + FIRST_DUE_MS + i * SPACING_MS;
                    Message m = new Message(TOPIC, "TagTimer", ("timer-" + i).getBytes(StandardCharsets.UTF_8));
                    m.putUserProperty("TIMER_DELIVER_MS", Long.toString(dueMs[i]));
                    assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus(), "timer-" + i);
                }
                Await.until("some timers delivered", 30_000,
                        () -> maxOffset(admin, broker) >= KILL_AFTER_DELIVERED, () -> maxOffset(admin, broker));
            } finally {
                first.kill();
                killedAtMs = System.currentTimeMillis();
                producer.shutdown();
            }
        }

        try (SluiceProcess second = SluiceProcess.start(dir, "standalone", "-c", conf.toString());
             RemotingClient admin = new RemotingClient(ClientSettings.defaults())) {
            second.awaitLine("sluice standalone ready", 60_000);
            long pendingAfterRestart = timerPendingCount(admin, broker);
            long dueAfterRestart = countDueAfter(dueMs, System.currentTimeMillis());
            assertTrue(pendingAfterRestart > 0 || dueAfterRestart == 0, "timerPendingCount after the restart: "
                    + pendingAfterRestart);

            Map<String, Set<Long>> offsetsByBody = new ConcurrentHashMap<>();
            Map<String, Long> storedAtMs = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = StandaloneConf.consumerFromFirst(namesrv, "timer-kill-g",
                    "timer-kill-consumer", TOPIC, (msgs, context) -> {
                        msgs.forEach(m -> {
                            String body = new String(m.getBody(), StandardCharsets.UTF_8);
                            offsetsByBody.computeIfAbsent(body, k -> ConcurrentHashMap.newKeySet())
                                    .add(m.getQueueOffset());
                            storedAtMs.merge(body, m.getStoreTimestamp(), Math::min);
                        });
                        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                    });
            try {
                consumer.start();
                Await.until("every timer delivered after the restart", 60_000,
                        () -> offsetsByBody.size() == TIMERS, offsetsByBody::size);
                Await.until("nothing pending", 30_000, () -> timerPendingCount(admin, broker) == 0,
                        () -> timerPendingCount(admin, broker));
                long stored = maxOffset(admin, broker);
                Await.until("the consumer read every stored copy", 30_000,
                        () -> offsetsByBody.values().stream().mapToLong(Set::size).sum() == stored,
                        () -> offsetsByBody.values().stream().mapToLong(Set::size).sum() + " of " + stored);
            } finally {
                consumer.shutdown();
            }

            long duplicates = maxOffset(admin, broker) - TIMERS;
            long dueBeforeKill = TIMERS - countDueAfter(dueMs, killedAtMs);
            System.out.printf("TimerKillIT: %d timers, %d due before the kill, %d stored twice across it%n", TIMERS,
                    dueBeforeKill, duplicates);
            for (int i = 0; i < TIMERS; i++) {
                String body = "timer-" + i;
                int copies = offsetsByBody.get(body).size();
                assertTrue(storedAtMs.get(body) >= dueMs[i], body + " stored before its time");
                if (copies > 1) {
                    assertEquals(2, copies, body + " stored at most twice");
                    assertTrue(dueMs[i] <= killedAtMs, body + " doubled though it fell due after the kill");
                }
            }
            assertTrue(duplicates <= dueBeforeKill, duplicates + " doubles, " + dueBeforeKill + " due before the kill");
        }
    }

    private static long countDueAfter(long[] dueMs, long atMs) {
        long n = 0;
        for (long due : dueMs) {
            if (due > atMs) {
                n++;
            }
        }
        return n;
    }

    private static long maxOffset(RemotingClient admin, String brokerAddr) {
        return StandaloneConf.maxOffset(admin, brokerAddr, TOPIC, 0);
    }

    /** GET_BROKER_RUNTIME_INFO's timerPendingCount. */
    private static long timerPendingCount(RemotingClient admin, String brokerAddr) {
        RemotingCommand answer = admin.invoke(brokerAddr,
                RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO), 10_000).join();
        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
        String table = new String(answer.body(), StandardCharsets.UTF_8);
        Matcher m = PENDING.matcher(table);
        assertTrue(m.find(), "no timerPendingCount in " + table);
        return Long.parseLong(m.group(1));
    }
}
