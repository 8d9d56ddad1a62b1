package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testing.Await;
import io.sluice.broker.testing.NamesrvAndBroker;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.LockBatchRequestBody;
import io.sluice.remoting.protocol.body.LockBatchResponseBody;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MessageListenerOrderly: the consumer locks its queues (LOCK_BATCH_MQ) and receives each queue in order. */
class OrderlyConsumerIT {

    private static final String TOPIC = "OrderTopic";
    private static final String GROUP = "orderly-g";
    private static final int MESSAGES = 40;

    @TempDir
    Path dir;

    @Test
    void anOrderlyConsumerLocksItsQueuesAndReceivesThemInOrder() throws Exception {
        try (NamesrvAndBroker cluster = NamesrvAndBroker.start(dir, Map.of())) {
            DefaultMQAdminExt admin = ApacheClients.admin(cluster.namesrvAddr());
            DefaultMQProducer producer = ApacheClients.producer(cluster.namesrvAddr(), "orderly-pg");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(cluster.namesrvAddr(), GROUP);
            Map<Integer, List<String>> received = new ConcurrentHashMap<>();
            try (RemotingClient other = new RemotingClient(ClientSettings.defaults())) {
                admin.start();
                admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(TOPIC, 2, 2, 6));
                producer.start();
                for (int i = 0; i < MESSAGES; i++) {
                    SendResult r = producer.send(new Message(TOPIC, ("m-" + i).getBytes(StandardCharsets.UTF_8)),
                            (mqs, msg, orderKey) -> mqs.get((Integer) orderKey % mqs.size()), i);
                    assertEquals(SendStatus.SEND_OK, r.getSendStatus());
                    assertEquals(i % 2, r.getMessageQueue().getQueueId());
                }

                consumer.subscribe(TOPIC, "*");
                consumer.registerMessageListener((MessageListenerOrderly) (msgs, context) -> {
                    msgs.forEach(m -> received.computeIfAbsent(m.getQueueId(), q -> new CopyOnWriteArrayList<>())
                            .add(new String(m.getBody(), StandardCharsets.UTF_8)));
                    return ConsumeOrderlyStatus.SUCCESS;
                });
                consumer.start();
                Await.until("every message is consumed", 45_000,
                        () -> received.values().stream().mapToInt(List::size).sum() == MESSAGES, () -> received);
                for (int queueId = 0; queueId < 2; queueId++) {
                    List<String> expected = new ArrayList<>();
                    for (int i = queueId; i < MESSAGES; i += 2) {
                        expected.add("m-" + i);
                    }
                    assertEquals(expected, received.get(queueId), "queue " + queueId + " in send order");
                }

                Set<io.sluice.remoting.protocol.body.MessageQueue> queues = Set.of(
                        new io.sluice.remoting.protocol.body.MessageQueue(TOPIC, "broker-a", 0),
                        new io.sluice.remoting.protocol.body.MessageQueue(TOPIC, "broker-a", 1));
                RemotingCommand lock = RemotingCommand.request(RequestCode.LOCK_BATCH_MQ).setBody(BodyCodec.encode(
                        new LockBatchRequestBody(GROUP, "someone-else", false, queues)));
                RemotingCommand answer = other.invoke(cluster.brokerAddr(), lock, 5_000).join();
                assertEquals(ResponseCode.SUCCESS, answer.code());
                assertEquals(Set.of(), BodyCodec.decode(answer.body(), LockBatchResponseBody.class).lockOKMQSet(),
                        "the orderly consumer holds both queues");
            } finally {
                consumer.shutdown();
                producer.shutdown();
                admin.shutdown();
            }
        }
    }
}
