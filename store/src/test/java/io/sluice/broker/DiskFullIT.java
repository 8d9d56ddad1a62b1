package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.store.StoreEnvironment;
import io.sluice.store.retention.DiskUsage;
import io.sluice.store.retention.SimulatedDisk;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker on a simulated 256 MiB disk whose use grows with the CommitLog, driven by the unmodified Apache client:
 * once the disk passes {@code diskSpaceWarningLevelRatio} every send is refused (SERVICE_NOT_AVAILABLE, code 14,
 * "disk is full", as Apache RocketMQ answers), never SEND_OK and never SYSTEM_ERROR; after space frees sends are
 * accepted again, and a consumer then reads every accepted message intact.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DiskFullIT {

    private static final String TOPIC = "DiskFull";
    private static final long TOTAL_BYTES = 256L << 20;
    private static final int BODY_BYTES = 16 * 1024;

    @TempDir
    Path dir;

    /** Bytes used besides the CommitLog; the test fills and frees the disk through it. */
    private final AtomicLong otherBytes = new AtomicLong(64L << 20);
    private final AtomicReference<NamesrvAndBroker> cluster = new AtomicReference<>();

    private long usedBytes() {
        NamesrvAndBroker c = cluster.get();
        long log = c == null || c.broker().store() == null ? 0 : c.broker().store().stats().writtenPosition();
        return otherBytes.get() + log;
    }

    @Test
    void sendsAreRefusedWhileTheDiskIsFullAndNothingAcceptedIsLost() throws Exception {
        DiskUsage simulated = new SimulatedDisk(TOTAL_BYTES, this::usedBytes);
        StoreEnvironment env = StoreEnvironment.system().withDiskUsage(simulated);
        try (NamesrvAndBroker c = NamesrvAndBroker.start(dir, Map.of("diskSpaceWarningLevelRatio", "90"), env)) {
            cluster.set(c);
            DefaultMQAdminExt admin = ApacheClients.admin(c.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(c.namesrvAddr(), "disk-full-pg");
            producer.setRetryTimesWhenSendFailed(0);
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(c.namesrvAddr(), "disk-full-cg");
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(c.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
                producer.start();

                int accepted = 0;
                for (; accepted < 20; accepted++) {
                    assertEquals(SendStatus.SEND_OK, producer.send(message(accepted)).getSendStatus());
                }

                otherBytes.set(TOTAL_BYTES * 95 / 100); // someone else fills the disk past 90 %
                MQBrokerException refusal = null;
                while (refusal == null) {
                    try {
                        producer.send(message(accepted));
                        accepted++; // sent before the disk check (every second) saw the disk fill up
                        assertTrue(accepted < 10_000, "sends were never refused");
                    } catch (MQClientException e) {
                        refusal = brokerAnswer(e);
                    }
                }
                assertDiskFull(refusal);
                for (int i = 0; i < 5; i++) {
                    int n = accepted;
                    assertDiskFull(brokerAnswer(assertThrows(MQClientException.class,
                            () -> producer.send(message(n)))));
                }

                otherBytes.set(64L << 20); // space frees
                Await.until("sends accepted again", () -> sendsAgain(producer));
                for (int i = 0; i < 10; i++) {
                    assertEquals(SendStatus.SEND_OK, producer.send(message(accepted)).getSendStatus());
                    accepted++;
                }

                Set<Integer> received = ConcurrentHashMap.newKeySet();
                Set<String> corrupt = ConcurrentHashMap.newKeySet();
                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                    for (MessageExt m : messages) {
                        int n = ByteBuffer.wrap(m.getBody()).getInt();
                        if (!Arrays.equals(m.getBody(), body(n))) {
                            corrupt.add(m.getMsgId());
                        }
                        received.add(n);
                    }
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                consumer.start();
                int expected = accepted;
                Await.until("every accepted message consumed", () -> received.size() >= expected + 1);
                assertEquals(Set.of(), corrupt, "corrupt bodies");
                for (int n = 0; n < accepted; n++) {
                    assertTrue(received.contains(n), "message " + n + " was accepted and is lost");
                }
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }

    /** One send of the probe message -1: true when accepted, false when refused for the full disk. */
    private static boolean sendsAgain(DefaultMQProducer producer) {
        try {
            return producer.send(message(-1)).getSendStatus() == SendStatus.SEND_OK;
        } catch (MQClientException e) {
            assertDiskFull(brokerAnswer(e));
            return false;
        } catch (Exception e) {
            throw new AssertionError("the probe send failed", e);
        }
    }

    /**
     * The broker's answer inside the client's exception: the Apache client retries SERVICE_NOT_AVAILABLE (here
     * not at all) and reports it wrapped.
     */
    private static MQBrokerException brokerAnswer(MQClientException e) {
        if (e.getCause() instanceof MQBrokerException answer) {
            return answer;
        }
        throw new AssertionError("not a broker answer", e);
    }

    private static void assertDiskFull(MQBrokerException e) {
        assertEquals(ResponseCode.SERVICE_NOT_AVAILABLE, e.getResponseCode(), e.getErrorMessage());
        assertTrue(e.getErrorMessage().contains("disk is full"), e.getErrorMessage());
    }

    private static Message message(int n) {
        return new Message(TOPIC, body(n));
    }

    /** The sequence number, then bytes derived from it: a body that shows any corruption. */
    private static byte[] body(int n) {
        ByteBuffer b = ByteBuffer.allocate(BODY_BYTES).putInt(n);
        while (b.hasRemaining()) {
            b.put((byte) (n * 31 + b.position()));
        }
        return b.array();
    }
}
