package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CONSUMER_SEND_MSG_BACK and delay levels with the Apache 5.3.1 push consumer (docs/wire-protocol.md#send-back). */
class SendBackIT {

    @TempDir
    Path dir;

    @Test
    void aMessageTheListenerRejectsOnceComesBackThroughTheRetryTopic() throws Exception {
        // Level 3 (the first retry of a message) waits 1 s instead of 10 s.
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of("messageDelayLevel", "1s 1s 1s"))) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "retry-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), "retry-g");
            List<MessageExt> deliveries = new CopyOnWriteArrayList<>();
            try {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig("RetryTopic", 1, 1, 6));
                consumer.subscribe("RetryTopic", "*");
                consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                    deliveries.addAll(msgs);
                    return msgs.get(0).getReconsumeTimes() == 0
                            ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
                consumer.start();
                producer.start();

                SendResult sent = producer.send(new Message("RetryTopic", "TagB", "KEY1",
                        "retry-me".getBytes(StandardCharsets.UTF_8)));
                assertEquals(SendStatus.SEND_OK, sent.getSendStatus());

                Await.until("the message comes back from %RETRY%retry-g", 60_000, () -> deliveries.size() >= 2,
                        () -> deliveries);
                MessageExt first = deliveries.get(0);
                MessageExt again = deliveries.get(1);
                assertEquals(0, first.getReconsumeTimes());
                assertEquals(1, again.getReconsumeTimes());
                assertEquals("RetryTopic", again.getTopic(), "the client restores the original topic");
                assertEquals("retry-me", new String(again.getBody(), StandardCharsets.UTF_8));
                assertEquals(sent.getMsgId(), again.getMsgId(), "UNIQ_KEY is kept");
                assertEquals("TagB", again.getTags());
                assertEquals("KEY1", again.getKeys());
                assertEquals("RetryTopic", again.getProperty("RETRY_TOPIC"));
                assertEquals(sent.getOffsetMsgId(), again.getProperty("ORIGIN_MESSAGE_ID"));
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }
}
