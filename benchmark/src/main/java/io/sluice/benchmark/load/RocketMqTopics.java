package io.sluice.benchmark.load;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ClientSettings;
import io.sluice.remoting.transport.RemotingClient;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Creates topics on a RocketMQ-protocol broker (Sluice's or Apache's: the wire is the same) with
 * UPDATE_AND_CREATE_TOPIC, and waits until the name server routes them. Thread-safe; owns one remoting client.
 */
final class RocketMqTopics implements AutoCloseable {

    private static final long TIMEOUT_MS = 60_000;

    private final String namesrvAddr;
    private final String brokerAddr;
    private final boolean batchCq;
    private final RemotingClient client = new RemotingClient(ClientSettings.defaults());

    /**
     * @param batchCq create topics with {@code queue.type=BatchCQ} (auto-batches stored as one record and one index
     *                slot) instead of SimpleCQ
     */
    RocketMqTopics(String namesrvAddr, String brokerAddr, boolean batchCq) {
        this.namesrvAddr = namesrvAddr;
        this.brokerAddr = brokerAddr;
        this.batchCq = batchCq;
    }

    String queueType() {
        return batchCq ? "BatchCQ" : "SimpleCQ";
    }

    void create(String topic, int queues) {
        RemotingCommand create = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", topic)
                .putExtField("defaultTopic", "TBW102")
                .putExtField("readQueueNums", queues)
                .putExtField("writeQueueNums", queues)
                .putExtField("perm", 6)
                .putExtField("topicFilterType", "SINGLE_TAG")
                .putExtField("topicSysFlag", 0)
                .putExtField("order", false)
                .putExtField("attributes", "+queue.type=" + queueType());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        RemotingCommand answer = client.invoke(brokerAddr, create, TIMEOUT_MS).join();
        // A broker answers SYSTEM_BUSY while it is still starting (its port opens before its store): try again.
        while (answer.code() == ResponseCode.SYSTEM_BUSY && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            answer = client.invoke(brokerAddr, create, TIMEOUT_MS).join();
        }
        if (answer.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("creating topic " + topic + " with " + queues + " queues on " + brokerAddr
                    + " failed: code " + answer.code() + " " + answer.remark());
        }
        while (true) {
            RemotingCommand query = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                    .putExtField("topic", topic);
            RemotingCommand route = client.invoke(namesrvAddr, query, 10_000).join();
            if (route.code() == ResponseCode.SUCCESS) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("name server " + namesrvAddr + " has no route for " + topic
                        + " after " + TIMEOUT_MS + " ms: code " + route.code() + " " + route.remark());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
