package io.sluice.remoting.protocol.body;

/**
 * A topic's queues on one broker name, as listed in routes:
 * {@code {"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}}.
 *
 * @param brokerName the broker name hosting the queues
 * @param readQueueNums number of readable queues
 * @param writeQueueNums number of writable queues
 * @param perm permission bits: 8 priority, 4 read, 2 write, 1 inherit
 * @param topicSysFlag system flag bits; 0 in practice
 */
public record QueueData(String brokerName, int readQueueNums, int writeQueueNums, int perm, int topicSysFlag) {

    /** Validates the name. */
    public QueueData {
        Copies.required(brokerName, "brokerName");
    }

    /**
     * The queue data a broker's topic config implies.
     *
     * @param brokerName the broker name
     * @param config the topic's config on that broker
     * @return the queue data
     */
    public static QueueData from(String brokerName, TopicConfigWire config) {
        return new QueueData(brokerName, config.readQueueNums(), config.writeQueueNums(), config.perm(),
                config.topicSysFlag());
    }
}
