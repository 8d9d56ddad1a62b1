package io.sluice.broker;

import io.sluice.testing.Await;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/** Apache 5.3.1 clients pointed at an embedded name server, each with its own instance name. */
final class ApacheClients {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    static {
        // The Apache client reads these once; they shorten rebalance and route refresh waits for every IT in
        // this JVM (defaults 20 s and 30 s).
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");
    }

    private ApacheClients() {
    }

    static String instance(String prefix) {
        return prefix + "-" + INSTANCES.incrementAndGet();
    }

    static DefaultMQProducer producer(String namesrv, String group) {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(instance("producer"));
        producer.setSendMsgTimeout(10_000);
        return producer;
    }

    static DefaultMQPushConsumer pushConsumer(String namesrv, String group) {
        return withTestIntervals(new DefaultMQPushConsumer(group), namesrv);
    }

    /** A push consumer whose requests {@code signer} signs (an {@code AclClientRPCHook}, say). */
    static DefaultMQPushConsumer pushConsumer(String namesrv, String group, RPCHook signer) {
        return withTestIntervals(new DefaultMQPushConsumer(group, signer, new AllocateMessageQueueAveragely()),
                namesrv);
    }

    /**
     * Points {@code consumer} at {@code namesrv}, from the first offset, with one-second route, heartbeat and
     * offset-commit intervals. The heartbeat interval bounds a race in the Apache client: a rebalance that takes a
     * queue gives the subscription a new subVersion and tells the broker by a heartbeat, but skips that heartbeat
     * when another one holds the client's heartbeat lock (the first scheduled heartbeat falls due together with
     * the first rebalance, a second after start). The broker, as Apache's does, then answers every pull with
     * SUBSCRIPTION_NOT_LATEST until the next scheduled heartbeat: 30 s later with the client's default.
     */
    static DefaultMQPushConsumer withTestIntervals(DefaultMQPushConsumer consumer, String namesrv) {
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(instance("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        return consumer;
    }

    /**
     * Subscribes {@code consumer} to every message of {@code topic}, counting deliveries in {@code received}, starts
     * it and waits until {@code expected} messages arrived.
     */
    static void consumeCounting(DefaultMQPushConsumer consumer, String topic, AtomicInteger received, int expected)
            throws MQClientException {
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            received.addAndGet(msgs.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        Await.until("every message is consumed", 30_000, () -> received.get() >= expected, received::get);
    }

    static DefaultMQAdminExt admin(String namesrv) {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(10_000);
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName(instance("admin"));
        return admin;
    }
}
