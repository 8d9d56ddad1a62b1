package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.RemotingClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

/**
 * Test helpers for standalone processes: free ports, a small-file broker.conf, topic creation and max offsets by
 * request, a push consumer.
 */
final class StandaloneConf {

    private StandaloneConf() {
    }

    /** A loopback port free at the time of the call. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Writes {@code dir/broker.conf}: the name server and broker on the given loopback ports (the HA port on any
     * free one: listenPort + 1 may be taken), the store under
     * {@code dir/store} with small files, then {@code extraLines}.
     */
    static Path write(Path dir, int namesrvPort, int brokerPort, String... extraLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "namesrvAddr=127.0.0.1:" + namesrvPort,
                "listenPort=" + brokerPort,
                "haListenPort=0",
                "brokerIP1=127.0.0.1",
                "storePathRootDir=" + dir.resolve("store"),
                "mappedFileSizeCommitLog=" + 16 * 1024 * 1024,
                "mappedFileSizeConsumeQueue=" + 20 * 10_000,
                "mapperFileSizeBatchConsumeQueue=" + 46 * 10_000));
        lines.addAll(List.of(extraLines));
        lines.add("");
        Path conf = dir.resolve("broker.conf");
        Files.writeString(conf, String.join("\n", lines), StandardCharsets.UTF_8);
        return conf;
    }

    /** UPDATE_AND_CREATE_TOPIC with {@code queues} queues (the 4.9.8 jars in this module include no admin tools). */
    static void createTopic(RemotingClient admin, String brokerAddr, String topic, int queues) {
        RemotingCommand create = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", topic)
                .putExtField("defaultTopic", "TBW102")
                .putExtField("readQueueNums", queues)
                .putExtField("writeQueueNums", queues)
                .putExtField("perm", 6)
                .putExtField("topicFilterType", "SINGLE_TAG");
        RemotingCommand answer = admin.invoke(brokerAddr, create, 10_000).join();
        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
    }

    /** GET_MAX_OFFSET of a queue: one past its last message. */
    static long maxOffset(RemotingClient admin, String brokerAddr, String topic, int queueId) {
        RemotingCommand query = RemotingCommand.request(RequestCode.GET_MAX_OFFSET)
                .putExtField("topic", topic).putExtField("queueId", queueId);
        RemotingCommand answer = admin.invoke(brokerAddr, query, 10_000).join();
        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
        return Long.parseLong(answer.extField("offset"));
    }

    /**
     * A push consumer (not started) of every message of {@code topic} from its first offset. It heartbeats every
     * second: a rebalance tells the broker its subscription's new subVersion by a heartbeat that the client skips
     * when another heartbeat holds its lock, and until the next one the broker refuses the consumer's pulls with
     * SUBSCRIPTION_NOT_LATEST (30 s with the client's default interval).
     */
    static DefaultMQPushConsumer consumerFromFirst(String namesrv, String group, String instance, String topic,
                                                   MessageListenerConcurrently listener) throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(instance);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener(listener);
        return consumer;
    }
}
