package io.sluice.benchmark.load;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The Apache RocketMQ 5.3 Java client, against any RocketMQ-protocol cluster (the Apache broker, or Sluice),
 * configured as OMB's stock RocketMQ driver with the OMB kit's driver files: producers use auto-batching
 * ({@code autoBatch=true}: 32 KiB or 10 ms per batch, the client's defaults) and the client's asynchronous
 * back-pressure ({@value #BACKPRESSURE_SENDS} sends in flight); consumers are push consumers with the client's
 * defaults (pull batch 32, one message per listener call, 20 consume threads), starting from the first offset.
 * OMB's driver is built on client 5.1.4, this one on 5.3.1 (the version the project tests against). Thread-safe.
 */
final class ApacheRocketMqDriver implements Driver {

    /** The OMB kit's {@code backpressureConcurrency}: async sends in flight before send blocks. */
    static final int BACKPRESSURE_SENDS = 1024;

    private final String namesrvAddr;
    private final RocketMqTopics topics;

    ApacheRocketMqDriver(String namesrvAddr, String brokerAddr, boolean batchCq) {
        this.namesrvAddr = namesrvAddr;
        this.topics = new RocketMqTopics(namesrvAddr, brokerAddr, batchCq);
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client", "Apache RocketMQ Java client (rocketmq-client) " + clientVersion());
        settings.put(CLIENT_VERSION, clientVersion());
        settings.put("producer", "DefaultMQProducer, async send, autoBatch=true (batchMaxBytes 32 KiB, "
                + "batchMaxDelayMs 10), enableBackpressureForAsyncMode=true, backPressureForAsyncSendNum="
                + BACKPRESSURE_SENDS + ", sendMsgTimeout 10000 ms");
        settings.put("consumer", consumerDescription());
        settings.put("queueType", topics.queueType());
        return settings;
    }

    /** The Apache client's version on the class path, e.g. 5.3.1. */
    static String clientVersion() {
        return MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION).replaceFirst("^V", "").replace('_', '.');
    }

    static String consumerDescription() {
        return "Apache DefaultMQPushConsumer " + clientVersion() + ", CONSUME_FROM_FIRST_OFFSET,"
                + " client defaults (pullBatchSize 32, "
                + "consumeMessageBatchMaxSize 1, 20 consume threads), as OMB's driver-rocketmq";
    }

    @Override
    public void createTopic(String topic, int partitions) {
        topics.create(topic, partitions);
    }

    @Override
    public BenchProducer createProducer(String topic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("bench-producer-" + UUID.randomUUID());
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName("bench-" + UUID.randomUUID());
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(10_000);
        producer.setAutoBatch(true);
        producer.setEnableBackpressureForAsyncMode(true);
        producer.setBackPressureForAsyncSendNum(BACKPRESSURE_SENDS);
        producer.start();
        return new BenchProducer() {
            @Override
            public void send(byte[] body, Outcome outcome) {
                try {
                    producer.send(new Message(topic, body), new SendCallback() {
                        @Override
                        public void onSuccess(SendResult result) {
                            outcome.completed(null);
                        }

                        @Override
                        public void onException(Throwable error) {
                            outcome.completed(error);
                        }
                    });
                } catch (Exception e) {
                    outcome.completed(e);
                }
            }

            @Override
            public void close() {
                producer.shutdown();
            }
        };
    }

    @Override
    public BenchConsumer createConsumer(String topic, String subscription, int minQueues, Receiver receiver)
            throws Exception {
        return pushConsumer(namesrvAddr, topic, subscription, minQueues, receiver);
    }

    /**
     * A started Apache push consumer delivering every body to {@code receiver}, owning at least {@code minQueues}.
     * Its process-queue table, the only view of a push consumer's assignment, is reached through an implementation
     * accessor that the Apache client marks deprecated.
     */
    @SuppressWarnings("deprecation")
    static BenchConsumer pushConsumer(String namesrvAddr, String topic, String group, int minQueues,
                                      Receiver receiver) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName("bench-" + UUID.randomUUID());
        consumer.setVipChannelEnabled(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt message : messages) {
                receiver.received(message.getBody().length, message.getBornTimestamp());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            AssignmentWait.await("Apache push consumer of " + topic, () -> (int) consumer.getDefaultMQPushConsumerImpl()
                    .getRebalanceImpl().getProcessQueueTable().keySet().stream()
                    .filter(queue -> queue.getTopic().equals(topic)).count(), minQueues);
        } catch (InterruptedException | RuntimeException e) {
            consumer.shutdown();
            throw e;
        }
        return consumer::shutdown;
    }

    @Override
    public void close() {
        topics.close();
    }
}
