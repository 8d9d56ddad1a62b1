package io.sluice.remoting.protocol.body;

import io.sluice.format.TopicFilterType;
import java.util.Map;

/**
 * A topic's configuration as it travels in JSON bodies (Apache {@code TopicConfig}): inside {@link
 * TopicConfigSerializeWrapper#topicConfigTable()} and as the GET_TOPIC_CONFIG response body. Example:
 * <pre>
 * {"attributes":{"queue.type":"BatchCQ"},"order":false,"perm":6,"readQueueNums":4,
 *  "topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":4}
 * </pre>
 *
 * @param topicName the topic
 * @param readQueueNums number of readable queues (ids {@code 0..n-1})
 * @param writeQueueNums number of writable queues
 * @param perm permission bits: 8 priority, 4 read, 2 write, 1 inherit
 * @param topicFilterType tag style; {@link TopicFilterType#SINGLE_TAG} when absent
 * @param topicSysFlag system flag bits (1 unit topic, 2 unit subscription); 0 in practice
 * @param order whether the topic is ordered
 * @param attributes stored attributes without the {@code +} prefix, e.g. {@code queue.type -> BatchCQ}; never null
 */
public record TopicConfigWire(
        String topicName,
        int readQueueNums,
        int writeQueueNums,
        int perm,
        TopicFilterType topicFilterType,
        int topicSysFlag,
        boolean order,
        Map<String, String> attributes) {

    /** Validates the topic name and normalises absent members. */
    public TopicConfigWire {
        Copies.required(topicName, "topicName");
        topicFilterType = topicFilterType == null ? TopicFilterType.SINGLE_TAG : topicFilterType;
        attributes = Copies.map(attributes, "attributes");
    }

    /**
     * A plain read-write SimpleCQ topic config with no attributes.
     *
     * @param topicName the topic
     * @param queueNums read and write queue count
     * @param perm permission bits
     * @return the config
     */
    public static TopicConfigWire of(String topicName, int queueNums, int perm) {
        return new TopicConfigWire(topicName, queueNums, queueNums, perm, TopicFilterType.SINGLE_TAG, 0, false,
                Map.of());
    }
}
