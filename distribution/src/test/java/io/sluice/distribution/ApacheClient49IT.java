package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache RocketMQ 4.9.8 client against an in-process name server and broker: single sends (SEND_MESSAGE_V2)
 * and batch sends (SEND_BATCH_MESSAGE) are stored, and a push consumer receives every message.
 */
class ApacheClient49IT {

    private static final String TOPIC = "Client49Topic";
    private static final int SINGLES = 20;
    private static final int BATCHES = 4;
    private static final int BATCH_SIZE = 10;

    static {
        // Read once by the client: shortens the rebalance period (default 20 s) for this JVM.
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");
    }

    @TempDir
    Path dir;

    @Test
    void plainAndBatchSendsAreStoredAndAPushConsumerReceivesEverything() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of());
             RemotingClient admin = new RemotingClient(ClientSettings.defaults())) {
            StandaloneConf.createTopic(admin, cluster.brokerAddr(), TOPIC, 4);

            DefaultMQProducer producer = new DefaultMQProducer("client49-pg");
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setInstanceName("client49-producer");
            producer.setSendMsgTimeout(10_000);
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("client49-g");
            consumer.setNamesrvAddr(cluster.namesrvAddr());
            consumer.setInstanceName("client49-consumer");
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.setPollNameServerInterval(1_000);
            // A rebalance's heartbeat lost to a concurrent one is made good by the next (StandaloneConf).
            consumer.setHeartbeatBrokerInterval(1_000);
            Set<String> received = ConcurrentHashMap.newKeySet();
            try {
                producer.start();
                List<String> sent = new ArrayList<>();
                for (int i = 0; i < SINGLES; i++) {
                    String body = "single-" + i;
                    SendResult r = producer.send(new Message(TOPIC, "TagA", "k" + i,
                            body.getBytes(StandardCharsets.UTF_8)));
                    assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
                    sent.add(body);
                }
                for (int b = 0; b < BATCHES; b++) {
                    List<Message> batch = new ArrayList<>();
                    for (int i = 0; i < BATCH_SIZE; i++) {
                        String body = "batch-" + b + "-" + i;
                        batch.add(new Message(TOPIC, "TagA", body.getBytes(StandardCharsets.UTF_8)));
                        sent.add(body);
                    }
                    SendResult r = producer.send(batch);
                    assertEquals(SendStatus.SEND_OK, r.getSendStatus(), r.toString());
                    assertEquals(BATCH_SIZE, r.getOffsetMsgId().split(",").length,
                            "one offset message id per message of a SimpleCQ batch");
                }

                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                    msgs.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                consumer.start();
                Await.until("the push consumer receives every message", 45_000,
                        () -> received.size() == sent.size(), () -> received.size() + " of " + sent.size());
                assertEquals(Set.copyOf(sent), received);
            } finally {
                consumer.shutdown();
                producer.shutdown();
            }
        }
    }
}
