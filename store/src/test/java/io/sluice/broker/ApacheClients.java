package io.sluice.broker;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
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
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(instance("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        return consumer;
    }

    static DefaultMQAdminExt admin(String namesrv) {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(10_000);
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName(instance("admin"));
        return admin;
    }
}
